package terminal

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSearchDirsOrderAndHostileEntries(t *testing.T) {
	own := []string{"/usr/bin", "/bin", "", "relative/bin", "/usr/bin/"}
	login := []string{"/opt/homebrew/bin", "/Users/p/.local/bin", "/evil\n/bin", "/x\x1b[2J", "~/not-expanded-here"}
	got := SearchDirs(own, login, "/Users/p")
	want := []string{
		"/usr/bin", "/bin", // own PATH first, each once ("/usr/bin/" is the same)
		"/opt/homebrew/bin", "/Users/p/.local/bin", // the login shell's; control characters dropped
		"/Users/p/not-expanded-here", // "~/" means home wherever it comes from
		"/usr/local/bin", "/opt/local/bin", "/Users/p/.nix-profile/bin", "/run/current-system/sw/bin",
	}
	if !slices.Equal(got, want) {
		t.Errorf("SearchDirs:\n got %q\nwant %q", got, want)
	}
	// Without a home, the home-relative places are left out rather than
	// taken relative to the working directory.
	for _, d := range SearchDirs(nil, nil, "") {
		if !filepath.IsAbs(d) || strings.Contains(d, "~") {
			t.Errorf("no home: %q searched", d)
		}
	}
}

func TestFindTakesTheFirstExecutable(t *testing.T) {
	exec := map[string]bool{"/opt/homebrew/bin/tmux": true, "/usr/local/bin/tmux": true}
	isExec := func(p string) bool { return exec[p] }
	dirs := []string{"/usr/bin", "/bin", "/opt/homebrew/bin", "/usr/local/bin"}
	if got := Find("tmux", dirs, isExec); got != "/opt/homebrew/bin/tmux" {
		t.Errorf("Find(tmux) = %q", got)
	}
	for _, bad := range []string{"", "../tmux", "bin/tmux", "/usr/local/bin/tmux", "tmux\x00", "..", "tm\nux"} {
		if got := Find(bad, dirs, func(string) bool { return true }); got != "" {
			t.Errorf("Find(%q) = %q, want nothing", bad, got)
		}
	}
}

func TestParseLoginEnv(t *testing.T) {
	const mark = "MEWENVabc"
	line := func(path, tmp string) string { return mark + path + mark + tmp + mark }
	cases := []struct {
		name, out string
		want      []string
		tmp       string
		ok        bool
	}{
		{"plain", "\n" + line("/opt/homebrew/bin:/usr/bin", "") + "\n", []string{"/opt/homebrew/bin", "/usr/bin"}, "", true},
		{"TMUX_TMPDIR set", line("/a", "/Users/p/.tmux-sockets/") + "\n", []string{"/a"}, "/Users/p/.tmux-sockets", true},
		{"a banner before", "Welcome!\nLast login: today\n\n" + line("/a:/b", "") + "\n", []string{"/a", "/b"}, "", true},
		{"a banner naming a fake PATH first", line("/evil", "/evil") + "\n" + line("/good", "") + "\n", []string{"/good"}, "", true},
		{"relative and empty entries dropped", line("::.:bin:/ok/:/x/../y", "relative"), []string{"/ok", "/y"}, "", true},
		{"too few marks", mark + "/opt/homebrew/bin" + mark, nil, "", false},
		{"no mark", "/opt/homebrew/bin:/usr/bin\n", nil, "", false},
		{"a newline inside", line("/a\n/b", ""), nil, "", false},
		{"escape sequences", line("/a\x1b]0;x\x07:/b", "/t\x1b[2J"), []string{"/b"}, "", true},
	}
	for _, c := range cases {
		got, ok := ParseLoginEnv(c.out, mark)
		if ok != c.ok || !slices.Equal(got.Path, c.want) || got.TmuxTmpdir != c.tmp {
			t.Errorf("%s: got %q %q %v, want %q %q %v", c.name, got.Path, got.TmuxTmpdir, ok, c.want, c.tmp, c.ok)
		}
	}
	huge := line(strings.Repeat("/d:", 10000), "")
	if got, _ := ParseLoginEnv(huge, mark); len(got.Path) > maxPathDirs {
		t.Errorf("kept %d directories", len(got.Path))
	}
	if _, ok := ParseLoginEnv(line("/x", ""), ""); ok {
		t.Errorf("an empty mark matched")
	}
}

func TestLoginShell(t *testing.T) {
	for _, c := range []struct{ env, goos, want string }{
		{"/bin/zsh", "darwin", "/bin/zsh"},
		{"/opt/homebrew/bin/fish", "darwin", "/opt/homebrew/bin/fish"},
		{"", "darwin", "/bin/zsh"},
		{"zsh", "darwin", "/bin/zsh"},
		{"/bin/sh -c evil", "linux", "/bin/sh"},
		{"", "linux", "/bin/sh"},
	} {
		if got := LoginShell(c.env, c.goos); got != c.want {
			t.Errorf("LoginShell(%q, %s) = %q, want %q", c.env, c.goos, got, c.want)
		}
	}
}

func TestLookPathAsksTheLoginShellOnceAndOnlyWhenNeeded(t *testing.T) {
	files := map[string]bool{"/usr/bin/osascript": true, "/brew/bin/tmux": true, "/home/p/.local/bin/claude": true}
	asked := 0
	p := newPrograms(func(k string) string {
		if k == "PATH" {
			return "/usr/bin:/bin"
		}
		return ""
	}, func() LoginEnv { asked++; return LoginEnv{Path: []string{"/brew/bin"}, TmuxTmpdir: "/home/p/.tmux"} }, func(s string) bool { return files[s] }, func() string { return "/home/p" })

	if got := p.tmuxTmpdir(false); got != "" || asked != 0 {
		t.Errorf("before the login shell was asked: %q (asked %d)", got, asked)
	}

	if got, err := p.lookPath("osascript"); err != nil || got != "/usr/bin/osascript" {
		t.Fatalf("osascript: %q, %v", got, err)
	}
	if asked != 0 {
		t.Errorf("the login shell was asked for a program in PATH")
	}
	if got, err := p.lookPath("tmux"); err != nil || got != "/brew/bin/tmux" {
		t.Fatalf("tmux (the login PATH): %q, %v", got, err)
	}
	if got, err := p.lookPath("claude"); err != nil || got != "/home/p/.local/bin/claude" {
		t.Fatalf("claude (a usual place): %q, %v", got, err)
	}
	// The login shell's PATH comes before the usual places.
	files["/brew/bin/claude"] = true
	delete(p.found, "claude")
	if got, _ := p.lookPath("claude"); got != "/brew/bin/claude" {
		t.Errorf("claude in both the login PATH and ~/.local/bin: %q", got)
	}
	delete(files, "/brew/bin/claude")
	if _, err := p.lookPath("codex"); err == nil || !strings.Contains(err.Error(), "codex") {
		t.Errorf("codex: %v, want not found naming it", err)
	}
	p.lookPath("codex")
	if asked != 1 {
		t.Errorf("the login shell was asked %d times", asked)
	}
	// A program removed (brew uninstall) is looked for again, not kept.
	delete(files, "/brew/bin/tmux")
	files["/usr/local/bin/tmux"] = true
	if got, _ := p.lookPath("tmux"); got != "/usr/local/bin/tmux" {
		t.Errorf("after the move: %q", got)
	}
	if _, err := p.lookPath("../tmux"); err == nil {
		t.Errorf("a path was looked up as a name")
	}
	if got := p.searchPath(); !strings.HasPrefix(got, "/usr/bin:/bin:/brew/bin:") {
		t.Errorf("searchPath = %q", got)
	}
	if got := p.tmuxTmpdir(false); got != "/home/p/.tmux" {
		t.Errorf("the login shell's TMUX_TMPDIR: %q", got)
	}
}

// Mew's own TMUX_TMPDIR wins: the login shell is not asked for it.
func TestOwnTmuxTmpdirWins(t *testing.T) {
	asked := 0
	p := newPrograms(func(k string) string {
		if k == "TMUX_TMPDIR" {
			return "/own"
		}
		return ""
	}, func() LoginEnv { asked++; return LoginEnv{TmuxTmpdir: "/login"} }, func(string) bool { return false }, func() string { return "" })
	if got := p.tmuxTmpdir(true); got != "" || asked != 0 {
		t.Errorf("tmuxTmpdir = %q, asked %d", got, asked)
	}
}

// The real login shell: a script standing in for the person's shell, with
// a profile that prints a banner and a PATH of its own.
func TestAskLoginShellRunsTheShell(t *testing.T) {
	dir := t.TempDir()
	sh := filepath.Join(dir, "shell")
	script := "#!/bin/sh\n[ \"$1\" = -l ] || exit 3\nshift\necho 'Welcome to your shell'\nPATH=/brew/bin:/usr/bin\nTMUX_TMPDIR=/sockets\nexport PATH TMUX_TMPDIR\nexec /bin/sh \"$@\"\n"
	if err := os.WriteFile(sh, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := AskLoginShell(context.Background(), sh)
	if err != nil || !slices.Equal(got.Path, []string{"/brew/bin", "/usr/bin"}) || got.TmuxTmpdir != "/sockets" {
		t.Errorf("AskLoginShell = %+v, %v", got, err)
	}
	if _, err := AskLoginShell(context.Background(), "relative/sh"); err == nil {
		t.Errorf("a relative shell ran")
	}
}

func TestCappedKeepsHeadAndTail(t *testing.T) {
	var c capped
	var all strings.Builder
	for i := 0; i < 100000; i++ {
		line := "history line " + strings.Repeat("x", i%7) + "\n"
		all.WriteString(line)
		c.Write([]byte(line))
	}
	c.Write([]byte("❯ the prompt\n"))
	all.WriteString("❯ the prompt\n")
	got, whole := c.String(), all.String()
	if len(got) != headOutput+tailOutput {
		t.Fatalf("kept %d bytes", len(got))
	}
	if got[:headOutput] != whole[:headOutput] || got[headOutput:] != whole[len(whole)-tailOutput:] {
		t.Errorf("not the head and the tail")
	}
	var one capped
	big := strings.Repeat("a", 3*tailOutput) + "END"
	one.Write([]byte(big))
	if s := one.String(); !strings.HasSuffix(s, "END") || len(s) != headOutput+tailOutput {
		t.Errorf("one big write: %d bytes", len(s))
	}
	var small capped
	small.Write([]byte("ok\n"))
	small.Write([]byte("x"))
	if small.String() != "ok\nx" {
		t.Errorf("small = %q", small.String())
	}
}

// BenchmarkAskLoginShell: what asking the login shell costs, once per
// process and only when a program is not in Mew's own PATH (bash -l here,
// with this machine's /etc/profile).
func BenchmarkAskLoginShell(b *testing.B) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		b.Skip("no bash")
	}
	for b.Loop() {
		if env, err := AskLoginShell(context.Background(), "/bin/bash"); err != nil || len(env.Path) == 0 {
			b.Fatal(env, err)
		}
	}
}

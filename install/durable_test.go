package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mew-dev/mew/internal/testbin"
)

// settings.json survives a crash right after `mew install` or `mew
// uninstall`: the new bytes are flushed (fsync) before they take the
// file's name, and the directory is flushed after. Checked on the real
// binary's system calls (strace; skipped without it).
func TestSettingsReplacedDurably(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil || testing.Short() {
		t.Skip("needs strace and the built binaries")
	}
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook"); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	claudeDir := filepath.Join(home, ".claude")
	settings := filepath.Join(claudeDir, "settings.json")
	os.MkdirAll(claudeDir, 0o755)
	os.WriteFile(settings, []byte(`{"model": "opus"}`), 0o644)
	env := []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + claudeDir, "MEW_HOME=" + filepath.Join(home, ".mew"), "PATH=/usr/bin:/bin"}

	for _, command := range []string{"install", "uninstall"} {
		trace := filepath.Join(t.TempDir(), "trace")
		cmd := exec.Command(strace, "-f", "-qq", "-y", "-o", trace,
			"-e", "trace=fsync,fdatasync,rename,renameat,renameat2,link,linkat", mew, command)
		if command == "install" {
			cmd.Args = append(cmd.Args, "--yes")
		}
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", command, err, out)
		}
		lines := joinResumed(strings.Split(string(readFile(t, trace)), "\n"))
		// The call that gives settings.json its new content: an
		// exchange or rename onto it, or a link to it.
		placed := -1
		var tmp string
		onto := regexp.MustCompile(`(?:rename\w*|link\w*)\(.*"([^"]+)", (?:AT_FDCWD(?:<[^>]*>)?, )?"` + regexp.QuoteMeta(settings) + `"`)
		for i, l := range lines {
			if m := onto.FindStringSubmatch(l); m != nil && strings.HasSuffix(l, "= 0") {
				placed, tmp = i, m[1]
			}
		}
		if placed < 0 {
			t.Fatalf("%s: no rename or link onto %s in\n%s", command, settings, strings.Join(lines, "\n"))
		}
		synced := func(path string, from, to int) bool {
			for _, l := range lines[from:to] {
				if strings.Contains(l, "sync(") && strings.Contains(l, "<"+path+">") && strings.HasSuffix(l, "= 0") {
					return true
				}
			}
			return false
		}
		if !synced(tmp, 0, placed) {
			t.Errorf("%s: %s was not flushed before it became settings.json:\n%s", command, tmp, strings.Join(lines, "\n"))
		}
		if !synced(claudeDir, placed, len(lines)) {
			t.Errorf("%s: %s was not flushed after settings.json was replaced:\n%s", command, claudeDir, strings.Join(lines, "\n"))
		}
	}
}

// straceResumed is the end of a call strace printed in two parts: another
// thread's call came between its start ("… <unfinished ...>") and its end.
var straceResumed = regexp.MustCompile(`^(\d+) <\.\.\. \w+ resumed>(.*)$`)

// joinResumed makes each call that strace split one line again, where it
// ended (a check of what came after a call reads from there).
func joinResumed(lines []string) []string {
	const unfinished = " <unfinished ...>"
	started := map[string]string{} // pid → the call's start
	var out []string
	for _, l := range lines {
		if strings.HasSuffix(l, unfinished) {
			pid, _, _ := strings.Cut(l, " ")
			started[pid] = strings.TrimSuffix(l, unfinished)
			continue
		}
		if m := straceResumed.FindStringSubmatch(l); m != nil {
			if start, ok := started[m[1]]; ok {
				delete(started, m[1])
				l = start + m[2]
			}
		}
		out = append(out, l)
	}
	return out
}

func TestJoinResumed(t *testing.T) {
	got := joinResumed([]string{
		`11519 renameat2(AT_FDCWD, "/h/.claude/.settings.json.tmp", AT_FDCWD, "/h/.claude/settings.json", RENAME_EXCHANGE) = 0`,
		`11517 fsync(8</h/.claude> <unfinished ...>`,
		`11519 --- SIGURG {si_signo=SIGURG} ---`,
		`11517 <... fsync resumed>)              = 0`,
		`11520 <... fsync resumed>) = 0`,
	})
	want := []string{
		`11519 renameat2(AT_FDCWD, "/h/.claude/.settings.json.tmp", AT_FDCWD, "/h/.claude/settings.json", RENAME_EXCHANGE) = 0`,
		`11519 --- SIGURG {si_signo=SIGURG} ---`,
		`11517 fsync(8</h/.claude>)              = 0`,
		`11520 <... fsync resumed>) = 0`, // no start seen: kept as it is
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("joined:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

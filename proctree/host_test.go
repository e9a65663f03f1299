package proctree_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"howett.net/plist"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/proctree/bundle"
)

// fakeTable is a process table in memory.
type fakeTable map[int]proctree.Proc

func (f fakeTable) Get(pid int) (proctree.Proc, error) {
	p, ok := f[pid]
	if !ok {
		return proctree.Proc{}, proctree.ErrNoProcess
	}
	return p, nil
}

// add puts procs in the table, each the parent of the one before it (the
// first is the leaf), with start times that go back in time up the chain.
func (f fakeTable) chain(procs ...proctree.Proc) {
	for i := range procs {
		p := procs[i]
		if i+1 < len(procs) {
			p.PPid = procs[i+1].Pid
		} else if p.PPid == 0 {
			p.PPid = 1
		}
		if p.StartMs == 0 {
			p.StartMs = int64(1_700_000_000_000 - 60_000*i)
		}
		f[p.Pid] = p
	}
}

// makeApp creates a real application bundle at dir/rel (a path ending in
// .app) with a Contents/Info.plist in the given plist format, and returns
// the bundle's path.
func makeApp(t *testing.T, dir, rel, bundleID string, format int) string {
	t.Helper()
	app := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Join(app, "Contents", "MacOS"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := plist.Marshal(map[string]any{
		"CFBundleIdentifier":         bundleID,
		"CFBundleName":               filepath.Base(rel),
		"CFBundlePackageType":        "APPL",
		"CFBundleShortVersionString": "1.0",
	}, format)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(app, "Contents", "Info.plist"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return app
}

// exe creates an executable file inside a bundle (or anywhere) and returns
// its path.
func exe(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestAppBundles(t *testing.T) {
	cases := []struct {
		exe  string
		want []string
	}{
		{"/Applications/Ghostty.app/Contents/MacOS/ghostty", []string{"/Applications/Ghostty.app"}},
		{"/Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper.app/Contents/MacOS/Code Helper",
			[]string{"/Applications/Visual Studio Code.app", "/Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper.app"}},
		{"/usr/local/bin/claude", nil},
		{"/opt/x.apps/bin/tool", nil},
		{"relative/Foo.app/Contents/MacOS/foo", nil},
		{"/.app/Contents/MacOS/x", nil},
		{"/Applications/Foo.app", nil}, // the bundle itself, not something inside it
		{"", nil},
	}
	for _, c := range cases {
		if got := proctree.AppBundles(c.exe); !slices.Equal(got, c.want) {
			t.Errorf("AppBundles(%q) = %q, want %q", c.exe, got, c.want)
		}
		want := ""
		if len(c.want) > 0 {
			want = c.want[0]
		}
		if got := proctree.OutermostApp(c.exe); got != want {
			t.Errorf("OutermostApp(%q) = %q, want %q", c.exe, got, want)
		}
	}
}

func TestHostHelperInsideIDEIsTheIDE(t *testing.T) {
	dir := t.TempDir()
	code := makeApp(t, dir, "Visual Studio Code.app", "com.microsoft.VSCode", plist.XMLFormat)
	helper := makeApp(t, dir, "Visual Studio Code.app/Contents/Frameworks/Code Helper.app", "com.microsoft.VSCode.helper", plist.BinaryFormat)
	tab := fakeTable{}
	tab.chain(
		proctree.Proc{Pid: 500, Name: "claude", Exe: exe(t, filepath.Join(dir, "bin/claude"))},
		proctree.Proc{Pid: 400, Name: "zsh", Exe: "/bin/zsh"},
		proctree.Proc{Pid: 300, Name: "Code Helper", Exe: exe(t, filepath.Join(helper, "Contents/MacOS/Code Helper"))},
		proctree.Proc{Pid: 200, Name: "Electron", Exe: exe(t, filepath.Join(code, "Contents/MacOS/Electron"))},
	)
	got, err := proctree.Host(tab, 500, bundle.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.AppPath != code || got.BundleID != "com.microsoft.VSCode" || got.Pid != 300 {
		t.Errorf("host = %+v, want VS Code itself (the outermost bundle) found at the helper, pid 300", got)
	}
}

func TestHostNestedAppAndFakeBundleDirectory(t *testing.T) {
	dir := t.TempDir()
	outer := makeApp(t, dir, "Outer.app", "com.example.outer", plist.XMLFormat)
	makeApp(t, dir, "Outer.app/Contents/Resources/Inner.app", "com.example.inner", plist.XMLFormat)
	tab := fakeTable{}
	tab.chain(
		proctree.Proc{Pid: 20, Name: "agent", Exe: "/usr/bin/agent"},
		proctree.Proc{Pid: 10, Name: "inner", Exe: exe(t, filepath.Join(outer, "Contents/Resources/Inner.app/Contents/MacOS/inner"))},
	)
	got, err := proctree.Host(tab, 20, bundle.ID)
	if err != nil || got.BundleID != "com.example.outer" || got.AppPath != outer {
		t.Fatalf("nested: host = %+v, %v; want the outer app", got, err)
	}

	// A source tree that happens to be called "tools.app" is no bundle: the
	// real bundle inside it is the host.
	fakeDir := filepath.Join(dir, "src", "tools.app")
	term := makeApp(t, fakeDir, "Term.app", "com.example.term", plist.BinaryFormat)
	tab = fakeTable{}
	tab.chain(
		proctree.Proc{Pid: 21, Name: "agent", Exe: "/usr/bin/agent"},
		proctree.Proc{Pid: 11, Name: "term", Exe: exe(t, filepath.Join(term, "Contents/MacOS/term"))},
	)
	got, err = proctree.Host(tab, 21, bundle.ID)
	if err != nil || got.BundleID != "com.example.term" || got.AppPath != term {
		t.Fatalf("fake outer directory: host = %+v, %v; want Term.app", got, err)
	}
}

// A terminal started from an IDE's integrated terminal: the nearest
// application (the terminal) is the host, not the IDE further up.
func TestHostTerminalStartedFromIDE(t *testing.T) {
	dir := t.TempDir()
	code := makeApp(t, dir, "Visual Studio Code.app", "com.microsoft.VSCode", plist.XMLFormat)
	alacritty := makeApp(t, dir, "Alacritty.app", "org.alacritty", plist.XMLFormat)
	tab := fakeTable{}
	tab.chain(
		proctree.Proc{Pid: 900, Name: "claude", Exe: "/opt/claude/bin/claude"},
		proctree.Proc{Pid: 800, Name: "zsh", Exe: "/bin/zsh"},
		proctree.Proc{Pid: 700, Name: "alacritty", Exe: exe(t, filepath.Join(alacritty, "Contents/MacOS/alacritty"))},
		proctree.Proc{Pid: 600, Name: "zsh", Exe: "/bin/zsh"},
		proctree.Proc{Pid: 500, Name: "Code Helper", Exe: exe(t, filepath.Join(code, "Contents/Frameworks/Code Helper.app/Contents/MacOS/Code Helper"))},
		proctree.Proc{Pid: 400, Name: "Electron", Exe: exe(t, filepath.Join(code, "Contents/MacOS/Electron"))},
	)
	got, err := proctree.Host(tab, 900, bundle.ID)
	if err != nil || got.BundleID != "org.alacritty" || got.Pid != 700 {
		t.Fatalf("host = %+v, %v; want Alacritty (pid 700)", got, err)
	}
}

func TestHostITermServerDaemon(t *testing.T) {
	tab := fakeTable{}
	tab.chain(
		proctree.Proc{Pid: 90, Name: "claude", Exe: "/opt/claude"},
		proctree.Proc{Pid: 80, Name: "zsh", Exe: "/bin/zsh"},
		proctree.Proc{Pid: 70, Name: "login", Exe: "/usr/bin/login"},
		proctree.Proc{Pid: 60, Name: "iTermServer-3.5", Exe: "/Users/dev/Library/Application Support/iTerm2/iTermServer-3.5.11"},
	)
	got, err := proctree.Host(tab, 90, bundle.ID)
	if err != nil || got.BundleID != "com.googlecode.iterm2" || got.Pid != 60 || got.AppPath != "" {
		t.Fatalf("host = %+v, %v; want iTerm2 from its session daemon", got, err)
	}
}

func TestHostNone(t *testing.T) {
	tab := fakeTable{}
	tab.chain(
		proctree.Proc{Pid: 30, Name: "claude", Exe: "/usr/bin/claude"},
		proctree.Proc{Pid: 20, Name: "bash", Exe: "/bin/bash"},
		proctree.Proc{Pid: 10, Name: "tmux: server", Exe: "/usr/bin/tmux"},
	)
	if got, err := proctree.Host(tab, 30, bundle.ID); !errors.Is(err, proctree.ErrNoHost) {
		t.Fatalf("host = %+v, %v; want ErrNoHost", got, err)
	}
	if _, err := proctree.Host(tab, 31, bundle.ID); !errors.Is(err, proctree.ErrNoProcess) {
		t.Fatalf("missing pid: err = %v, want ErrNoProcess", err)
	}
}

func TestHostPidReuse(t *testing.T) {
	dir := t.TempDir()
	term := makeApp(t, dir, "Utilities/Terminal.app", "com.apple.Terminal", plist.XMLFormat)
	tab := fakeTable{}
	tab.chain(
		proctree.Proc{Pid: 300, Name: "claude", Exe: "/usr/bin/claude", StartMs: 1_700_000_500_000},
		proctree.Proc{Pid: 200, Name: "zsh", Exe: "/bin/zsh", StartMs: 1_700_000_400_000},
		proctree.Proc{Pid: 100, Name: "Terminal", Exe: exe(t, filepath.Join(term, "Contents/MacOS/Terminal")), StartMs: 1_700_000_000_000},
	)
	// The recorded agent started at another time: pid 300 is someone else now.
	if got, err := proctree.HostOfProcess(tab, 300, 1_600_000_000_000, bundle.ID); !errors.Is(err, proctree.ErrProcessReplaced) {
		t.Fatalf("reused pid: host = %+v, %v; want ErrProcessReplaced", got, err)
	}
	if got, err := proctree.HostOfProcess(tab, 300, 1_700_000_500_200, bundle.ID); err != nil || got.BundleID != "com.apple.Terminal" {
		t.Fatalf("same process: host = %+v, %v; want Terminal", got, err)
	}

	// A parent pid taken over by a process that started after the child:
	// the walk must not continue into the newcomer's application.
	other := makeApp(t, dir, "Other.app", "com.example.other", plist.XMLFormat)
	tab = fakeTable{}
	tab.chain(
		proctree.Proc{Pid: 301, Name: "claude", Exe: "/usr/bin/claude", StartMs: 1_700_000_000_000},
		proctree.Proc{Pid: 201, Name: "other", Exe: exe(t, filepath.Join(other, "Contents/MacOS/other")), StartMs: 1_700_000_900_000},
	)
	if got, err := proctree.Host(tab, 301, bundle.ID); !errors.Is(err, proctree.ErrNoHost) {
		t.Fatalf("reused parent pid: host = %+v, %v; want ErrNoHost", got, err)
	}
}

func TestHostInChainRecordedAncestors(t *testing.T) {
	dir := t.TempDir()
	ghostty := makeApp(t, dir, "Ghostty.app", "com.mitchellh.ghostty", plist.XMLFormat)
	chain := []proctree.Proc{
		{Pid: 2, Name: "zsh", Exe: "/bin/zsh"},
		{Pid: 3, Name: "login", Exe: "/usr/bin/login"},
		{Pid: 4, Name: "ghostty", Exe: filepath.Join(ghostty, "Contents/MacOS/ghostty")},
	}
	got, err := proctree.HostInChain(chain, bundle.ID)
	if err != nil || got.BundleID != "com.mitchellh.ghostty" || got.Pid != 4 {
		t.Fatalf("host = %+v, %v", got, err)
	}
	// The bundle was deleted since: no host rather than a guess.
	if err := os.RemoveAll(ghostty); err != nil {
		t.Fatal(err)
	}
	if _, err := proctree.HostInChain(chain, bundle.ID); !errors.Is(err, proctree.ErrNoHost) {
		t.Fatalf("deleted bundle: err = %v, want ErrNoHost", err)
	}
}

func TestBundleID(t *testing.T) {
	dir := t.TempDir()
	app := makeApp(t, dir, "K.app", "net.kovidgoyal.kitty", plist.BinaryFormat)
	if id, err := bundle.ID(app); err != nil || id != "net.kovidgoyal.kitty" {
		t.Fatalf("binary plist: %q, %v", id, err)
	}
	noID := filepath.Join(dir, "NoID.app")
	if err := os.MkdirAll(filepath.Join(noID, "Contents"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := plist.Marshal(map[string]string{"CFBundleName": "x"}, plist.XMLFormat)
	os.WriteFile(filepath.Join(noID, "Contents", "Info.plist"), data, 0o644)
	if _, err := bundle.ID(noID); err == nil {
		t.Fatal("an Info.plist without CFBundleIdentifier was accepted")
	}
	garbage := filepath.Join(dir, "Garbage.app")
	os.MkdirAll(filepath.Join(garbage, "Contents"), 0o755)
	os.WriteFile(filepath.Join(garbage, "Contents", "Info.plist"), []byte("\x00\x01not a plist"), 0o644)
	if _, err := bundle.ID(garbage); err == nil {
		t.Fatal("a garbage Info.plist was accepted")
	}
	if _, err := bundle.ID(filepath.Join(dir, "Missing.app")); err == nil {
		t.Fatal("a missing bundle was accepted")
	}
}

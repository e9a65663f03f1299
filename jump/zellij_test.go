package jump

import (
	"context"
	"testing"

	"github.com/mew-dev/mew/session"
)

// A session recorded in a zellij pane: its pane is planned from the
// variables, the zellij program is the server's own, and on macOS the
// terminal is the app $TERM_PROGRAM names.
func TestGatherZellij(t *testing.T) {
	rec := session.Record{ID: "z1", Process: &session.Process{
		Pid: 1234, StartMs: 1000,
		Env: map[string]string{"ZELLIJ": "0", "ZELLIJ_SESSION_NAME": "dreamy-cat", "ZELLIJ_PANE_ID": "3", "TERM_PROGRAM": "ghostty"},
		Ancestors: []session.Ancestor{
			{Pid: 1200, Name: "zsh", Exe: "/bin/zsh"},
			{Pid: 1100, Name: "zellij", Exe: "/opt/homebrew/bin/zellij"},
		},
	}}
	sys := macSystem(fakeProcs{}, &fakeTmux{})
	sys.IsExecutable = func(p string) bool { return p == "/opt/homebrew/bin/zellij" }
	f := Gather(context.Background(), rec, sys)
	if f.Zellij == nil || f.Zellij.Session != "dreamy-cat" || f.Zellij.Pane != "3" || f.Tools.Zellij != "/opt/homebrew/bin/zellij" {
		t.Fatalf("zellij facts %+v tools %+v", f.Zellij, f.Tools)
	}
	if f.Host == nil || f.Host.BundleID != "com.mitchellh.ghostty" {
		t.Fatalf("host %+v (%s)", f.Host, f.HostWhy)
	}
	p := Make(f)
	if p.Precision != App || p.Mechanism != "zellij+activate" {
		t.Fatalf("%s via %s: %s", p.Precision, p.Mechanism, p.Why)
	}

	// The variables inherited by a process that is not under zellij (an
	// editor started from a zellij pane): not a zellij session.
	rec.Process.Ancestors = []session.Ancestor{{Pid: 1200, Name: "zsh", Exe: "/bin/zsh"}, {Pid: 900, Name: "Code Helper", Exe: "/Applications/Visual Studio Code.app/Contents/MacOS/Electron"}}
	if f := Gather(context.Background(), rec, sys); f.Zellij != nil {
		t.Fatalf("inherited variables taken for a zellij pane: %+v", f.Zellij)
	}

	// Linux: the pane alone is the jump.
	rec.Process.Ancestors = []session.Ancestor{{Pid: 1100, Name: "zellij", Exe: "/opt/homebrew/bin/zellij"}}
	sys.GOOS = "linux"
	f = Gather(context.Background(), rec, sys)
	if p := Make(f); p.Precision != Pane || p.Mechanism != "zellij" {
		t.Fatalf("linux: %s via %s: %s", p.Precision, p.Mechanism, p.Why)
	}
}

package hookbin_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/store"
)

type hostProcs map[int]proctree.Proc

func (h hostProcs) Get(pid int) (proctree.Proc, error) {
	if p, ok := h[pid]; ok {
		return p, nil
	}
	return proctree.Proc{}, proctree.ErrNoProcess
}

// The hook records the outermost .app of the nearest ancestor inside one,
// from the paths alone: VS Code, not its helper.
func TestSessionStartRecordsHostAppPath(t *testing.T) {
	procs := hostProcs{
		50: {Pid: 50, PPid: 40, Name: "mew-hook"},
		40: {Pid: 40, PPid: 30, Name: "sh"},
		30: {Pid: 30, PPid: 20, Name: "claude", Exe: "/opt/claude/bin/claude"},
		20: {Pid: 20, PPid: 10, Name: "zsh", Exe: "/bin/zsh"},
		10: {Pid: 10, PPid: 5, Name: "Code Helper", Exe: "/Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper.app/Contents/MacOS/Code Helper"},
		5:  {Pid: 5, PPid: 1, Name: "Electron", Exe: "/Applications/Visual Studio Code.app/Contents/MacOS/Electron"},
	}
	for _, c := range []struct {
		name    string
		procs   hostProcs
		app     string
		hostPid int
	}{
		{"vscode", procs, "/Applications/Visual Studio Code.app", 10},
		{"none", hostProcs{50: procs[50], 40: procs[40], 30: {Pid: 30, PPid: 20, Name: "claude"}, 20: {Pid: 20, PPid: 1, Name: "tmux", Exe: "/usr/bin/tmux"}}, "", 0},
	} {
		home := t.TempDir()
		hookbin.Run(hookbin.Options{
			Stdin:  strings.NewReader(`{"session_id":"h1","hook_event_name":"SessionStart","source":"startup","cwd":"/p"}`),
			Getenv: func(string) string { return "" }, Now: time.Now(), Pid: 50, Procs: c.procs,
			Store: store.Store{Home: home, Fold: hookbin.Fold}, Log: &hookbin.Log{}, LockTimeout: time.Second,
		})
		rec, err := store.Store{Home: home, Fold: hookbin.Fold}.Load("h1")
		if err != nil || rec.Process == nil || rec.Process.Pid != 30 {
			t.Fatalf("%s: %+v, %v", c.name, rec.Process, err)
		}
		h := rec.Process.Host
		if c.app == "" {
			if h != nil {
				t.Errorf("%s: host = %+v, want none", c.name, h)
			}
			continue
		}
		if h == nil || h.AppPath != c.app || h.Pid != c.hostPid || h.BundleID != "" {
			t.Errorf("%s: host = %+v, want %s at pid %d", c.name, h, c.app, c.hostPid)
		}
	}
}

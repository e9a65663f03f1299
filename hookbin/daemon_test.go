package hookbin_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// An agent whose hooks run in a daemon (reducer.Mapping.DaemonHooks:
// Codex's app server) records no terminal environment for a process
// without a terminal: it is the first TUI's, not this session's. Another
// agent's hook under the same process keeps it.
func TestDaemonHooksRecordNoTerminalEnvironment(t *testing.T) {
	procs := hostProcs{
		50: {Pid: 50, PPid: 40, Name: "mew-hook"},
		40: {Pid: 40, PPid: 30, Name: "sh"},
		30: {Pid: 30, PPid: 1, Name: "agent"},
	}
	env := map[string]string{"TMUX": "/tmp/tmux-501/default,4242,0", "TMUX_PANE": "%7", "TERM_PROGRAM": "iTerm.app"}
	for _, c := range []struct {
		agent   string
		keepEnv bool
	}{{session.AgentCodex, false}, {session.AgentQwen, true}} {
		home := t.TempDir()
		hookbin.Run(hookbin.Options{
			Stdin:  strings.NewReader(`{"session_id":"d1","hook_event_name":"SessionStart","source":"startup","cwd":"/p"}`),
			Getenv: func(k string) string { return env[k] }, Now: time.Now(), Pid: 50, Procs: procs,
			Tty:   func(int) (string, error) { return "", proctree.ErrNoProcess },
			Store: store.Store{Home: home, Fold: hookbin.Fold}, Log: &hookbin.Log{}, LockTimeout: time.Second,
			Agent: c.agent,
		})
		rec, err := store.Store{Home: home, Fold: hookbin.Fold}.Load("d1")
		if err != nil || rec.Process == nil {
			t.Fatalf("%s: %+v, %v", c.agent, rec.Process, err)
		}
		kept := rec.Process.Env != nil || rec.Process.Tmux != nil
		if kept != c.keepEnv {
			t.Errorf("%s: env %v tmux %+v, want kept %v", c.agent, rec.Process.Env, rec.Process.Tmux, c.keepEnv)
		}
	}
}

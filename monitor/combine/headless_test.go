package combine

import (
	"testing"

	"github.com/mew-dev/mew/session"
)

// Headless sessions are marked from what the hook saw at SessionStart or
// from the registry's entrypoint; they never need you.
func TestHeadlessMarked(t *testing.T) {
	done := hook(session.Done, "", 5)
	for _, c := range []struct {
		name string
		rec  session.Record
		want bool
	}{
		{"hook: attended", session.Record{Hook: done, Process: &session.Process{Pid: 1}}, false},
		{"hook: claude -p", session.Record{Hook: done, Process: &session.Process{Pid: 1, Headless: true}}, true},
		{"registry: interactive cli", session.Record{Registry: &session.RegistryState{Status: "idle", TurnSeen: true, Entrypoint: "cli", At: at(5)}}, false},
		{"registry: claude -p", session.Record{Registry: &session.RegistryState{Status: "idle", TurnSeen: true, Entrypoint: "sdk-cli", At: at(5)}}, true},
		{"registry: an SDK app", session.Record{Hook: done, Registry: &session.RegistryState{Status: "idle", Entrypoint: "sdk-ts", At: at(6)}}, true},
	} {
		got := Combine(c.rec, Alive)
		if got.Headless != c.want || got.NeedsYou() == c.want {
			t.Errorf("%s: headless %v, needs you %v (state %s); want headless %v", c.name, got.Headless, got.NeedsYou(), got.State, c.want)
		}
	}
}

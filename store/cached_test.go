package store

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// Cached lists the records keep accepts, and asks keep again only about a
// file that changed.
func TestCachedDecodesOnlyChangedFiles(t *testing.T) {
	st := Store{Home: t.TempDir(), Fold: testFold}
	write := func(id, agent string) {
		t.Helper()
		if _, err := st.Update(id, time.Second, func(r *session.Record, _ bool) bool { r.Agent = agent; return true }); err != nil {
			t.Fatal(err)
		}
	}
	write("a", session.AgentAgy)
	write("b", session.AgentClaude)
	asked := 0
	list := Cached(st, func(r session.Record) (string, bool) {
		asked++
		return r.ID, r.Agent == session.AgentAgy
	})
	if got := list(); len(got) != 1 || got[0] != "a" || asked != 2 {
		t.Fatalf("first list %v after %d decodes, want [a] after 2", got, asked)
	}
	if got := list(); len(got) != 1 || asked != 2 {
		t.Fatalf("nothing changed: %v after %d decodes, want no new ones", got, asked)
	}
	write("b", session.AgentAgy) // another size: changed, whatever the clock's grain
	if got := list(); len(got) != 2 || asked != 3 {
		t.Fatalf("b changed: %v after %d decodes, want both after 3", got, asked)
	}
	if err := st.Remove("a", time.Second); err != nil {
		t.Fatal(err)
	}
	if got := list(); len(got) != 1 || got[0] != "b" {
		t.Fatalf("a removed: %v", got)
	}
}

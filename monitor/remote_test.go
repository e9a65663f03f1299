package monitor

import (
	"testing"

	"github.com/mew-dev/mew/session"
)

// A host's session whose id is listed already is left out, with an error.
func TestMergeRemote(t *testing.T) {
	local := []*session.Shown{{ID: "l1", State: session.Working}, {ID: "same", State: session.Done}}
	r1 := session.Shown{ID: "same", State: session.Waiting, Host: "box"}
	r2 := session.Shown{ID: "r2", State: session.Waiting, Host: "box"}
	got, errs := mergeRemote(local, []session.Shown{r1, r2})
	if len(got) != 3 || got[2].ID != "r2" || len(errs) != 1 {
		t.Fatalf("mergeRemote = %+v, %v", got, errs)
	}
}

package monitor

import (
	"testing"

	"github.com/mew-dev/mew/monitor/combine"
	"github.com/mew-dev/mew/session"
)

// The process scan's row of a Codex and the Codex source's word that the
// same UI is on its hooks' review are one session, waiting (issue 40,
// item 6), whichever comes first.
func TestCodexHooksReviewJoinsTheProcessRow(t *testing.T) {
	p := session.Process{Pid: 601, StartMs: 1_800_000_000_000, Name: "codex", Tty: "/dev/pts/5"}
	scan := Observation{Fallback: "proc:601", Agent: session.AgentCodex, Process: p}
	review := Observation{Fallback: "proc:601", Agent: session.AgentCodex, Process: p,
		Terminal: &session.Terminal{Process: p, HooksReview: true}}
	for _, obs := range [][]Observation{{scan, review}, {review, scan}} {
		recs := Merge(nil, obs, nil)
		if len(recs) != 1 {
			t.Fatalf("%d records: %+v", len(recs), recs)
		}
		if out := combine.Combine(recs[0], combine.Alive); out.ID != "proc:601" || out.State != session.Waiting || out.Reason != session.ReasonInput {
			t.Errorf("shown %s %s %s", out.ID, out.State, out.Reason)
		}
	}
}

package screen

import "github.com/mew-dev/mew/session"

// Memory is what a Tracker knows, in a form that can be saved between two
// one-shot reads of a terminal (`mew status`): without it a read sees one
// frame and cannot tell that a prompt went away.
type Memory struct {
	State       session.ScreenState `json:"state"`
	Seen        bool                `json:"seen,omitempty"`
	StaleErrors []string            `json:"stale_errors,omitempty"`
	ErrorRows   int                 `json:"error_rows,omitempty"`
	ErrorRow    string              `json:"error_row,omitempty"`
	TurnRuns    bool                `json:"turn_runs,omitempty"`
	// BeforeErrors are the error rows of the last frame read that showed
	// no turn running (Tracker.beforeErrors).
	BeforeErrors []string `json:"before_errors,omitempty"`
}

// Memory returns what the tracker knows.
func (t *Tracker) Memory() Memory {
	return Memory{State: t.State, Seen: t.Seen, StaleErrors: append([]string(nil), t.staleErrors...), ErrorRows: t.errorRows, ErrorRow: t.errorRow, TurnRuns: t.turnRuns,
		BeforeErrors: append([]string(nil), t.beforeErrors...)}
}

// Restore makes the tracker know m.
func (t *Tracker) Restore(m Memory) {
	t.State, t.Seen, t.staleErrors, t.errorRows = m.State, m.Seen, append([]string(nil), m.StaleErrors...), m.ErrorRows
	t.errorRow = m.ErrorRow
	t.turnRuns = m.TurnRuns
	t.beforeErrors = append([]string(nil), m.BeforeErrors...)
}

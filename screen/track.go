package screen

import (
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// maxPrompt bounds the prompt text kept for a blocked screen.
const maxPrompt = 2000

// Tracker follows one terminal's classification over time: the memory a
// single frame cannot have (when a state began, that a prompt went away,
// that a turn ran and ended).
type Tracker struct {
	State session.ScreenState
	// Seen is true once a frame was classified as something.
	Seen bool
	// staleErrors are the error rows (failed rules' matches) that were on
	// the screen while the agent worked: they belong to an earlier turn
	// and say nothing about how the next one ended.
	staleErrors []string
	// errorRows is how many error rows a failed screen showed: one more
	// is a new failure even though the state stays failed (a short turn
	// that failed between two reads, after an earlier one that failed).
	// errorRow is its bottom one: another text there is a new failure too.
	errorRows int
	errorRow  string
	// turnRuns: the dialog on the screen also shows the turn running (Amp
	// draws its dialog above its input box, whose border keeps the status
	// word; Continue keeps its spinner above the dialog). The turn was seen running, as a working frame shows it: the
	// idle screen after the dialog is a finished turn, even when no read
	// came between the answer and the turn's end.
	turnRuns bool
	// beforeErrors are the error rows of the last frame that showed no
	// turn running: the ones a turn starting next leaves from before it.
	// An error drawn by the time the first frame of the turn is read (a
	// turn that fails within one read, or a read that comes late) is that
	// turn's own.
	beforeErrors []string
}

// Observe classifies frame f with set at time now and folds the result in.
// A blank or half-drawn frame (no rule matches) keeps the previous state.
// It reports whether the state, reason, rule, turn flag or start changed.
func (t *Tracker) Observe(set *rules.Set, f rules.Frame, now time.Time) bool {
	st := &t.State
	st.At = now
	if f.Title != "" {
		st.Title = text.OneLine(f.Title, 120)
	}
	if set == nil {
		return false
	}
	st.Agent, st.ReportSettle, st.ReportFinal = set.Agent, set.ReportSettle, set.ReportFinal
	if rules.Blank(f) && f.AgentState == "" {
		return false
	}
	res := set.Classify(f)
	errs := errorRows(set, f.Rows)
	if res.State == session.ScreenFailed && t.stale(res.MatchRow, errs) {
		res = set.ClassifyWithout(f, session.ScreenFailed)
	}
	if res.State == session.ScreenUnknown {
		return false
	}
	if res.State == session.ScreenWorking && st.State != session.ScreenWorking {
		if t.Seen {
			t.staleErrors = append(t.staleErrors[:0], t.beforeErrors...)
		} else {
			t.noteErrors(set, f) // no frame before this turn: what shows is older
		}
	}
	if res.State != session.ScreenWorking {
		t.beforeErrors = append(t.beforeErrors[:0], errs...)
	}
	prev := *st
	if prev.State == session.ScreenBlocked && res.State != session.ScreenBlocked {
		st.Unblocked = now
	}
	if res.State == session.ScreenBlocked {
		runs := set.ClassifyOnly(f, session.ScreenWorking).State == session.ScreenWorking
		t.turnRuns = runs || (prev.State == session.ScreenBlocked && t.turnRuns)
	}
	st.State, st.Reason, st.Rule = res.State, res.Reason, res.Rule
	st.TurnEnded = turnEnded(prev, res, t.turnRuns, set.TurnEndAlways)
	if res.State != session.ScreenBlocked {
		t.turnRuns = false
	}
	st.Interrupted = res.State == session.ScreenIdle && res.Interrupted
	st.ErrorShown = false
	if res.State == session.ScreenWorking {
		fr := set.ClassifyOnly(f, session.ScreenFailed)
		st.ErrorShown = fr.State == session.ScreenFailed && !t.stale(fr.MatchRow, errs)
	}
	st.Prompt, st.Choices = "", nil
	if res.State == session.ScreenBlocked {
		st.Prompt, st.Choices = Prompt(set, f.Rows, res)
	}
	newError := false
	if res.State == session.ScreenFailed {
		n, row := len(errs), ""
		if n > 0 {
			row = errs[0]
		}
		newError = prev.State == session.ScreenFailed && (n > t.errorRows || row != t.errorRow)
		t.errorRows, t.errorRow = n, row
	}
	if !t.Seen || prev.State != st.State || prev.Reason != st.Reason || newError {
		st.Since = now
	}
	t.Seen = true
	return prev.State != st.State || prev.Reason != st.Reason || prev.Rule != st.Rule ||
		prev.TurnEnded != st.TurnEnded || prev.Prompt != st.Prompt || !slices.Equal(prev.Choices, st.Choices) ||
		prev.Interrupted != st.Interrupted || prev.ErrorShown != st.ErrorShown || !prev.Since.Equal(st.Since)
}

// SameDialog reports whether a prompt read now (rule, prompt) is the one
// read before (wasRule, wasPrompt): the same dialog text, under the same
// rule or another of the agent's rules. Codex sets its "Action Required"
// title a frame after drawing the dialog and clears it a frame before
// removing it, so one dialog is noticed by its text in one frame and by
// its title in the next. With no dialog text the rule is all there is.
func SameDialog(wasRule, wasPrompt, rule, prompt string) bool {
	if prompt != wasPrompt {
		return false
	}
	return wasRule == "" || rule == wasRule || wasPrompt != ""
}

// Prompt is what a blocked screen asks (res is its classification): the
// dialog's text and choices when the agent's rules read its dialogs (see
// rules.Set.Dialog), else the rows from the one the rule matched to the
// bottom. The tracker and an answer about to type read it the same way.
func Prompt(set *rules.Set, rows []string, res rules.Result) (string, []session.Choice) {
	d := set.Dialog(rows, res)
	if d.Text == "" {
		return promptText(rows, res.Match), nil
	}
	var choices []session.Choice
	for _, o := range d.Options {
		choices = append(choices, session.Choice{N: o.N, Label: o.Label})
	}
	return d.Text, choices
}

// noteErrors remembers the error rows visible while working.
// They are noted as a turn starts.
func (t *Tracker) noteErrors(set *rules.Set, f rules.Frame) {
	t.staleErrors = append(t.staleErrors[:0], errorRows(set, f.Rows)...)
}

// errorRows is every row of rows a failed rule matches, bottom first, and
// every row that reads the same as one: a rule anchored to the bottom
// (Gemini's, Qwen's: an error only while it is the last thing above the
// input box) matches only the last error, and the same error of an earlier
// turn above it is still an error row, counted and told apart by its count.
func errorRows(set *rules.Set, rows []string) []string {
	var matched []string
	all := rows
	for len(rows) > 0 {
		res := set.ClassifyOnly(rules.Frame{Rows: rows}, session.ScreenFailed)
		if res.State != session.ScreenFailed || res.MatchRow == "" {
			break
		}
		matched = append(matched, res.MatchRow)
		// Look above the row found for older ones.
		i := len(rows) - 1
		for i >= 0 && rows[i] != res.MatchRow {
			i--
		}
		rows = rows[:max(i, 0)]
	}
	var out []string
	for i := len(all) - 1; i >= 0 && len(matched) > 0; i-- {
		if slices.Contains(matched, all[i]) {
			out = append(out, all[i])
		}
	}
	return out
}

// stale reports whether the error row is one left from before the turn:
// no more rows read as it on the screen (errs, errorRows') than did then.
// The same error again in a later turn is a new row of the same text.
func (t *Tracker) stale(row string, errs []string) bool {
	count := func(rows []string) int {
		n := 0
		for _, r := range rows {
			if r == row {
				n++
			}
		}
		return n
	}
	return count(t.staleErrors) > 0 && count(errs) <= count(t.staleErrors)
}

// turnEnded decides whether an idle screen follows a finished turn (the
// person's move: "done") or not (fresh, or interrupted: "idle"). turnRuns:
// the prompt prev shows was drawn with the turn running behind it.
// lineAlways: the agent draws its finished-turn line after every turn
// (rules.Set.TurnEndAlways), so only that line says a turn ended.
func turnEnded(prev session.ScreenState, res rules.Result, turnRuns, lineAlways bool) bool {
	switch {
	case res.State != session.ScreenIdle, res.Interrupted:
		return false
	case lineAlways && !res.TurnEnded:
		return false // working a moment (Codex at start-up) was no turn
	case prev.State == session.ScreenWorking:
		return true // a turn ran and the agent is back at its prompt
	case prev.State == session.ScreenIdle:
		return prev.TurnEnded || res.TurnEnded
	case prev.State == session.ScreenBlocked && turnRuns:
		// The answer let the turn go on and it ended before a read saw it
		// run. A dismissal that stops the turn says so (an interrupted
		// rule), or its prompt showed no turn running.
		return true
	}
	// First sight, or back from a prompt: only the finished-turn line says.
	return res.TurnEnded
}

// promptText is the dialog a blocked screen shows: the rows from the one
// the rule matched to the bottom, trimmed. An answer types only while the
// same text is still there.
func promptText(rows []string, match string) string {
	start := 0
	if match != "" {
		// From the bottom: the dialog is drawn there, and a reply above
		// may quote its words.
		first, _, _ := strings.Cut(match, "\n")
		for i := len(rows) - 1; i >= 0; i-- {
			if strings.Contains(rows[i], first) {
				start = i
				break
			}
		}
	}
	var b strings.Builder
	for _, r := range rows[start:] {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(r)
		if b.Len() > maxPrompt {
			break
		}
	}
	return text.Clip(b.String(), maxPrompt)
}

// SameState compares two readings of a screen, leaving out the read time.
// DeepEqual: the state holds a slice (its choices); its times compare as
// == does.
func SameState(a, b session.ScreenState) bool {
	a.At, b.At = time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}

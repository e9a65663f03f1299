package driver

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// One row per agent process. A run has one agent process at a time (one
// CLI in one pane, its own MEW_HOME and tmux server, the process scan
// off), so every row of its agent in a sample is a row of that process:
// two rows for one agent in one sample are one process listed twice
// (`run:<pid>` beside `tmux:%0`, or a joined row split in two at exit).

// rowKey groups a sample's rows by machine and agent.
type rowKey struct{ host, agent string }

func (k rowKey) String() string {
	a := k.agent
	if a == "" {
		a = "?"
	}
	if k.host != "" {
		return k.host + ":" + a
	}
	return a
}

// rows groups a sample's rows.
func rows(s Sample) map[rowKey][]string {
	out := map[rowKey][]string{}
	for _, sh := range s.Sessions {
		k := rowKey{sh.Host, sh.Agent}
		out[k] = append(out[k], sh.ID+" "+ShownString(sh))
	}
	return out
}

// RowsString is how many rows each agent had in a sample: "rows claude×1",
// "rows none".
func RowsString(s Sample) string {
	if s.Err != "" {
		return ""
	}
	g := rows(s)
	if len(g) == 0 {
		return "rows none"
	}
	keys := make([]string, 0, len(g))
	for k, v := range g {
		keys = append(keys, fmt.Sprintf("%s×%d", k, len(v)))
	}
	sort.Strings(keys)
	return "rows " + strings.Join(keys, " ")
}

// RowProblem is a sample that listed one agent process more than once.
type RowProblem struct {
	Sample Sample
	Agent  string
	Rows   []string // each "id state by source"
}

func (p RowProblem) String() string {
	return fmt.Sprintf("%s sample at %s: %d rows for %s: %s", p.Sample.Mode, p.Sample.End.Format("15:04:05.000"),
		len(p.Rows), p.Agent, strings.Join(p.Rows, "; "))
}

// RowProblems are the samples, of both kinds, in which one agent process
// had two rows or more.
func (r *Run) RowProblems() []RowProblem {
	r.rec.mu.Lock()
	all := r.rec.byMode()
	r.rec.mu.Unlock()
	var out []RowProblem
	for _, mode := range []string{ModeOnce, ModeWatch} {
		for _, s := range all[mode] {
			if s.Err != "" {
				continue
			}
			for k, v := range rows(s) {
				if len(v) > 1 {
					out = append(out, RowProblem{Sample: s, Agent: k.String(), Rows: v})
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Sample.End.Before(out[j].Sample.End) })
	return out
}

// RowCounts summarises, per kind of sample, how many rows each agent had:
// "once: claude×1 in 212 samples, none in 3; watch: …".
func (r *Run) RowCounts() string {
	r.rec.mu.Lock()
	all := r.rec.byMode()
	r.rec.mu.Unlock()
	var parts []string
	for _, mode := range []string{ModeOnce, ModeWatch} {
		n := map[string]int{}
		for _, s := range all[mode] {
			if s.Err == "" {
				n[strings.TrimPrefix(RowsString(s), "rows ")]++
			}
		}
		if len(n) == 0 {
			continue
		}
		keys := make([]string, 0, len(n))
		for k := range n {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var c []string
		for _, k := range keys {
			c = append(c, fmt.Sprintf("%s in %d", k, n[k]))
		}
		parts = append(parts, mode+": "+strings.Join(c, ", "))
	}
	return strings.Join(parts, "; ")
}

// CheckRows reports the row counts on the timeline and returns an error
// naming the first samples that listed one agent process twice; every
// scenario calls it when its run ends.
func (r *Run) CheckRows() error {
	r.TL.Addf(time.Now(), "note", "rows per agent: %s", r.RowCounts())
	bad := r.RowProblems()
	if len(bad) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d samples listed one agent process more than once (one row per agent process):", len(bad))
	for i, p := range bad {
		if i == 5 {
			fmt.Fprintf(&b, "\n  … %d more", len(bad)-5)
			break
		}
		b.WriteString("\n  " + p.String())
	}
	return fmt.Errorf("%s", b.String())
}

// PaneReads counts the samples in which Mew showed a screen read of an
// agent's tmux pane on any row: a state a screen rule decided, or the
// pane's window, which only a read of the pane gives (with hooks the
// hooks decide most states, so the source alone may never say screen).
func (r *Run) PaneReads() int {
	n := 0
	for _, s := range append(r.SamplesOf(ModeOnce), r.SamplesOf(ModeWatch)...) {
		for _, sh := range s.Sessions {
			if strings.HasPrefix(sh.Source, "screen:") || sh.TmuxWindow != "" {
				n++
				break
			}
		}
	}
	return n
}

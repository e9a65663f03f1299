package monitor

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
)

// Observation is what a source saw of one session (package source).
type Observation = source.Observation

// Merge folds observations into records, one session per agent process. An
// observation without an id joins the record of the same process: the same
// pid (and start time) first; then, among sessions whose process still
// runs, the same tmux pane or terminal (the newest such session when
// several share one). One that matches nothing becomes a session of its
// own under its fallback id. alive reports whether a record's process may
// still run (not known dead).
func Merge(recs []session.Record, obs []Observation, alive func(session.Record) bool) []session.Record {
	if len(obs) == 0 {
		return recs
	}
	out := make([]session.Record, len(recs), len(recs)+len(obs))
	copy(out, recs)
	byID := make(map[string]int, len(out))
	for i, r := range out {
		byID[r.ID] = i
	}
	live := make([]bool, len(out))
	for i := range out {
		live[i] = alive == nil || alive(out[i])
	}
	// Observations that name their session first: the ones merged by
	// process then find those sessions too (a `mew run` screen joins the
	// Codex session its rollout names).
	obs = slices.Clone(obs)
	slices.SortStableFunc(obs, func(a, b Observation) int {
		return cmpBool(a.ID == "", b.ID == "")
	})
	for _, o := range obs {
		i, ok := -1, false
		if o.ID != "" {
			i, ok = byID[o.ID]
		}
		if !ok && o.ID == "" {
			i, ok = matchProcess(out, live, o.Process)
		}
		if !ok {
			id := o.ID
			if id == "" {
				id = o.Fallback
			}
			if id == "" {
				continue
			}
			if j, dup := byID[id]; dup {
				i, ok = j, true
			} else {
				p := o.Process
				out = append(out, session.Record{Version: session.RecordVersion, ID: id, Agent: o.Agent, Process: &p})
				live = append(live, true)
				i = len(out) - 1
				byID[id] = i
			}
		}
		attach(&out[i], o)
	}
	if len(out) > len(recs) {
		sort.Slice(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	}
	return out
}

// attach puts an observation's views on a record; a record keeps a newer
// view of its own (a `mew run` screen written to the store).
func attach(rec *session.Record, o Observation) {
	// The wrapper's screen (every byte, the agent's own state sequence)
	// is never replaced by the tmux pane's reading of the same terminal.
	runs := rec.Screen != nil && rec.Screen.Via == "run" && o.Screen != nil && o.Screen.Via != "run"
	if o.Screen != nil && !runs && (rec.Screen == nil || !rec.Screen.At.After(o.Screen.At)) {
		s := *o.Screen
		rec.Screen = &s
	}
	if o.Log != nil && (rec.Log == nil || !rec.Log.At.After(o.Log.At)) {
		l := *o.Log
		rec.Log = &l
	}
	if o.Terminal != nil {
		t := *o.Terminal
		rec.Terminal = &t
	}
	if rec.Agent == "" {
		rec.Agent = o.Agent
	}
	if rec.Process == nil && (o.Process.Pid != 0 || o.Process.Tty != "" || o.Process.Tmux != nil) {
		p := o.Process
		rec.Process = &p
	} else if rec.Process != nil {
		fillProcess(rec, o.Process)
	}
}

// fillProcess completes what the record knows of its process with what
// another source read (the process scan reads the folder, terminal and
// pane of a process a screen found). The record's Process may be shared
// with the store's copy: it is replaced, never changed in place.
func fillProcess(rec *session.Record, o session.Process) {
	p := *rec.Process
	changed := false
	set := func(dst *string, v string) {
		if *dst == "" && v != "" {
			*dst, changed = v, true
		}
	}
	set(&p.Cwd, o.Cwd)
	set(&p.Tty, o.Tty)
	if p.Tmux == nil && o.Tmux != nil {
		t := *o.Tmux
		p.Tmux, changed = &t, true
	}
	if p.Env == nil && o.Env != nil {
		p.Env, changed = o.Env, true
	}
	if changed {
		rec.Process = &p
	}
}

// matchProcess finds the record of the process p.
func matchProcess(recs []session.Record, live []bool, p session.Process) (int, bool) {
	if p.Pid > 0 {
		for i := range recs {
			if samePid(recs[i], p) {
				return i, true
			}
		}
	}
	best := -1
	for i := range recs {
		if !live[i] {
			continue
		}
		if (p.Tmux != nil && p.Tmux.Pane != "" && samePane(recs[i], p.Tmux)) || (p.Tty != "" && sameTty(recs[i], p.Tty)) {
			if best < 0 || lastHeard(recs[i]).After(lastHeard(recs[best])) {
				best = i
			}
		}
	}
	return best, best >= 0
}

func samePid(r session.Record, p session.Process) bool {
	match := func(pid int, startMs int64) bool {
		if pid != p.Pid {
			return false
		}
		// A start time on both sides must agree (within the slack of two
		// clocks reading it): a reused pid is another process.
		return startMs == 0 || p.StartMs == 0 || abs(startMs-p.StartMs) <= 2000
	}
	// The registry's startedAt is when Claude Code started its session, not
	// its process: pids only (its own liveness check is exact).
	if r.Registry != nil && r.Registry.Pid > 0 && r.Registry.Pid == p.Pid {
		return true
	}
	if r.Process != nil && r.Process.Pid > 0 && match(r.Process.Pid, r.Process.StartMs) {
		return true
	}
	if t := r.Terminal; t != nil && !t.Gone && t.Pid > 0 && match(t.Pid, t.StartMs) {
		return true
	}
	return r.Screen != nil && r.Screen.Pid > 0 && match(r.Screen.Pid, r.Screen.StartMs)
}

func samePane(r session.Record, t *session.Tmux) bool {
	if r.Process != nil && r.Process.Tmux != nil && r.Process.Tmux.Pane == t.Pane {
		s1, s2 := r.Process.Tmux.Socket, t.Socket
		return s1 == "" || s2 == "" || s1 == s2
	}
	if r.Screen != nil && r.Screen.Pane == t.Pane {
		return true
	}
	if tt := r.Terminal; tt != nil && !tt.Gone && tt.Tmux != nil && tt.Tmux.Pane == t.Pane {
		return true
	}
	// Claude Code's registry names the pane as session:@window.%pane.
	return r.Registry != nil && r.Registry.Tmux != "" && strings.HasSuffix(r.Registry.Tmux, "."+t.Pane)
}

func sameTty(r session.Record, tty string) bool {
	return (r.Process != nil && r.Process.Tty == tty) || (r.Screen != nil && r.Screen.Tty == tty) ||
		(r.Terminal != nil && !r.Terminal.Gone && r.Terminal.Tty == tty)
}

// lastHeard is the newest time any source heard from the session.
func lastHeard(r session.Record) (t time.Time) {
	if r.Hook != nil {
		t = r.Hook.At
	}
	if r.Registry != nil && r.Registry.At.After(t) {
		t = r.Registry.At
	}
	if r.Log != nil && r.Log.At.After(t) {
		t = r.Log.At
	}
	if r.Screen != nil && r.Screen.At.After(t) {
		t = r.Screen.At
	}
	return t
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

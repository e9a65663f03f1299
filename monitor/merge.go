package monitor

import (
	"slices"
	"sort"

	"github.com/mew-dev/mew/monitor/identity"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
)

// Observation is what a source saw of one session (package source).
type Observation = source.Observation

// Merge folds observations into records, one session per agent process,
// by the rules of package identity: an observation that names its session
// joins that record; one without an id joins the record of the same
// process (identity.Match: the same pid and start time, a wrapper of it,
// else the same terminal). One that matches nothing becomes a session of
// its own under its fallback id. alive reports whether a record's process
// may still run (not known dead).
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
			i, ok = identity.Match(out, live, o.Process, agentLeft(o))
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

// agentLeft: the observation is of a terminal whose agent is gone from it
// (the shell is back, or the screen shows the agent's exit).
func agentLeft(o Observation) bool {
	return o.Screen != nil && (o.Screen.Background || o.Screen.State == session.ScreenExited)
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

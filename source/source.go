// Package source defines what an input other than the hook hands the
// monitor: the Source interface and its Observations. The inputs live
// beside it, one package each under source/: tmux (screens Mew reads
// itself), codex (Codex's rollout logs), procscan (agent processes seen in
// the process table), registry (Claude Code's own session registry) and
// remote (the sessions of other machines' mews). They import this package
// and shared ones (session, store, terminal, rules), never the monitor; the
// monitor gathers them and merges what they saw into one session per agent
// process.
package source

import (
	"context"

	"github.com/mew-dev/mew/session"
)

// Source observes sessions from outside the store: a terminal Mew reads
// itself, an agent's own log, the process table.
type Source interface {
	// Name names the source in errors ("tmux", "rollout").
	Name() string
	// Scan observes once (a one-shot `mew status`).
	Scan(ctx context.Context) ([]Observation, error)
	// Watch observes until ctx ends, sending the whole current set of
	// observations on out at once (even when empty: the monitor's first
	// update waits for it) and whenever it changes. It returns when ctx
	// ends or the source cannot go on.
	Watch(ctx context.Context, out chan<- []Observation) error
}

// Observation is what a source saw of one session. Sources that know the
// session's id say so; the others are merged by the process they saw, so
// a session is listed once however many sources see it.
type Observation struct {
	// ID is the session's own id when the source knows it (an agent's log
	// names its session); "" to merge by process.
	ID string
	// Fallback is the id shown when no other source reports this session
	// (e.g. "tmux:%12", "run:4242").
	Fallback string
	Agent    string
	// Process identifies the agent process: Pid (+ StartMs), Tty and tmux
	// pane are what merging matches on, and what a jump uses for a session
	// only this source sees.
	Process session.Process
	Screen  *session.ScreenState
	Log     *session.LogState
	// Terminal is the session's terminal UI when another process runs it
	// (Codex's TUI; see session.Record.Terminal).
	Terminal *session.Terminal
}

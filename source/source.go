// Package source defines what a signal source hands the monitor. Each
// source lives in a package below this one (source/registry for Claude
// Code's session files, source/codex for Codex's rollouts and processes,
// source/copilot for Copilot CLI's session logs, source/agy for agy's
// transcripts, source/tmux for the panes, source/procscan for the process
// table) and depends on this one, not on the monitor: cmd/mew builds them
// (cmd/mew/sources.go) and hands them to the monitor as Sources, which
// merges what they saw into one session per agent process. Their shared
// plumbing is internal/watchfs. The sessions of other machines
// (source/remote) come as whole shown lists instead, joined after combine.
package source

import (
	"context"
	"time"

	"github.com/mew-dev/mew/session"
)

// Source observes sessions from outside the store: an agent's own session
// files or log, a terminal Mew reads itself, the process table.
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
	// Registry is Claude Code's session file as read (source/registry):
	// At is the file's own status time, zero when it gives none. Its
	// source, a Recorder, folds it into the session's record.
	Registry *session.RegistryState
}

// A Recorder is a source whose readings are kept in the session's stored
// record ($MEW_HOME/sessions/<id>.json), not merged afresh each pass: what
// it learnt must outlive the process that read it (a one-shot `mew status`
// remembers that a turn ran, to call the next idle "done"). Its
// observations name their session. The monitor folds each one into the
// record of that id (making the record if there is none) and writes the
// result under the record's lock; a stored record the source no longer
// reports is folded with a nil observation.
type Recorder interface {
	Source
	// Record folds o (nil: the source no longer reports the session) into
	// rec, seen at now (and mono, the monotonic clock; 0 if unknown), and
	// reports whether rec changed. It never changes what rec's pointers
	// point to: the record may share them with the store's copy.
	Record(rec *session.Record, o *Observation, now time.Time, mono int64) bool
}

// Partial is a source that reads many files and reports the ones it could
// not read while it uses the others. Its Scan returns them joined as its
// error; while it watches, the monitor asks for them with each report.
type Partial interface {
	Source
	// Problems are the problems behind the last observations sent.
	Problems() []error
}

// A Nudger is a source that reads again at once when told that an agent
// reported something (a hook, a plugin, a log line: a prompt answered, a
// turn ended), instead of at its next regular read: the screen then
// confirms or corrects the report before it is shown. Nudge never blocks;
// nudges that come while one is pending are one (a report burst costs one
// extra read), and the reads after a nudge are sent even when they found
// nothing new, until one read session.ScreenSettle after it, so the
// monitor knows the screen was read since the report, and late enough.
type Nudger interface {
	Source
	Nudge()
}

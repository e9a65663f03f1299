// Package replay plays a recording of an agent's run through the same
// pipeline the monitor runs live — hook payloads through the hook program
// into a store, an agent's log through its source, screens through the
// rules and the screen tracker, all merged and combined by monitor.Snapshot
// — on the recording's own clock, and reports each change of the state
// Mew would show. It is what `mew replay` prints, how recordings are
// tested, and how a wrong state is shown in a bug report.
//
// Everything lives in a temporary directory (a store, an agent home); the
// agent's process is a fixed entry of a made-up process table, alive until
// the recording says it ended. Nothing outside the directory is read but
// the recording, nothing is written outside it.
package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/store"
)

// Change is one change of the shown state: T seconds after the
// recording's start, the state, its reason (waiting, failed) and the
// source that decided it (`hooks`, `rollout`, `screen:qwen/blocked#1` …).
type Change struct {
	T      float64 `json:"t"`
	State  string  `json:"state"`
	Reason string  `json:"reason,omitempty"`
	Source string  `json:"source"`
}

func (c Change) label() string {
	if c.Reason == "" {
		return c.State
	}
	return c.State + "(" + c.Reason + ")"
}

// Labels are the changes as `state` or `state(reason)`, in order.
func Labels(cs []Change) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.label()
	}
	return out
}

// Step is how often the pipeline is asked between a recording's events:
// the monitor's own pace (it re-reads screens every 700 ms, sources on
// their events), finer so a change is placed within 0.1 s.
const Step = 100 * time.Millisecond

// The made-up process table of a replay: the agent, the hook process
// under it (`sh -c`, as agents run hooks), the agent's terminal.
const (
	agentPid  = 40100
	hookPid   = 40200
	agentTty  = "/dev/pts/9"
	agentPane = "%9"
)

// procTable is the fixed process table; the agent is removed from it when
// the recording says it exited.
type procTable map[int]proctree.Proc

func (t procTable) Get(pid int) (proctree.Proc, error) {
	if p, ok := t[pid]; ok {
		return p, nil
	}
	return proctree.Proc{}, proctree.ErrNoProcess
}

// engine is one replay: a store in a temporary directory, a virtual clock
// that starts at t0, and the changes seen so far.
type engine struct {
	dir     string
	t0      time.Time
	sec     float64 // the virtual clock: seconds since t0
	st      store.Store
	procs   procTable
	sources []source.Source
	// follow picks the session the replay reports from the shown list.
	follow  func([]session.Shown) (session.Shown, bool)
	changes []Change
	errs    []error
	// beforeObserve refreshes what a static source sees before each pass.
	beforeObserve func()
}

func newEngine(t0 time.Time, agentName string) (*engine, error) {
	dir, err := os.MkdirTemp("", "mew-replay-")
	if err != nil {
		return nil, err
	}
	home := filepath.Join(dir, "mew")
	if err := os.MkdirAll(home, 0o700); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	// The agent started a little before the recording's first event, so
	// its start time is never after a session it created.
	started := t0.Add(-2 * time.Second).UnixMilli()
	e := &engine{dir: dir, t0: t0, st: store.Store{Home: home, Fold: hookbin.Fold}, procs: procTable{
		agentPid: {Pid: agentPid, PPid: 1, Name: agentName, StartMs: started},
		hookPid:  {Pid: hookPid, PPid: agentPid, Name: "sh", StartMs: started},
	}}
	return e, nil
}

func (e *engine) close() { os.RemoveAll(e.dir) }

func (e *engine) now() time.Time {
	return e.t0.Add(time.Duration(e.sec * float64(time.Second)))
}

// mono is the virtual monotonic clock: combine orders reports on it.
func (e *engine) mono() int64 { return int64(e.sec*1e9) + 1e9 }

// exit removes the agent's process from the table: it is gone.
func (e *engine) exit() { delete(e.procs, agentPid) }

// hook runs one hook payload through the hook program, as the agent
// would run it at the virtual now.
func (e *engine) hook(agent, event string, payload []byte) {
	hookbin.Run(hookbin.Options{
		Stdin: bytes.NewReader(payload), Getenv: func(string) string { return "" }, Environ: func() []string { return nil },
		Now: e.now(), Mono: e.mono(), Pid: hookPid, Procs: e.procs, Store: e.st, LockTimeout: time.Second,
		Tty:   func(int) (string, error) { return agentTty, nil },
		Log:   &hookbin.Log{Path: filepath.Join(e.st.Home, "mew-hook.log")},
		Agent: agent, Event: event,
	})
}

// observe asks the pipeline once and records a change of the followed
// session's state.
func (e *engine) observe() {
	if e.beforeObserve != nil {
		e.beforeObserve()
	}
	opts := monitor.Options{Store: e.st, Sources: e.sources, Procs: e.procs, Now: e.now, Mono: e.mono,
		LockTimeout: time.Second, ScanTimeout: 5 * time.Second}
	shown, errs := monitor.Snapshot(opts)
	for _, err := range errs {
		if len(e.errs) < 8 {
			e.errs = append(e.errs, fmt.Errorf("at %.1f s: %w", e.sec, err))
		}
	}
	s, ok := e.follow(shown)
	if !ok || s.State == "" {
		return // not listed, or a record no event has given a state yet
	}
	c := Change{T: math.Round(e.sec*1000) / 1000, State: string(s.State), Reason: string(s.Reason), Source: s.Source}
	if n := len(e.changes); n > 0 && e.changes[n-1].label() == c.label() {
		return
	}
	e.changes = append(e.changes, c)
}

// run steps the virtual clock from 0 to end, playing each event at its
// time (events sorted by at) and asking the pipeline at every event and
// every Step.
func (e *engine) run(end float64, events []event) []Change {
	step := Step.Seconds()
	next := 0
	for i := 0; ; i++ {
		tick := float64(i) * step
		for next < len(events) && events[next].at <= tick {
			e.sec = math.Max(e.sec, events[next].at)
			events[next].play()
			next++
			e.observe()
		}
		if tick > end && next >= len(events) {
			break
		}
		e.sec = tick
		e.observe()
	}
	return e.changes
}

// event is one thing the recording says happened at a time.
type event struct {
	at   float64
	play func()
}

// followID follows the session of one id, else the only one listed.
func followID(id *string) func([]session.Shown) (session.Shown, bool) {
	return func(shown []session.Shown) (session.Shown, bool) {
		for _, s := range shown {
			if s.ID == *id {
				return s, true
			}
		}
		if *id == "" && len(shown) == 1 {
			return shown[0], true
		}
		return session.Shown{}, false
	}
}

// staticSource hands the monitor what a source saw, as the engine sets
// it: a screen the tracker read.
type staticSource struct {
	name string
	obs  []source.Observation
}

func (s *staticSource) Name() string { return s.name }

func (s *staticSource) Scan(context.Context) ([]source.Observation, error) {
	out := make([]source.Observation, len(s.obs))
	for i, o := range s.obs {
		if o.Screen != nil {
			st := *o.Screen
			o.Screen = &st
		}
		out[i] = o
	}
	return out, nil
}

func (s *staticSource) Watch(ctx context.Context, out chan<- []source.Observation) error {
	obs, _ := s.Scan(ctx)
	select {
	case out <- obs:
	case <-ctx.Done():
	}
	<-ctx.Done()
	return ctx.Err()
}

// jsonOf is v as one JSON line.
func jsonOf(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

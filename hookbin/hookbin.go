// Package hookbin is the mew-hook program: every agent Mew installs hooks
// into (Claude Code, and the others with --agent=NAME) runs it for each
// hook event with the payload on stdin. It folds the event into the session's file,
// or, when another process holds that file's lock, spools it for the holder to
// fold (spool.go): it never waits for a lock. It must never interfere with the
// agent: nothing on stdout, exit 0 on every input, and bounded time even when
// the state directory is locked forever.
// Anything worth saying goes to a size-capped $MEW_HOME/mew-hook.log.
package hookbin

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mew-dev/mew/internal/clock"
	"github.com/mew-dev/mew/internal/hookcli"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
	"github.com/mew-dev/mew/terminal"
)

// Time limits. Claude Code's own timeout for Mew's hook entries is 10 s
// (install.Timeout), so Mew always gives up first, with time to spare, and
// the agent never waits on a hook error.
const (
	// Deadline: the hook exits this long after it started, whatever
	// happens (internal/hookcli, the contract with install).
	Deadline = hookcli.Deadline
	// HelpFor: a hook that holds the lock folds the events other hooks
	// spooled meanwhile for up to this long after it started; then it
	// leaves the rest to the next writer (readers see them anyway).
	HelpFor = 4 * time.Second
)

// RunEnv is the environment `mew install` sets in the hook's command line
// (internal/hookcli says why).
const RunEnv = hookcli.RunEnv

// Options are the hook's inputs, injectable for tests.
type Options struct {
	Stdin   io.Reader
	Getenv  func(string) string
	Environ func() []string
	Now     time.Time // when the hook started: the event's time
	Mono    int64     // the same on the monotonic clock (internal/clock), 0 if unknown
	Pid     int       // the hook's own pid
	Procs   proctree.Table
	Tty     func(pid int) (string, error)
	Store   store.Store
	Log     *Log
	// LockTimeout is ignored: the hook never waits for a session's lock
	// (when it is taken, the event is spooled: store.Append).
	LockTimeout time.Duration
	// Agent is the agent that ran the hook (session.Agent*), from the
	// command line's --agent=NAME; Claude Code's command has none.
	Agent string
	// Event is the event's name from the command line's --event=NAME, for
	// an agent whose payloads do not name it (Copilot CLI).
	Event string
	// BadArg is a command-line argument the hook did not understand; the
	// event is logged and dropped rather than recorded as the wrong agent.
	BadArg string

	flight *inFlight
	sum    string // digest of the payload (duplicate deliveries)
}

// ViaEnv names who ran the hook: "plugin" from Mew's plugins' script, unset
// from a settings entry (internal/hookcli).
const ViaEnv = hookcli.ViaEnv

// DuplicateWindow is how soon the same payload through the other way
// counts as the same event delivered twice: the agent starts both hooks of one event at once,
// but on a loaded machine one can reach its first instruction seconds
// after the other (with 2 s, one event of a real Claude Code session was
// folded twice under a load average of ~100). Within Deadline: a later
// delivery would be dropped anyway.
const DuplicateWindow = 5 * time.Second

// recentDeliveries is how many payload digests a record keeps: enough for
// the deliveries of a few events that overlap.
const recentDeliveries = 8

// inFlight is how far the hook got, for the log line at the deadline.
type inFlight struct {
	ev       atomic.Pointer[reducer.Event] // the event, once parsed
	recorded atomic.Bool
}

// Main is the whole mew-hook program. It returns only to exit 0.
func Main() {
	now := time.Now().UTC() // UTC: no /etc/localtime to load
	stderr := silenceStdio()
	o := processOptions(now)
	if o == nil {
		return
	}
	if stderr != nil {
		o.Log.Fallback = stderr
	}
	// Bounded time whatever happens below: a stuck read or lock can't hold
	// the agent longer than Deadline. An event dropped here is logged.
	o.flight = new(inFlight)
	time.AfterFunc(Deadline, func() {
		// Never exit between writing a record that holds spooled events
		// and removing them from the spool: they would fold twice.
		store.StopCommits(time.Second)
		o.logDeadline()
		os.Exit(0)
	})
	run(o)
}

// logDeadline says what the deadline cost: the event, or the payload that
// never came in full. "Dropped" is said only of an event that is neither
// in its record nor in the spool: the write may have ended just as the
// deadline came (under a heavy load most such hooks had in fact recorded
// theirs), so the store is asked.
func (o *Options) logDeadline() {
	f := o.flight
	switch ev := f.ev.Load(); {
	case ev == nil:
		o.Log.Printf("-", "dropped an event: its payload did not arrive in full within %v", Deadline)
	case !f.recorded.Load():
		switch o.keptAnyway(ev.SessionID) {
		case kept:
		case unknown:
			o.Log.Printf(ev.SessionID, "%s not recorded within %v; it may still be in the spool (too slow to tell)", clipForLog(ev.Name), Deadline)
		default:
			o.Log.Printf(ev.SessionID, "dropped %s: not recorded within %v", clipForLog(ev.Name), Deadline)
		}
	}
}

type keptState int

const (
	lost keptState = iota
	kept
	unknown
)

// keptAnyway looks for this hook's payload among the deliveries of the
// session's record with its spool folded in (what any reader sees), for
// at most a second.
func (o *Options) keptAnyway(id string) keptState {
	if o.sum == "" {
		return lost
	}
	got := make(chan keptState, 1)
	go func() {
		rec, err := o.Store.Load(id)
		if err != nil || rec.Hook == nil {
			got <- lost
			return
		}
		for _, d := range rec.Hook.Recent {
			if d.Sum == o.sum && d.At.Equal(o.Now) {
				got <- kept
				return
			}
		}
		got <- lost
	}()
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case k := <-got:
		return k
	case <-t.C:
		return unknown
	}
}

// processOptions are the real process's inputs; nil when there is no home
// directory (nowhere to write, nothing to say). They are built here, on the
// heap, to keep Main's stack frame small (see Run).
func processOptions(now time.Time) *Options {
	st, err := store.Open(Fold)
	if err != nil {
		return nil
	}
	o := &Options{
		Stdin: os.Stdin, Getenv: os.Getenv, Environ: os.Environ, Now: now, Mono: clock.Mono(), Pid: os.Getpid(),
		Procs: proctree.Lean{WithExe: true}, Tty: proctree.Tty, Store: st,
		Log: &Log{Path: st.Home + "/mew-hook.log"},
	}
	o.Agent, o.Event, o.BadArg = ParseCommandLine(os.Args[1:])
	return o
}

// AgentFlag and EventFlag are the hook's command line as `mew install`
// writes it (internal/hookcli).
const (
	AgentFlag = hookcli.AgentFlag
	EventFlag = hookcli.EventFlag
)

// ParseCommandLine reads the hook's command line: nothing (Claude Code),
// or --agent=NAME with a known agent, and --event=NAME, NAME a plain event
// name (letters and dots, at most 64). bad is the first argument that is
// none of these.
func ParseCommandLine(args []string) (agent, event, bad string) {
	agent = session.AgentClaude
	for _, a := range args {
		if name, ok := strings.CutPrefix(a, EventFlag); ok && plainEventName(name) {
			event = name
			continue
		}
		name, ok := strings.CutPrefix(a, AgentFlag)
		if !ok || !session.ValidAgent(name) {
			return agent, event, a
		}
		agent = name
	}
	return agent, event, ""
}

func plainEventName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.') {
			return false
		}
	}
	return true
}

// Run handles one hook invocation. It never panics and never writes to
// stdout; failures are logged. The work is split into small functions so
// the goroutine stack stays small: growing it means a fresh stack to fault
// in and copy, a real share of a hook process's cost.
func Run(o Options) { run(&o) }

func run(o *Options) {
	defer func() {
		if r := recover(); r != nil {
			o.Log.Printf("-", "internal error (recovered): %v", r)
		}
	}()
	if o.flight == nil {
		o.flight = new(inFlight)
	}
	if ev, payload := readEvent(o); ev != nil {
		if o.BadArg != "" {
			o.Log.Printf(ev.SessionID, "unknown argument %q (this mew-hook knows %sNAME with NAME one of %s); %s ignored",
				clipForLog(o.BadArg), AgentFlag, strings.Join(session.Agents, ", "), clipForLog(ev.Name))
			return
		}
		o.flight.ev.Store(ev)
		record(o, ev, payload)
	}
}

// readEvent reads and parses the payload; nil means it was logged and
// dropped.
func readEvent(o *Options) (*reducer.Event, []byte) {
	payload, err := readPayload(o.Stdin)
	if err != nil {
		o.Log.Printf("-", "cannot read the payload: %v", err)
		return nil, nil
	}
	if len(payload) > reducer.MaxPayload {
		// Let the writer finish (the deadline bounds this) so it never sees
		// a broken pipe, then drop the event.
		n, _ := io.Copy(io.Discard, o.Stdin)
		o.Log.Printf("-", "payload of %d bytes is over the %d byte limit; ignored", int64(len(payload))+n, reducer.MaxPayload)
		return nil, nil
	}
	sum := sha256.Sum256(payload)
	o.sum = hex.EncodeToString(sum[:12])
	ev := new(reducer.Event)
	odd, err := reducer.ParseNamed(o.agent(), o.Event, payload, ev)
	if err != nil {
		o.Log.Printf("-", "%v (%d bytes); ignored", err, len(payload))
		return nil, nil
	}
	if !session.ValidID(ev.SessionID) {
		o.Log.Printf("-", "session id %q is not a plain safe name; ignored", clipForLog(ev.SessionID))
		return nil, nil
	}
	if len(odd) > 0 {
		o.Log.Printf(ev.SessionID, "%s: left out field(s) of an unexpected type: %s", clipForLog(ev.Name), clipForLog(strings.Join(odd, ", ")))
	}
	if ev.Name == reducer.PermissionRequest && o.agent() == session.AgentCodex && o.Getenv != nil {
		ev.AutoReviewed = codexAutoReview(codexHome(o.Getenv))
	}
	return ev, payload
}

// readPayload reads stdin up to one byte past the limit. Payloads are a few
// KB and arrive in one read: one buffer of the usual size up front, instead
// of io.ReadAll's series of small ones (each new size a fresh page to fault).
func readPayload(r io.Reader) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(16 << 10)
	_, err := buf.ReadFrom(io.LimitReader(r, reducer.MaxPayload+1))
	return buf.Bytes(), err
}

// record folds ev into its session's file, or, when another process holds
// the session's lock, spools it for the holder to fold: the hook never
// waits for the lock, so no burst of hooks can time out on it.
func record(o *Options, ev *reducer.Event, payload []byte) {
	var proc *session.Process
	if reducer.StartsSession(ev.Name) {
		// Only SessionStart pays for a process listing; every other event
		// touches nothing but the session's own file.
		proc = captureProcess(o)
		if proc.Tty == "" && reducer.MappingOf(o.agent()).DaemonHooks {
			// Codex's app-server daemon runs the hooks of every TUI of its
			// CODEX_HOME: its environment is the first TUI's, not this
			// session's terminal. The Codex process source finds the TUI.
			proc.Env, proc.Tmux = nil, nil
		}
	}
	now, mono := o.Now, o.Mono
	agent := o.agent()
	order := mono
	if order <= 0 {
		order = now.UnixNano()
	}
	via := ""
	if o.Getenv != nil {
		via = o.Getenv(ViaEnv)
	}
	d := delivery{sum: o.sum, via: via}
	duplicate := false
	// Folding what others spooled goes on until helpUntil, well before the
	// deadline, so the hook never exits in the middle of it.
	helpUntil := now.Add(HelpFor)
	// Recorded for good as soon as the store says so: helping fold others'
	// entries afterwards may run into the deadline, which then drops
	// nothing of this event.
	durable := func() { o.flight.recorded.Store(true) }
	done, note, err := o.Store.TryUpdateAnd(ev.SessionID, order, helpUntil, func(rec *session.Record, _ bool) bool {
		if proc == nil && rec.Process == nil && reducer.RecordsProcessLate(agent) {
			// A plugin's first event of a session that began without
			// one (OpenCode continuing a session sends no
			// session.created): the process, for liveness and jumps.
			// A few /proc or sysctl reads, under this session's lock.
			proc = captureProcess(o)
		}
		duplicate = !applyEvent(rec, agent, ev, now, mono, proc, false, d)
		return true
	}, durable)
	if !done && err == nil {
		// The lock is taken: spool the event.
		ifMissing := false
		if proc == nil && reducer.RecordsProcessLate(agent) {
			if rec, err := o.Store.Load(ev.SessionID); err != nil || rec.Process == nil {
				proc, ifMissing = captureProcess(o), true
			}
		}
		var entry []byte
		if entry, err = encodeEntry(agent, now, mono, proc, ifMissing, d, ev.AutoReviewed, payload); err == nil {
			note, err = o.Store.AppendAnd(ev.SessionID, order, entry, helpUntil, durable)
		}
	}
	if err == nil {
		o.flight.recorded.Store(true)
	}
	if duplicate {
		o.Log.Printf(ev.SessionID, "%s", cameTwice(ev.Name))
	}
	if note != "" {
		o.Log.Printf(ev.SessionID, "%s", note)
	}
	if err != nil {
		o.Log.Printf(ev.SessionID, "dropped %s: %v", clipForLog(ev.Name), err)
	}
}

// cameTwice is the log's note for an event's second delivery.
func cameTwice(event string) string {
	return clipForLog(event) + " came twice (Mew's plugin and a settings entry both run the hook); the second is ignored"
}

// delivery is how one hook process got its event: the payload's digest
// and who ran the hook (ViaEnv), for telling one event delivered both
// ways (plugin and settings entry) from an event repeated.
type delivery struct{ sum, via string }

// applyEvent is one hook event's change to its session's record, the same
// whether the hook folds it itself or a later writer folds it from the
// spool. proc, when set, is the agent process the hook captured; ifMissing
// keeps an existing one.
func applyEvent(rec *session.Record, agent string, ev *reducer.Event, now time.Time, mono int64, proc *session.Process, ifMissing bool, d delivery) (folded bool) {
	if rec.Hook != nil && d.sum != "" {
		for i, r := range rec.Hook.Recent {
			if r.Sum == d.sum && r.Via != d.via && !r.Paired && now.Sub(r.At).Abs() < DuplicateWindow {
				rec.Hook.Recent[i].Paired = true // a third delivery is an event again
				return false
			}
		}
	}
	rec.Agent = agent
	if rec.Hook == nil {
		rec.Hook = new(session.HookState)
	}
	reducer.FoldMono(rec.Hook, ev, now, mono)
	if d.sum != "" {
		rec.Hook.Recent = append(rec.Hook.Recent, session.Delivery{Sum: d.sum, At: now, Via: d.via})
		if n := len(rec.Hook.Recent); n > recentDeliveries {
			rec.Hook.Recent = append(rec.Hook.Recent[:0], rec.Hook.Recent[n-recentDeliveries:]...)
		}
	}
	if proc != nil && (!ifMissing || rec.Process == nil) {
		rec.Process = proc
	}
	return true
}

func (o *Options) agent() string {
	if o.Agent == "" {
		return session.AgentClaude
	}
	return o.Agent
}

// captureProcess records the agent process: the nearest ancestor of the hook
// that is not a shell, its start time, terminal and environment.
func captureProcess(o *Options) *session.Process {
	agent, err := proctree.Agent(o.Procs, o.Pid)
	if err != nil {
		o.Log.Printf("-", "cannot find the agent process above the hook: %v", err)
		agent = proctree.Proc{}
	}
	p := terminal.DescribeAgent(agent, o.Procs, o.Getenv, o.Tty)
	p.HookPid = o.Pid
	return p
}

// clipForLog flattens a value quoted in the log to one short line.
func clipForLog(s string) string { return text.OneLine(s, 80) }

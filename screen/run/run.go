// Package run is `mew run -- <agent> [args…]`: a transparent PTY wrapper
// that reads the agent's screen as it is drawn. Every byte the agent writes
// reaches the person's terminal first and unchanged; a copy feeds Mew's own
// emulator, which is classified every 700 ms and written into the store as
// the session's screen (source `screen`, id `run:<pid>`). The wrapper also
// sees what tmux cannot: the agent's own state sequence (Codex), and which
// process group holds the terminal (TIOCGPGRP): when the agent is no
// longer in the foreground, the shell is back.
package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
	"github.com/mew-dev/mew/terminal"
)

// finishWait bounds the wait for the last screen after the agent exits.
const finishWait = 300 * time.Millisecond

// Options are the wrapper's inputs.
type Options struct {
	Argv   []string // the agent and its arguments
	Stdin  *os.File
	Stdout io.Writer
	Stderr io.Writer
	Env    []string // the agent's environment (os.Environ() normally)
	Store  store.Store
	Rules  func() (*rules.Book, []error)
	Procs  proctree.Table
	Now    func() time.Time
	// Log reports what goes wrong with Mew's side (never the agent's
	// output); nil discards.
	Log func(format string, args ...any)
	// Leader is the command line that runs Leader (`mew run --leader --`):
	// the agent then runs as a job of its own session leader, and Ctrl-Z
	// works. Empty runs the agent as the session leader itself (its stop
	// would be discarded: see Leader).
	Leader []string

	// ticks replaces the screen.SweepEvery ticker (tests: a read then
	// happens on a tick sent, or on output).
	ticks <-chan time.Time
}

// Run runs the agent under a PTY and returns its exit code (128+n when a
// signal n ended it). The person's terminal is restored on every way out.
func Run(o Options) (code int, err error) {
	w, code, err := start(o)
	if err != nil {
		return code, err
	}
	defer w.closeMaster()

	// From here on the person's terminal is raw; every way out restores it.
	if err := w.makeRaw(); err != nil {
		w.o.Log("cannot put the terminal in raw mode: %v", err)
	}
	defer w.restore()
	defer func() {
		if r := recover(); r != nil {
			w.restore()
			w.hangUp()
			code, err = 1, fmt.Errorf("internal error: %v", r)
		}
	}()
	return w.loop(), nil
}

// start opens the PTY and starts the agent (or its leader) on it; the
// person's terminal is not touched yet. On an error nothing runs and code
// is the exit status to give: 127 not found, 126 not started.
func start(o Options) (w *wrapper, code int, err error) {
	if len(o.Argv) == 0 {
		return nil, 2, errors.New("no command to run")
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	path, err := exec.LookPath(o.Argv[0])
	if err != nil {
		return nil, 127, err
	}

	w = &wrapper{o: o, emu: screen.New(screen.DefaultRows, screen.DefaultCols), termFd: -1, output: make(chan struct{}, 1)}
	if o.Stdin != nil && term.IsTerminal(int(o.Stdin.Fd())) {
		w.termFd = int(o.Stdin.Fd())
		// The person's tab, for jumps: the child's own terminal is ours.
		w.outerTty, _ = proctree.Tty(os.Getpid())
	}

	master, slave, err := pty.Open()
	if err != nil {
		return nil, 1, fmt.Errorf("cannot open a terminal for the agent: %w", err)
	}
	w.master = master
	w.slaveName = slave.Name()
	w.syncSize()
	if w.termFd < 0 {
		// Input from a pipe is not typed: nothing to echo (a terminal
		// would not have shown it either).
		if t, err := unix.IoctlGetTermios(int(slave.Fd()), ioctlGetTermios); err == nil {
			t.Lflag &^= unix.ECHO
			unix.IoctlSetTermios(int(slave.Fd()), ioctlSetTermios, t)
		}
	}

	env := o.Env
	if w.outerTty != "" {
		env = append(env[:len(env):len(env)], terminal.RunTtyEnv+"="+w.outerTty)
	}
	var cmd *exec.Cmd
	if len(o.Leader) > 0 {
		cmd = exec.Command(o.Leader[0], append(o.Leader[1:], o.Argv...)...)
		cmd.Env = env
	} else {
		cmd = exec.Command(path, o.Argv[1:]...)
		cmd.Args[0] = o.Argv[0]
		cmd.Env = env
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	// A session of its own with the PTY as its terminal, as if a terminal
	// app had started it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		slave.Close()
		master.Close()
		return nil, 126, err
	}
	slave.Close()
	w.child = cmd.Process.Pid
	w.leader = len(o.Leader) > 0
	return w, 0, nil
}

// loop relays between the person's terminal and the agent's, follows the
// screen and passes signals on, until the agent exits; it returns the
// agent's exit code.
func (w *wrapper) loop() int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w.ctx = ctx
	sigs := make(chan os.Signal, 8)
	// SIGUSR1: the leader says the agent stopped (Ctrl-Z).
	signal.Notify(sigs, unix.SIGWINCH, unix.SIGTERM, unix.SIGHUP, unix.SIGINT, unix.SIGQUIT, unix.SIGCONT, unix.SIGUSR1)
	defer signal.Stop(sigs)

	outDone := make(chan struct{})
	go w.guard(func() { w.pumpOutput(outDone) })
	go w.guard(w.pumpInput)
	go w.guard(func() { w.sweepLoop(ctx) })
	defer w.closeListener()

	exits := make(chan unix.WaitStatus, 1)
	stops := make(chan struct{}, 1)
	go w.guard(func() { w.waitChild(exits, stops) })
	suspended := false
	for {
		select {
		case ws := <-exits:
			// Everything the agent wrote reaches the terminal before Mew
			// returns the shell to the person.
			select {
			case <-outDone:
			case <-time.After(2 * time.Second):
			}
			// The terminal goes back first; the last screen is recorded
			// if the emulator catches up soon, else not waited for: a
			// backlog of hostile output must not keep the person's shell
			// (liveness sees the agent gone either way).
			w.restore()
			cancel()
			finished := make(chan struct{})
			go w.guard(func() {
				defer close(finished)
				w.finish()
			})
			select {
			case <-finished:
			case <-time.After(finishWait):
				w.o.Log("the last screen was not recorded: the emulator was still reading a backlog")
			}
			w.end()
			return exitCode(ws)
		case <-stops:
			suspended = true
			w.suspend()
		case s := <-sigs:
			switch s {
			case unix.SIGWINCH:
				w.syncSize()
			case unix.SIGCONT:
				// Continued (fg): raw again, the size may have changed
				// meanwhile, and the agent goes on too.
				w.makeRaw()
				w.syncSize()
				if suspended {
					suspended = false
					if pid := w.agent(); pid > 0 {
						unix.Kill(-pid, unix.SIGCONT)
					}
				}
			case unix.SIGUSR1:
				if w.leader {
					suspended = true
					w.suspend()
				}
			default:
				// Passed on to the agent, as a terminal app would on close.
				w.signal(s.(syscall.Signal))
			}
		}
	}
}

// wrapper is one `mew run`.
type wrapper struct {
	o      Options
	master *os.File
	// masterMu orders Fd (which reads the descriptor unlocked) before the
	// close: a reading left running when Run returns must not race it.
	masterMu     sync.RWMutex
	masterClosed bool
	slaveName    string
	ctx          context.Context
	child        int  // the process started on the PTY: the leader, or the agent
	leader       bool // child is Leader, the agent its job
	agentMu      sync.Mutex
	agentPid     int // the agent, once known (see agent)

	listenMu sync.Mutex
	listener net.Listener
	termFd   int    // the person's terminal (-1 when stdin is not one)
	outerTty string // its device name
	rawState *term.State
	rawMu    sync.Mutex

	emu *screen.Emulator
	// queue keeps the output for the emulator, which reads it when the
	// screen is classified (sweep, answer): off the output path, so the
	// person's terminal never waits for Mew's reading.
	queueMu sync.Mutex
	queue   []byte
	feedMu  sync.Mutex
	chunk   []byte // the emulator's side of the queue (swapped with it)
	// output is signalled (never blocking) when output was queued.
	output chan struct{}

	// sweepMu holds a sweep's reading and writing; ended (set when Run
	// returns) stops later ones, so a sweep or last screen still reading
	// a backlog records nothing once the agent's session is over.
	sweepMu sync.Mutex
	ended   bool

	track     sync.Mutex
	tracker   screen.Tracker
	agentName string
	written   session.ScreenState // what the store holds
	// asked counts the notifications the agent asked its terminal for;
	// attention and notice are the newest one's time and text.
	asked     int
	attention time.Time
	notice    string
}

// guard runs f on its own goroutine's behalf: a panic there must still
// give the person their terminal back and end the agent with it.
func (w *wrapper) guard(f func()) {
	defer func() {
		if r := recover(); r != nil {
			w.restore()
			w.hangUp()
			w.o.Log("internal error (recovered): %v", r)
			os.Exit(1)
		}
	}()
	f()
}

func (w *wrapper) pumpOutput(done chan<- struct{}) {
	defer close(done)
	buf := make([]byte, 32<<10)
	for {
		n, err := w.master.Read(buf)
		if n > 0 {
			// The person's terminal first, unchanged.
			w.o.Stdout.Write(buf[:n])
			w.queueMu.Lock()
			if len(w.queue)+n > 2*maxBacklog {
				// Only the end is read (see maxBacklog): keep that.
				keep := max(maxBacklog-n, 0)
				w.queue = append(w.queue[:0], w.queue[len(w.queue)-keep:]...)
			}
			w.queue = append(w.queue, buf[:n]...)
			w.queueMu.Unlock()
			select {
			case w.output <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return // EIO: the agent and everything on its terminal are gone
		}
	}
}

func (w *wrapper) pumpInput() {
	if w.o.Stdin == nil {
		return
	}
	io.Copy(w.master, w.o.Stdin)
	if w.termFd < 0 {
		// Input from a pipe or file ended: the end-of-file character tells
		// the agent, as Ctrl-D at a terminal would.
		w.master.Write([]byte{4})
	}
}

// maxBacklog is how much output the emulator reads at once, every sweep
// (700 ms). More than that in one sweep (cat of a big file) is read from
// its end only: the screen is what the last bytes drew, frames in between
// are never classified, and the CPU is left to the agent and the relay.
const maxBacklog = 256 << 10

// feed hands everything queued to the emulator.
func (w *wrapper) feed() {
	w.feedMu.Lock()
	defer w.feedMu.Unlock()
	w.queueMu.Lock()
	w.chunk, w.queue = w.queue, w.chunk[:0]
	w.queueMu.Unlock()
	chunk := w.chunk
	if len(chunk) > maxBacklog {
		chunk = chunk[len(chunk)-maxBacklog:]
	}
	w.emu.Write(chunk)
}

// onOutput is how soon output is read while the screen was last read with
// a prompt on it: the answer should end the wait at once, and an answered
// dialog's turn can end within one SweepEvery (Amp's does). A burst of
// output is one read; a dialog that animates while it waits (Amp's
// spinner) costs one read per onOutput at most.
const onOutput = 100 * time.Millisecond

// onQuiet is how long output must pause, while the screen was last read
// with a turn running, before it is read: an agent animates its running
// turn every 80-120 ms and stops writing when the turn has ended, so its
// last frame is read at once, not at the next SweepEvery (up to 700 ms
// later). A turn that pauses mid-way costs one read per pause.
const onQuiet = 200 * time.Millisecond

func (w *wrapper) sweepLoop(ctx context.Context) {
	ticks := w.o.ticks
	if ticks == nil {
		t := time.NewTicker(screen.SweepEvery)
		defer t.Stop()
		ticks = t.C
	}
	var soon <-chan time.Time
	quiet := time.NewTimer(onQuiet)
	quiet.Stop()
	defer quiet.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			w.sweep()
		case <-w.output:
			switch w.readOn() {
			case session.ScreenBlocked:
				if soon == nil {
					soon = time.After(onOutput)
				}
			case session.ScreenWorking:
				quiet.Reset(onQuiet) // from the last output
			}
		case <-soon:
			soon = nil
			w.sweep()
		case <-quiet.C:
			w.sweep()
		}
	}
}

// readOn is the state of the last reading, which says when output is read
// (see onOutput, onQuiet).
func (w *wrapper) readOn() string {
	w.track.Lock()
	defer w.track.Unlock()
	return w.tracker.State.State
}

// sweep classifies the screen and writes the session when it changed.
func (w *wrapper) sweep() {
	w.feed() // the slow part (a backlog), before the lock: see end
	w.sweepMu.Lock()
	defer w.sweepMu.Unlock()
	if w.ended {
		return
	}
	w.startListener()
	st, _, ok := w.observe()
	if !ok {
		return
	}
	w.track.Lock()
	same := sameScreen(st, w.written)
	w.track.Unlock()
	if same {
		return
	}
	if err := w.write(st); err != nil {
		w.o.Log("cannot record the session: %v", err)
		return
	}
	w.track.Lock()
	w.written = st
	w.track.Unlock()
}

// observe reads the screen now: which agent, and what it shows (the
// frame it read, too: an answer checks it with the agent's rules).
func (w *wrapper) observe() (session.ScreenState, rules.Frame, bool) {
	book, _ := w.o.Rules()
	snap := w.emu.Snapshot()
	frame := rules.Frame{Rows: snap.Rows, Title: snap.Title, AgentState: snap.AgentState}
	if frame.AgentState == "" && snap.Notice.Progress != "" {
		// The progress bar as a hint the rules can read
		// (agent_state = '^progress=working'), for an agent that
		// announces no state of its own.
		frame.AgentState = "progress=" + snap.Notice.Progress
	}
	fg := w.foreground()
	w.track.Lock()
	defer w.track.Unlock()
	if snap.Notice.Asked > w.asked {
		w.asked, w.attention, w.notice = snap.Notice.Asked, w.o.Now(), snap.Notice.Text
	}
	if w.agentName == "" {
		w.agentName = book.SniffProcess(filepath.Base(w.o.Argv[0]), w.o.Argv)
	}
	if w.agentName == "" {
		w.agentName = book.SniffScreen(frame)
	}
	if w.agentName == "" {
		return session.ScreenState{}, frame, false
	}
	pid := w.agent()
	if pid <= 0 {
		return session.ScreenState{}, frame, false // the leader has not started it yet
	}
	background := fg > 0 && fg != pid
	if !background {
		w.tracker.Observe(book.Set(w.agentName), frame, w.o.Now())
	}
	st := w.tracker.State
	st.Agent, st.Via, st.Tty, st.Pid, st.Background = w.agentName, "run", w.slaveName, pid, background
	st.Attention, st.Notice, st.Progress = w.attention, w.notice, snap.Notice.Progress
	if !w.tracker.Seen {
		st.State = ""
	}
	return st, frame, true
}

// foreground is the process group holding the agent's terminal.
func (w *wrapper) foreground() int {
	w.masterMu.RLock()
	defer w.masterMu.RUnlock()
	if w.masterClosed {
		return 0
	}
	pgrp, err := unix.IoctlGetInt(int(w.master.Fd()), unix.TIOCGPGRP)
	if err != nil {
		return 0
	}
	return pgrp
}

// write records the session in the store: the screen, and the process
// (this wrapper's terminal and ancestors, for jumps).
func (w *wrapper) write(st session.ScreenState) error {
	pid := st.Pid
	id := ID(pid)
	var procs proctree.Table = proctree.Lean{WithExe: true}
	if w.o.Procs != nil {
		procs = w.o.Procs
	}
	agent, err := procs.Get(pid)
	if err != nil {
		agent = proctree.Proc{Pid: pid}
	}
	st.StartMs = agent.StartMs
	getenv := func(k string) string { return envValue(w.cmdEnv(), k) }
	_, err = w.o.Store.Update(id, time.Second, func(rec *session.Record, existed bool) bool {
		rec.Agent = st.Agent
		s := st
		rec.Screen = &s
		if !existed || rec.Process == nil {
			p := terminal.DescribeAgent(agent, procs, getenv, func(int) (string, error) { return w.slaveName, nil })
			// The agent starts in the wrapper's folder: the session's,
			// shown while no hook names it (not "").
			p.Cwd, _ = os.Getwd()
			rec.Process = p
		}
		return true
	})
	return err
}

func (w *wrapper) cmdEnv() []string {
	env := w.o.Env
	if w.outerTty != "" {
		env = append(env[:len(env):len(env)], terminal.RunTtyEnv+"="+w.outerTty)
	}
	return env
}

// finish records the last screen (the agent's process is gone, which
// liveness sees).
func (w *wrapper) finish() { w.sweep() }

// end stops the sweeps: it waits for one that is writing (a store update,
// bounded), not for one still feeding the emulator.
func (w *wrapper) end() {
	w.sweepMu.Lock()
	w.ended = true
	w.sweepMu.Unlock()
}

func (w *wrapper) closeMaster() {
	w.masterMu.Lock()
	defer w.masterMu.Unlock()
	w.masterClosed = true
	w.master.Close()
}

// ID is the session id of the agent run as pid.
func ID(pid int) string { return fmt.Sprintf("run:%d", pid) }

func (w *wrapper) makeRaw() error {
	if w.termFd < 0 {
		return nil
	}
	w.rawMu.Lock()
	defer w.rawMu.Unlock()
	st, err := term.MakeRaw(w.termFd)
	if err != nil {
		return err
	}
	if w.rawState == nil {
		w.rawState = st
	}
	return nil
}

func (w *wrapper) restore() {
	w.rawMu.Lock()
	defer w.rawMu.Unlock()
	if w.rawState != nil {
		term.Restore(w.termFd, w.rawState)
	}
}

// syncSize gives the agent's terminal the size of the person's, and the
// emulator too.
func (w *wrapper) syncSize() {
	rows, cols := screen.DefaultRows, screen.DefaultCols
	if w.termFd >= 0 {
		if ws, err := unix.IoctlGetWinsize(w.termFd, unix.TIOCGWINSZ); err == nil && ws.Row > 0 && ws.Col > 0 {
			rows, cols = int(ws.Row), int(ws.Col)
		}
	}
	pty.Setsize(w.master, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)})
	w.emu.Resize(rows, cols)
}

// agent is the agent's pid: the child itself, or the leader's job — the
// process group holding the PTY once the leader has put it there.
func (w *wrapper) agent() int {
	if !w.leader {
		return w.child
	}
	w.agentMu.Lock()
	defer w.agentMu.Unlock()
	if w.agentPid == 0 {
		if fg := w.foreground(); fg > 0 && fg != w.child {
			w.agentPid = fg
		}
	}
	return w.agentPid
}

// signal passes a signal on to the agent (its whole process group), or to
// the leader before the agent runs.
func (w *wrapper) signal(sig syscall.Signal) {
	if pid := w.agent(); pid > 0 && pid != w.child {
		unix.Kill(-pid, sig)
		return
	}
	unix.Kill(-w.child, sig)
}

// hangUp ends the agent as a closed terminal would.
func (w *wrapper) hangUp() {
	w.signal(unix.SIGHUP)
	unix.Kill(-w.child, unix.SIGHUP)
}

// waitChild reaps the agent, reporting stops (Ctrl-Z) as they happen.
func (w *wrapper) waitChild(exits chan<- unix.WaitStatus, stops chan<- struct{}) {
	for {
		var ws unix.WaitStatus
		_, err := unix.Wait4(w.child, &ws, unix.WUNTRACED, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			exits <- ws
			return
		}
		if ws.Stopped() {
			stops <- struct{}{}
			continue
		}
		if ws.Exited() || ws.Signaled() {
			exits <- ws
			return
		}
	}
}

// suspend follows the agent into the background (Ctrl-Z): the person's
// shell gets its terminal back as it was. SIGCONT (`fg`) undoes it (Run's
// signal loop): SIGSTOP to itself takes effect a moment after the call
// returns, so nothing here may touch the terminal after it.
func (w *wrapper) suspend() {
	w.restore()
	unix.Kill(os.Getpid(), unix.SIGSTOP)
}

func exitCode(ws unix.WaitStatus) int {
	switch {
	case ws.Exited():
		return ws.ExitStatus()
	case ws.Signaled():
		return 128 + int(ws.Signal())
	}
	return 1
}

func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if len(env[i]) > len(key) && env[i][len(key)] == '=' && env[i][:len(key)] == key {
			return env[i][len(key)+1:]
		}
	}
	return ""
}

// sameScreen compares two screens leaving out the read time.
func sameScreen(a, b session.ScreenState) bool { return screen.SameState(a, b) }

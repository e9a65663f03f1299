package tmux

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mew-dev/mew/internal/watchfs"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/terminal/termid"
)

// nudgeWait gathers a burst of reports (a hook's write, the registry's
// status, the plugin's next event) into one extra sweep, and gives the
// agent a moment to draw what it reported: Gemini CLI draws an API error
// or "Request cancelled" ~60 ms after its AfterAgent hook ran (while the
// hook runs its screen shows its spinner), and a read before that would
// leave the turn's end waiting for the next 700 ms sweep.
const nudgeWait = 120 * time.Millisecond

// quietSweepEvery is how often the panes are listed while none runs an
// agent (each list is a `tmux` process). In between, every screen.SweepEvery,
// each known pane's foreground job is looked up in the process table (no
// tmux), and a new one is swept at once; only a new pane waits for this.
const quietSweepEvery = 3 * screen.SweepEvery

// retryEvery is how often a server that is not running is looked for;
// maxRetry when its socket is there but nobody answers on it.
const (
	retryEvery = 5 * time.Second
	maxRetry   = 30 * time.Second
)

// A server makes its socket before its first session: one whose socket
// is younger than startingFor is looked at again every startingRetry, so
// a tmux started after Mew is seen at once rather than a retry later.
const (
	startingFor   = 5 * time.Second
	startingRetry = 200 * time.Millisecond
)

// SocketPath is the socket tmux uses for socket ("" for its default:
// $TMUX_TMPDIR or /tmp, then tmux-<uid>/default).
func SocketPath(socket string) string {
	if socket != "" {
		return socket
	}
	dir := os.Getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	return filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Getuid()), "default")
}

func socketExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&os.ModeSocket != 0
}

// nextLook is how long the source waits (for an event on the socket at
// most) before it looks for a server at sock again; wait is the backoff
// for a socket nobody answers on.
func nextLook(sock string, wait time.Duration, now time.Time) time.Duration {
	fi, err := os.Stat(sock)
	switch {
	case err != nil || fi.Mode()&os.ModeSocket == 0:
		// Watched: its creation is an event. Not watched (tmux never ran
		// here, no folder yet): a first server is seen within maxRetry.
		return maxRetry
	case now.Sub(fi.ModTime()) < startingFor:
		// tmux changes only the socket's mode afterwards, not its mtime.
		return startingRetry
	}
	return wait
}

// Procs is what the source needs of the process table; proctree has the
// real one.
type Procs interface {
	// ForegroundGroup is the foreground process group of pid's terminal.
	ForegroundGroup(pid int) (int, error)
	Get(pid int) (proctree.Proc, error)
	Cmdline(pid int) ([]string, error)
}

// WriteCounter is what a Procs may also tell: a fingerprint of what a
// process (and the children it started) wrote so far (proctree.Writes).
// With it, a pane whose foreground job wrote nothing since the last sweep,
// after a sweep that changed nothing, is not listed again at every tick.
type WriteCounter interface {
	Writes(pid int) (uint64, bool)
}

// LocalProcs reads this machine's process table.
type LocalProcs struct{}

func (LocalProcs) Writes(pid int) (uint64, bool) { return proctree.Writes(pid) }

func (LocalProcs) ForegroundGroup(pid int) (int, error) { return proctree.ForegroundGroup(pid) }
func (LocalProcs) Get(pid int) (proctree.Proc, error)   { return proctree.Lean{}.Get(pid) }
func (LocalProcs) Cmdline(pid int) ([]string, error)    { return proctree.Cmdline(pid) }

// Source is the tmux screen source (source.Source).
type Source struct {
	Socket string // -S path; "" for tmux's default server
	// Rules gives the rules in force (rules.Cached), with the errors of
	// the person's rules files.
	Rules func() (*rules.Book, []error)
	Procs Procs
	Now   func() time.Time
	// Memory is a file where Scan keeps what it knew of each pane for the
	// next Scan ("" keeps nothing); see memory.go.
	Memory string

	nudgeOnce sync.Once
	nudges    chan struct{}

	mu     sync.Mutex
	panes  map[string]*pane // by pane id
	closed map[string]closedPane
	// unblocked is when the last sweep saw a pane's prompt go away (zero
	// if none did): its reads are sent until one is ScreenSettle later.
	unblocked time.Time
	reading   int       // panes whose screens the last sweep read
	swept     time.Time // when the panes were last listed
	prevSwept time.Time // the listing before that one
	// still says the last sweep read every screen it read and reported
	// what the one before it did (lastObs): no verdict waits on a later
	// read of the same screen.
	still   bool
	lastObs []source.Observation
}

// New returns the source for the server at socket ("" for tmux's
// default), reading agents' screens with the rules book gives.
// ServerSocket is the socket path of the server this source reads.
func (s *Source) ServerSocket() string { return SocketPath(s.Socket) }

// ForServer is this source for another server (the same rules and
// process table): a one-shot read of a pane on a server Mew does not
// watch.
func (s *Source) ForServer(socket string) source.Source {
	other := New(socket, s.Rules)
	other.Procs = s.Procs
	return other
}

func New(socket string, book func() (*rules.Book, []error)) *Source {
	return &Source{Socket: socket, Rules: book, Procs: LocalProcs{}, Now: time.Now}
}

// SocketFromEnv is the server Mew reads: $MEW_TMUX_SOCKET, else the one
// $TMUX names (Mew runs inside tmux), else tmux's default ("").
func SocketFromEnv() string {
	if s := os.Getenv("MEW_TMUX_SOCKET"); s != "" {
		return s
	}
	if t := os.Getenv("TMUX"); t != "" {
		sock, _, _ := strings.Cut(t, ",")
		return sock
	}
	return ""
}

// Name implements source.Source.
func (s *Source) Name() string { return "tmux" }

// Nudge implements source.Nudger: sweep now (after nudgeWait), not at the
// next tick.
func (s *Source) Nudge() {
	select {
	case s.nudged() <- struct{}{}:
	default: // one is pending: this one joins it
	}
}

func (s *Source) nudged() chan struct{} {
	s.nudgeOnce.Do(func() { s.nudges = make(chan struct{}, 1) })
	return s.nudges
}

// pane is what the source remembers of one pane.
type pane struct {
	id  string
	pid int // the pane's own process (its shell, or the command it runs)
	// agent is the agent that last ran in the pane ("" for none yet).
	agent string
	// The foreground job last looked at, and the agent it is ("" for none).
	fg       int
	fgStart  int64
	fgName   string // an exec keeps the pid and start: a shell's child becomes the agent
	fgAgent  string
	fgSniffs int // screen sniffs left for a job that is no agent by its process
	tracker  screen.Tracker
	since    time.Time // when the agent was first seen here
	bgSince  time.Time // when it left the foreground; zero while it is there
	// The agent's process when it was last the foreground job.
	agentPid   int
	agentStart int64
	// rows is the screen last captured, at capturedAt (asked then), of a
	// pane of size size; rowsOK says it is there to be used again.
	rows       []string
	capturedAt time.Time
	size       string
	rowsOK     bool
	// read says the last sweep read the pane's screen; writes is what its
	// foreground job had written by then (WriteCounter), writesOK that it
	// was known.
	read     bool
	writes   uint64
	writesOK bool
}

// recaptureEvery bounds how long a pane's screen is taken as unchanged on
// its window's activity time alone (a clock step must not freeze it).
const recaptureEvery = 10 * time.Second

// closedFor is how long a pane that closed under a running agent is still
// reported, as the agent gone from its terminal: until its process is seen
// gone (at once, by event, where exits come so), the reports the screen
// had overruled (a wait whose prompt went away) must not come back.
const closedFor = 3 * time.Second

// closedPane is the last observation of a pane that closed.
type closedPane struct {
	obs   source.Observation
	until time.Time
}

// screenSniffs is how many sweeps a new foreground job that is not an
// agent by its process (a wrapper script) is looked at for an agent's
// screen markers: an agent draws within a few seconds.
const screenSniffs = 15

// paneInfo is one line of list-panes.
type paneInfo struct {
	id, tty, title string
	window         string // "session:index"
	cwd            string // the pane's working directory (the project of a screen-only session)
	pid, serverPid int
	dead           bool
	// activity is the last output to the pane's window (Unix seconds);
	// size, the pane's.
	activity int64
	size     string
}

// The title goes last: it is the person's text and may hold a tab.
const listFormat = "#{pane_id}\t#{pane_pid}\t#{pane_tty}\t#{pane_dead}\t#{pid}\t#{window_activity}\t#{pane_width}x#{pane_height}\t#{window_index}\t#{session_name}\t#{pane_current_path}\t#{pane_title}"

func listPanes(ctx context.Context, r Runner) ([]paneInfo, error) {
	lines, err := r.Run(ctx, "list-panes", "-a", "-F", listFormat)
	if err != nil {
		return nil, err
	}
	out := make([]paneInfo, 0, len(lines))
	for _, l := range lines {
		f := strings.SplitN(l, "\t", 11)
		if len(f) < 11 || !termid.ValidTmuxPane(f[0]) {
			continue
		}
		p := paneInfo{id: f[0], tty: f[2], dead: f[3] == "1", size: f[6], window: f[8] + ":" + f[7], cwd: f[9], title: f[10]}
		p.pid, _ = strconv.Atoi(f[1])
		p.serverPid, _ = strconv.Atoi(f[4])
		p.activity, _ = strconv.ParseInt(f[5], 10, 64)
		out = append(out, p)
	}
	return out, nil
}

// Capture returns a pane's visible rows (no scrollback: a prompt that
// scrolled away was answered).
func Capture(ctx context.Context, r Runner, paneID string) ([]string, error) {
	if !termid.ValidTmuxPane(paneID) {
		return nil, fmt.Errorf("%q is not a tmux pane id", paneID)
	}
	return r.Run(ctx, "capture-pane", "-p", "-t", paneID)
}

// sweep reads every pane once and returns the observations of the panes
// that run an agent: one `tmux` process lists the panes, one more captures
// every pane that runs (or may run) an agent (a few more past ~90 panes).
// An agent's pane whose screen could not be read is listed with its last
// state, and the error is an *UnreadPanes naming it.
func (s *Source) sweep(ctx context.Context, r Runner, book *rules.Book) ([]source.Observation, error) {
	// What each known foreground job wrote, taken before the screens are:
	// a write after this shows at the next sweep (sweepDue).
	writes := s.writesNow()
	infos, err := listPanes(ctx, r)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.panes == nil {
		s.panes = map[string]*pane{}
	}
	seen := make(map[string]bool, len(infos))
	live := infos[:0]
	var wanted []string
	listed := map[string]paneInfo{} // the wanted ones
	for _, info := range infos {
		if info.dead {
			continue
		}
		live = append(live, info)
		seen[info.id] = true
		p := s.panes[info.id]
		if p == nil {
			p = &pane{id: info.id}
			s.panes[info.id] = p
		}
		p.pid = info.pid
		fg := p.fg
		p.read = s.identify(book, p, info)
		if p.read {
			wanted = append(wanted, info.id)
			listed[info.id] = info
		}
		w, known := writes[info.id]
		p.writes, p.writesOK = w.n, known && w.fg == p.fg && fg == p.fg
	}
	s.reading, s.prevSwept, s.swept = len(wanted), s.swept, now
	// A pane whose window had no output since its last capture was asked
	// for (in an earlier second: tmux keeps the time in seconds), at the
	// same size, shows what it showed then: not captured again. A sweep of
	// dialogs nobody answers runs list-panes alone.
	var capture []string
	same := map[string][]string{}
	wall := time.Now() // tmux's clock, not the source's (tests set it)
	for _, id := range wanted {
		p, info := s.panes[id], listed[id]
		if p.rowsOK && p.size == info.size && info.activity > 0 && info.activity < p.capturedAt.Unix() &&
			!wall.Before(p.capturedAt) && wall.Sub(p.capturedAt) < recaptureEvery {
			same[id] = p.rows
			continue
		}
		capture = append(capture, id)
	}
	asked := time.Now()
	screens, unread := captureAll(ctx, r, capture)
	for _, id := range capture {
		p := s.panes[id]
		p.rows, p.rowsOK = screens[id]
		p.capturedAt, p.size = asked, listed[id].size
	}
	maps.Copy(screens, same)
	var out []source.Observation
	for _, info := range live {
		rows, captured := screens[info.id]
		if obs, ok := s.readPane(book, s.panes[info.id], info, rows, captured, now); ok {
			out = append(out, obs)
			if obs.Screen.Unblocked.Equal(now) {
				s.unblocked = now
			}
		}
	}
	for id, p := range s.panes {
		if !seen[id] {
			s.noteClosed(p, now)
			delete(s.panes, id)
		}
	}
	out = append(out, s.stillClosed(now, seen)...)
	s.still = unread == nil && s.lastObs != nil && sameObservations(s.lastObs, out)
	s.lastObs = out
	if s.lastObs == nil {
		s.lastObs = []source.Observation{}
	}
	return out, unread
}

// paneWrites is what a pane's foreground job fg had written.
type paneWrites struct {
	fg int
	n  uint64
}

// writesNow is what the foreground job of each pane read last has
// written so far (none without a WriteCounter).
func (s *Source) writesNow() map[string]paneWrites {
	wc, ok := s.Procs.(WriteCounter)
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]paneWrites{}
	for id, p := range s.panes {
		if p.read && p.fg > 0 {
			if n, ok := wc.Writes(p.fg); ok {
				out[id] = paneWrites{fg: p.fg, n: n}
			}
		}
	}
	return out
}

// stillClosed is the closed panes still reported (not expired, and not
// open again: seen), in a stable order. The caller holds s.mu.
func (s *Source) stillClosed(now time.Time, seen map[string]bool) []source.Observation {
	var out []source.Observation
	for id, c := range s.closed {
		if now.After(c.until) || seen[id] {
			delete(s.closed, id)
			continue
		}
		out = append(out, c.obs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Fallback < out[j].Fallback })
	return out
}

// serverGone forgets the panes of a server that went away (killed, or its
// last session ended) and returns the closed panes still reported.
func (s *Source) serverGone(now time.Time) []source.Observation {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, p := range s.panes {
		s.noteClosed(p, now)
		delete(s.panes, id)
	}
	return s.stillClosed(now, nil)
}

// noteClosed keeps the last observation of an agent's pane that closed,
// as the agent no longer in its terminal: it joins the agent's session by
// its process, which is what the screen knew of it last.
func (s *Source) noteClosed(p *pane, now time.Time) {
	// Read long ago: not in the sweep before this one either (on a loaded
	// machine sweeps themselves can be seconds apart); a one-shot read has
	// only the clock.
	readLongAgo := now.Sub(p.tracker.State.At) > closedFor && (s.prevSwept.IsZero() || p.tracker.State.At.Before(s.prevSwept))
	if p.agent == "" || p.fgAgent == "" || !p.tracker.Seen || readLongAgo {
		return // no agent, it had already left the foreground, or it was read long ago
	}
	pid, start := p.agentPid, p.agentStart
	if pid == 0 {
		pid, start = p.fg, p.fgStart // recalled from the memory file: the agent was the foreground job
	}
	st := p.tracker.State
	st.Agent, st.Via, st.Pane, st.At, st.Since, st.Background = p.agent, "tmux", p.id, now, now, true
	st.Pid, st.StartMs = 0, 0
	if s.closed == nil {
		s.closed = map[string]closedPane{}
	}
	s.closed[p.id] = closedPane{until: now.Add(closedFor), obs: source.Observation{
		Fallback: "tmux:" + p.id,
		Agent:    p.agent,
		Process: session.Process{Pid: pid, StartMs: start, Name: p.agent, Tty: st.Tty,
			Tmux: &session.Tmux{Socket: s.Socket, Pane: p.id}},
		Screen: &st,
	}}
}

// sweepDue reports whether the panes are to be swept now: some pane runs
// (or may run) an agent, the quiet interval is over, or a known pane's
// foreground job changed (an agent started in a shell).
func (s *Source) sweepDue(now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Sub(s.swept) >= quietSweepEvery {
		return true
	}
	if s.reading > 0 && !s.unwritten() {
		return true
	}
	for _, p := range s.panes {
		if proc := s.foreground(p.pid); proc.Pid != p.fg || proc.StartMs != p.fgStart || proc.Name != p.fgName {
			return true // a new job, or another process under the same pid
		}
	}
	return false
}

// unwritten reports whether no screen read last can have changed: the last
// sweep changed nothing (still), and the foreground job of every pane it
// read has written nothing since (WriteCounter; an agent draws its screen
// by writing to it). A new pane waits for quietSweepEvery, as on a quiet
// server; a foreground job that changed is seen by sweepDue. The caller
// holds s.mu.
func (s *Source) unwritten() bool {
	wc, ok := s.Procs.(WriteCounter)
	if !ok || !s.still {
		return false
	}
	for _, p := range s.panes {
		if !p.read {
			continue
		}
		if n, ok := wc.Writes(p.fg); !ok || !p.writesOK || n != p.writes {
			return false
		}
	}
	return true
}

// foreground is the foreground job of the pane whose process is pid (the
// pane's process itself when its terminal's group cannot be read), with
// its start time when the process table has it.
func (s *Source) foreground(pid int) proctree.Proc {
	fg, err := s.Procs.ForegroundGroup(pid)
	if err != nil || fg <= 0 {
		fg = pid
	}
	proc, err := s.Procs.Get(fg)
	if err != nil {
		proc = proctree.Proc{Pid: fg}
	}
	proc.Pid = fg
	return proc
}

// identify finds which agent (if any) is the pane's foreground job, by its
// process, and reports whether its screen is to be read: it runs an agent
// (or did), or it may (an agent started through a wrapper shows only on
// its screen).
func (s *Source) identify(book *rules.Book, p *pane, info paneInfo) bool {
	proc := s.foreground(info.pid)
	fg := proc.Pid
	if fg != p.fg || proc.StartMs != p.fgStart || proc.Name != p.fgName {
		// A new foreground job (or one that exec'd: a shell forks, and its
		// child is a shell until it execs the agent): which agent is it, by
		// its process?
		argv, _ := s.Procs.Cmdline(fg)
		p.fg, p.fgStart, p.fgName = fg, proc.StartMs, proc.Name
		p.fgAgent = book.SniffProcess(proc.Name, argv)
		if p.fgAgent == "" && proctree.IsShell(proc.Name) {
			// `sh -c 'claude --resume x'` (tmux runs a window's command so):
			// the shell may stay the foreground job, the agent its child.
			p.fgAgent = sniffShellCommand(book, argv)
		}
		if p.fgAgent == "" && isLauncher(proc.Name) && len(argv) > 1 {
			// `time amp` forks: the launcher stays the foreground job.
			if words := pastLaunchers(argv); len(words) > 0 {
				p.fgAgent = book.SniffProcess(filepath.Base(words[0]), words)
			}
		}
		p.fgSniffs = 0
		if p.fgAgent == "" && !proctree.IsShell(proc.Name) && !mewRun(argv) && !viewer(proc.Name) {
			p.fgSniffs = screenSniffs
		}
	}
	return p.fgAgent != "" || p.fgSniffs > 0
}

// readPane turns what identify found and the pane's screen (rows, when
// captured) into the pane's observation, if it runs an agent.
func (s *Source) readPane(book *rules.Book, p *pane, info paneInfo, rows []string, captured bool, now time.Time) (source.Observation, bool) {
	if p.fgAgent == "" && p.fgSniffs > 0 {
		// Not an agent by its process: an agent's markers on its screen
		// (started through a wrapper) still make it one.
		p.fgSniffs--
		if !captured {
			return source.Observation{}, false
		}
		if a := book.SniffScreen(rules.Frame{Rows: rows, Title: info.title}); a != "" {
			p.fgAgent, p.fgSniffs = a, 0
		}
	}
	if p.fgAgent != "" && p.fgAgent != p.agent {
		p.agent, p.tracker, p.since = p.fgAgent, screen.Tracker{}, now // a new session in this pane
	}
	if p.agent == "" {
		return source.Observation{}, false // a shell, an editor: not listed
	}
	// The agent that ran here is no longer the foreground job: the shell is
	// back (it exited) or it was suspended.
	background := p.fgAgent == ""
	switch {
	case background && p.bgSince.IsZero():
		p.bgSince = now
	case !background:
		p.bgSince = time.Time{}
	}
	// A screen that could not be read keeps the last state (as a blank
	// one does): the agent is still listed, never dropped unsaid.
	if !background && captured {
		first := !p.tracker.Seen
		p.tracker.Observe(book.Set(p.agent), rules.Frame{Rows: rows, Title: info.title}, now)
		if first && p.tracker.Seen {
			p.tracker.State.Since = firstStateSince(p.tracker.State.Since, info.activity, p.fgStart)
		}
	}
	st := p.tracker.State
	st.Agent, st.Via, st.Pane, st.Tty, st.At, st.Background = p.agent, "tmux", info.id, info.tty, now, background
	st.Window = info.window
	if !p.tracker.Seen {
		st.Since = p.since
	}
	if background {
		st.Since = p.bgSince
	}
	pid, start := p.fg, p.fgStart
	if background {
		pid, start = 0, 0 // the foreground job is not the agent
	} else {
		p.agentPid, p.agentStart = pid, start
	}
	st.Pid, st.StartMs = pid, start
	// The process is the agent's, also once it left: what the screen
	// knew of it last. Its session is found by it where the terminal
	// alone says nothing (package identity): Codex's daemon, a child of a
	// TUI killed before its rollout named it, runs the turn on.
	return source.Observation{
		Fallback: "tmux:" + info.id,
		Agent:    p.agent,
		Process: session.Process{Pid: p.agentPid, StartMs: p.agentStart, Name: p.agent, Tty: info.tty, Cwd: info.cwd,
			// The socket as tmux itself names it ($TMUX in the pane): the
			// pane is a pane of this server only (package identity).
			Tmux: &session.Tmux{Socket: SocketPath(s.Socket), Pane: info.id, ServerPid: info.serverPid}},
		Screen: &st,
	}, true
}

// sniffShellCommand names the agent a non-interactive shell runs
// (`sh -c "…"`): the first word of each simple command in its script,
// past variable assignments and launchers (`env -u X`, `nice`, `nohup`,
// `time`).
func sniffShellCommand(book *rules.Book, argv []string) string {
	script := ""
	for i, a := range argv {
		if a == "-c" && i+1 < len(argv) {
			script = argv[i+1]
			break
		}
	}
	if script == "" {
		return "" // an interactive shell: its jobs are foreground jobs of their own
	}
	for _, cmd := range strings.FieldsFunc(script, func(r rune) bool { return strings.ContainsRune(";&|\n()", r) }) {
		words := pastLaunchers(strings.Fields(cmd))
		if len(words) == 0 {
			continue
		}
		if a := book.SniffProcess(filepath.Base(words[0]), words); a != "" {
			return a
		}
	}
	return ""
}

// viewers are programs that show other programs' text and are never an
// agent's wrapper: an agent's words on their screen (`tail -f` of a log
// that holds a Codex dialog) are no session. The process names the agent
// before its screen does.
var viewers = map[string]bool{
	"tail": true, "less": true, "more": true, "most": true, "cat": true, "bat": true, "batcat": true,
	"head": true, "grep": true, "rg": true, "watch": true, "vi": true, "vim": true, "nvim": true,
	"nano": true, "emacs": true, "man": true, "journalctl": true, "multitail": true, "lnav": true,
}

func viewer(name string) bool { return viewers[filepath.Base(name)] }

// mewRun reports a `mew run` wrapper: it reads its agent's screen itself,
// byte by byte, and writes what it sees to the store.
func mewRun(argv []string) bool {
	return len(argv) > 1 && filepath.Base(argv[0]) == "mew" && argv[1] == "run"
}

// Scan implements source.Source: one sweep.
func (s *Source) Scan(ctx context.Context) ([]source.Observation, error) {
	s.recall()
	book, rulesErrs := s.Rules()
	obs, err := s.sweep(ctx, Exec{Socket: s.Socket}, book)
	var unread *UnreadPanes
	partial := errors.As(err, &unread)
	if err == nil || partial {
		s.remember() // best effort: a read that cannot be kept is still a read
	}
	if errors.Is(err, ErrNoServer) && !partial {
		// The server went since the last read (the window closed): the
		// agents the memory file had are gone from their panes.
		obs, err = s.serverGone(s.Now()), nil
	}
	if err == nil || partial {
		// The person's broken rules files are said (the embedded rules are
		// in force for those agents).
		err = errors.Join(append([]error{err}, rulesErrs...)...)
	}
	return obs, err
}

// Watch implements source.Source: a sweep every screen.SweepEvery, sent when
// it changes. Without a server it looks again every few seconds (or at
// once when its socket appears); it never starts one.
func (s *Source) Watch(ctx context.Context, out chan<- []source.Observation) error {
	// A watcher starts from what the last Mew knew (a one-shot read, or a
	// watcher before a restart), so a dialog already on a screen keeps
	// the time it appeared, not this start's; it leaves what it knew.
	s.recall()
	defer s.remember()
	sender := watchfs.Sender[[]source.Observation]{Out: out, Same: sameObservations}
	send := func(obs []source.Observation, force bool) bool { return sender.Send(ctx, obs, force) }
	sock := SocketPath(s.Socket)
	// The socket's folder is watched: a server starting makes its socket
	// there, an event, so no server costs no polling (Mew runs all day next
	// to no tmux). Without the folder, a stat now and then.
	fw, err := fsnotify.NewWatcher()
	if err == nil {
		defer fw.Close()
	}
	watching := false
	watch := func() {
		if fw != nil && !watching && fw.Add(filepath.Dir(sock)) == nil {
			watching = true
		}
	}
	var events <-chan fsnotify.Event
	if fw != nil {
		events = fw.Events
	}
	wait := retryEvery
	for {
		watch()
		if socketExists(sock) {
			if s.follow(ctx, send) {
				wait = retryEvery
			} else {
				// A socket a dead server left: ask less and less often.
				wait = min(2*wait, maxRetry)
			}
		}
		if ctx.Err() != nil {
			return nil
		}
		// No server: no tmux sessions to show, but the agents it had
		// are reported gone from their panes for a moment (closedFor).
		closed := s.serverGone(s.Now())
		if !send(closed, false) {
			return nil
		}
		timeout := nextLook(sock, wait, time.Now())
		if len(closed) > 0 {
			timeout = min(timeout, closedFor)
		}
		select {
		case <-ctx.Done():
			return nil
		case ev := <-events:
			if ev.Name != sock {
				continue
			}
		case <-time.After(timeout):
		}
	}
}

// follow sweeps the server every screen.SweepEvery while it answers, and
// nudgeWait after a nudge; it reports whether it answered at all.
func (s *Source) follow(ctx context.Context, send func([]source.Observation, bool) bool) bool {
	r := Exec{Socket: s.Socket}
	answered := false
	ticker := time.NewTicker(screen.SweepEvery)
	defer ticker.Stop()
	failed := 0
	// force: a nudge asked for a sweep that is sent whatever it finds; it
	// stands until a sweep succeeds. Every sweep until one at settled or
	// after is sent too, and one is made then if no tick came: a report's
	// end of turn waits for a read that late (the agent's settle time, see
	// settle) while the screen still shows the turn run. So a burst of
	// reports costs at most two sweeps besides the ticks: nudgeWait and the
	// settle time after; and one every settleReadEvery in between while an
	// agent with a settle time of its own still shows the turn running.
	force := false
	var settled time.Time
	nudges := s.nudged()
	wait := func() bool {
		running := s.running()
		var settle, soon <-chan time.Time
		if !settled.IsZero() {
			next := time.Until(settled)
			if running {
				next = min(next, settleReadEvery)
			}
			settle = time.After(next)
		} else if running {
			soon = time.After(max(0, runningSweepEvery-s.Now().Sub(s.lastSwept())))
		}
		select {
		case <-ctx.Done():
			return false
		case <-ticker.C:
		case <-soon:
		case <-settle:
			force = true
		case <-nudges:
			nudged := time.Now()
			select {
			case <-ctx.Done():
				return false
			case <-time.After(nudgeWait):
			}
			select { // a nudge in the wait is this one
			case <-nudges:
			default:
			}
			force, settled = true, nudged.Add(s.settle())
		}
		return true
	}
	for first := true; ; first = false {
		if !first && !force && !s.sweepDue(s.Now()) {
			if !wait() {
				return true
			}
			continue
		}
		book, _ := s.Rules()
		sweptAt := time.Now()
		obs, err := s.sweep(ctx, r, book)
		var unread *UnreadPanes
		if errors.As(err, &unread) {
			err = nil // the panes not read keep their last state
		}
		switch {
		case err == nil:
			answered, failed = true, 0
		case errors.Is(err, ErrNoServer) || ctx.Err() != nil:
			return answered
		default:
			// One failed read (a slow server, a pane gone mid-command) does
			// not empty the list: what was seen last stands until the
			// server fails three times in a row.
			if failed++; failed >= 3 || !answered {
				return answered
			}
		}
		if err == nil {
			s.mu.Lock()
			if u := s.unblocked; !u.IsZero() {
				// A prompt went away: its first frames may be the bare input
				// box (see combine's answering); send until a read is late.
				if until := time.Now().Add(session.ScreenSettle); until.After(settled) {
					settled = until
				}
				s.unblocked = time.Time{}
			}
			s.mu.Unlock()
			if !send(obs, force || !settled.IsZero()) {
				return true
			}
			force = false
			if !settled.IsZero() && !sweptAt.Before(settled) {
				settled = time.Time{}
			}
		}
		if !wait() {
			return true
		}
	}
}

// settleReadEvery is how often the panes are read within a settle time
// while a pane still draws a turn running: the turn's end shows at the
// first read after the agent draws it, not at the settle time's read (an
// agent reports first and draws after, later on a loaded machine:
// OpenCode's idle reached its screen 0.2-0.6 s after its plugin's event).
const settleReadEvery = 150 * time.Millisecond

// runningSweepEvery is how often the panes are swept while a pane draws a
// turn running and no report asked for a read: an agent without hooks
// tells its turn's end only on its screen, and half the 700 ms sweep
// keeps that under a second on a loaded machine. A sweep whose panes
// wrote nothing is still skipped (sweepDue), and an idle desk keeps the
// 700 ms ticks.
const runningSweepEvery = screen.SweepEvery / 2

// running reports whether a pane in the foreground was last read showing
// a turn running.
func (s *Source) running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.panes {
		if st := p.tracker.State; st.State == session.ScreenWorking && !st.Background {
			return true
		}
	}
	return false
}

func (s *Source) lastSwept() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.swept
}

// settle is how long after a report the panes are read again: the longest
// settle time of the agents they show (the report is any pane's).
func (s *Source) settle() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	longest := session.ScreenSettle
	for _, p := range s.panes {
		longest = max(longest, p.tracker.State.Settle())
	}
	return longest
}

// sameObservations compares two sweeps, leaving out the read time (a
// sweep that finds nothing new sends nothing).
func sameObservations(a, b []source.Observation) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Fallback != y.Fallback || x.Agent != y.Agent || x.Process.Pid != y.Process.Pid || x.Process.Tty != y.Process.Tty {
			return false
		}
		if (x.Screen == nil) != (y.Screen == nil) {
			return false
		}
		if x.Screen != nil {
			if !screen.SameState(*x.Screen, *y.Screen) {
				return false
			}
		}
	}
	return true
}

// firstStateSince dates the state a pane shows when Mew first reads it
// (no memory file told when it began: a fresh watcher, a first one-shot
// read) from the window's last output: an agent waiting on a dialog or
// done draws nothing more, so that is when the state began, not when Mew
// happened to look. Seconds, as tmux keeps it; never before the agent's
// process started (startMs, 0 when unknown) nor after seen.
func firstStateSince(seen time.Time, activity, startMs int64) time.Time {
	if activity <= 0 {
		return seen
	}
	at := time.Unix(activity, 0)
	if startMs > 0 && at.Before(time.UnixMilli(startMs)) {
		at = time.UnixMilli(startMs)
	}
	if at.After(seen) {
		return seen
	}
	return at
}

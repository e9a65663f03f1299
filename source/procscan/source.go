package procscan

// Process discovery: every agent process on this machine, whatever else
// reports it. A process no other source sees (no hooks installed, no
// registry, not in a tmux pane Mew reads) is still listed, under
// "proc:<pid>", with its working directory, terminal and tmux pane; one
// that another source sees is merged into that session by the monitor (by
// pid, else by tmux pane or terminal), so it is never listed twice.
//
// Neither Linux nor macOS tells an unprivileged process when another
// process starts (Linux's proc connector needs CAP_NET_ADMIN; kqueue
// watches only pids already known), so the table is polled, every 2 s. A
// poll reads the table (one /proc/<pid>/stat read per process on Linux, one
// sysctl on macOS) and looks closer only at processes it has not seen
// before: their command line once, to tell which agent they are (the rules
// book's sniffing, as for tmux panes). Measured: see BenchmarkPoll.

import (
	"context"
	"errors"
	"os"
	"strconv"
	"time"

	"github.com/shirou/gopsutil/v3/process"

	"github.com/mew-dev/mew/internal/watchfs"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/terminal"
)

// DefaultPoll is how often Watch reads the process table.
const DefaultPoll = 2 * time.Second

// youngMs: a process started less than this ago whose arguments read as
// none is sniffed again at the next poll.
const youngMs = 2000

// FallbackPrefix starts the id of a session only this source sees.
const FallbackPrefix = "proc:"

// entry is one process of the table.
type entry struct {
	pid, ppid int
	name      string
	startMs   int64
	uid       int  // -1 when the table does not say (Linux: read for agents only)
	zombie    bool // dead, not yet reaped
	tty       bool // has a controlling terminal
}

// Source is the process discovery source (source.Source).
type Source struct {
	// Rules gives the rules in force (rules.Cached): their sniffing says
	// which processes are agents.
	Rules func() (*rules.Book, []error)
	Poll  time.Duration

	// For tests: the process table, a process's command line, and the
	// details of an agent process (working directory, terminal, jump
	// variables).
	table   func() ([]entry, error)
	cmdline func(pid int) ([]string, error)
	details func(pid int) detail
	owner   func(pid int) int
	clock   func() time.Time // when a poll happens
	self    int              // this user's uid

	book   *rules.Book
	seen   map[key]string // process → the agent it is ("" for none)
	agents map[key]detail // agent processes → what was read of them
}

// key identifies a process across polls: a pid reused, or a process that
// exec'd another program (its name changes), is another key.
type key struct {
	pid     int
	startMs int64
	name    string
}

// detail is what is read once of an agent process.
type detail struct {
	tty  string
	env  map[string]string
	tmux *session.Tmux
}

// New returns the source for the rules book gives.
func New(book func() (*rules.Book, []error)) *Source { return &Source{Rules: book} }

// Name implements source.Source.
func (s *Source) Name() string { return "procscan" }

func (s *Source) init() {
	if s.clock == nil {
		s.clock = time.Now
	}
	if s.table == nil {
		s.table = newTableReader(s.isAgent, s.clock)
	}
	if s.cmdline == nil {
		s.cmdline = proctree.Cmdline
	}
	if s.details == nil {
		s.details = readDetail
	}
	if s.owner == nil {
		s.owner = owner
	}
	s.self = os.Getuid()
	if s.seen == nil {
		s.seen, s.agents = map[key]string{}, map[key]detail{}
	}
}

// Scan reads the table once.
func (s *Source) Scan(ctx context.Context) ([]source.Observation, error) {
	s.init()
	return s.poll(ctx)
}

// Watch polls every Poll and sends the observations when they change.
func (s *Source) Watch(ctx context.Context, out chan<- []source.Observation) error {
	s.init()
	every := s.Poll
	if every <= 0 {
		every = DefaultPoll
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	sender := watchfs.Sender[[]source.Observation]{Out: out}
	for {
		obs, err := s.poll(ctx)
		if err == nil && !sender.Send(ctx, obs, false) {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// daemonWithoutTerminal says whether agent's rules say its processes are
// sessions only with a terminal (`terminal = true` in [sniff]).
func daemonWithoutTerminal(book *rules.Book, agent string) bool {
	set := book.Set(agent)
	return set != nil && set.Sniff.Terminal
}

// poll reads the table and returns an observation per agent process that
// is not a child of another agent process (an agent run by an agent's
// tool, or the relaunched half of one agent: Gemini CLI runs as two node
// processes; the outer one is listed).
func (s *Source) poll(ctx context.Context) ([]source.Observation, error) {
	book, _ := s.Rules()
	if book == nil {
		return nil, errors.New("no rules")
	}
	if book != s.book { // other rules: every verdict may differ
		s.book = book
		clear(s.seen)
	}
	table, err := s.table()
	if err != nil {
		return nil, err
	}
	byPid := make(map[int]*entry, len(table))
	live := make(map[key]bool, len(table))
	for i := range table {
		e := &table[i]
		byPid[e.pid] = e
		k := key{e.pid, e.startMs, e.name}
		live[k] = true
		if _, ok := s.seen[k]; ok || e.zombie {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		argv, _ := s.cmdline(e.pid)
		agent := book.SniffProcess(e.name, argv)
		if len(argv) == 0 && agent == "" && s.clock().UnixMilli()-e.startMs < youngMs {
			// Caught inside its execve (the new name set, the arguments
			// not yet): a node agent would read as no agent for good.
			// Sniffed again at the next poll.
			continue
		}
		s.seen[k] = agent
	}
	for k := range s.seen {
		if !live[k] {
			delete(s.seen, k)
			delete(s.agents, k)
		}
	}
	agentOf := func(e *entry) string {
		if e == nil || e.zombie {
			return ""
		}
		return s.seen[key{e.pid, e.startMs, e.name}]
	}
	var out []source.Observation
	for i := range table {
		e := &table[i]
		agent := agentOf(e)
		if agent == "" || !e.tty && daemonWithoutTerminal(book, agent) {
			continue // Codex's app-server daemon (the Codex source handles it), Cline's hub (it outlives the TUI)
		}
		if underAgent(e, byPid, agentOf) || !s.mine(e) {
			continue
		}
		k := key{e.pid, e.startMs, e.name}
		d, ok := s.agents[k]
		if !ok {
			d = s.details(e.pid)
			s.agents[k] = d
		}
		p := session.Process{Pid: e.pid, StartMs: e.startMs, Name: e.name, Tty: d.tty, Env: d.env, Tmux: d.tmux}
		p.Cwd = cwd(e.pid)
		out = append(out, source.Observation{Fallback: FallbackPrefix + strconv.Itoa(e.pid), Agent: agent, Process: p})
	}
	return out, nil
}

// isAgent: pid is an agent process of the last poll (its end must be
// seen at once, and a zombie told apart).
func (s *Source) isAgent(pid int) bool {
	for k := range s.agents {
		if k.pid == pid {
			return true
		}
	}
	return false
}

// underAgent: some ancestor of e is an agent process.
func underAgent(e *entry, byPid map[int]*entry, agentOf func(*entry) string) bool {
	p := e
	for range 64 {
		if p.ppid <= 1 || p.ppid == p.pid {
			return false
		}
		if p = byPid[p.ppid]; p == nil {
			return false
		}
		if agentOf(p) != "" {
			return true
		}
	}
	return false
}

// mine: the process is this user's (another user's agents are theirs to
// watch; their details are not readable anyway). An owner that cannot be
// read is not this user's: its own processes are always readable, and a
// process that went meanwhile is no session.
func (s *Source) mine(e *entry) bool {
	uid := e.uid
	if uid < 0 {
		uid = s.owner(e.pid)
	}
	return uid == s.self
}

// readDetail reads what does not change in a process's life: its
// terminal, and the variables a jump needs (the tmux pane among them).
func readDetail(pid int) detail {
	var d detail
	d.tty, _ = proctree.Tty(pid)
	if vars, err := proctree.Environ(pid, terminal.EnvVars()); err == nil {
		d.env, d.tmux = terminal.Env(func(k string) string { return vars[k] })
		if len(d.env) == 0 {
			d.env = nil
		}
	}
	return d
}

// cwd is the process's working directory, "" when unreadable.
func cwd(pid int) string {
	dir, err := (&process.Process{Pid: int32(pid)}).Cwd()
	if err != nil {
		return ""
	}
	return dir
}

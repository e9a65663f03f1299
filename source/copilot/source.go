package copilot

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/internal/watchfs"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
)

// Reading limits: a session's log grows for its whole life and some lines
// are large (a tool's output), while the lines read here are small.
const (
	maxLine     = 1 << 20   // a longer line is skipped, not kept
	firstWindow = 256 << 10 // a new tail reads this much of the file's end first
	chunk       = 64 << 10
	maxSessions = 64 // session folders followed at once, the newest first
	// recent: a folder whose log has not changed for this long is not
	// read (a session open that long with no line is idle either way: the
	// hooks and the screen still say so).
	recent      = 24 * time.Hour
	defaultPoll = 2 * time.Second
)

// Source follows the logs of Copilot CLI's open sessions.
type Source struct {
	Home string // $COPILOT_HOME, default ~/.copilot
	// Procs looks a pid up (default proctree.Lean): a session is open while
	// the process that holds its inuse.<pid>.lock runs.
	Procs proctree.Table
	// Cmdline reads a process's command line (default proctree.Cmdline):
	// the holder must be Copilot, not a process that reused its pid.
	Cmdline func(pid int) ([]string, error)
	// Tty reads a process's terminal (default proctree.Tty).
	Tty  func(pid int) (string, error)
	Now  func() time.Time
	Poll time.Duration // Watch's safety-net re-read

	tails map[string]*tail // by session folder
}

// New is the source for $COPILOT_HOME (or ~/.copilot); nil without a home.
func New() *Source {
	home := os.Getenv("COPILOT_HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return nil
		}
		home = filepath.Join(h, ".copilot")
	}
	return &Source{Home: home}
}

func (s *Source) Name() string { return "copilot" }

func (s *Source) stateDir() string { return filepath.Join(s.Home, "session-state") }

// Scan reads every open session's log once.
func (s *Source) Scan(ctx context.Context) ([]source.Observation, error) {
	return s.observe(), nil
}

// observe lists the open sessions and reads what their logs appended.
func (s *Source) observe() []source.Observation {
	if s.tails == nil {
		s.tails = map[string]*tail{}
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	entries, _ := os.ReadDir(s.stateDir())
	type cand struct {
		dir string
		mod time.Time
	}
	var cands []cand
	for _, e := range entries {
		if !e.IsDir() || !session.ValidID(e.Name()) {
			continue
		}
		dir := filepath.Join(s.stateDir(), e.Name())
		fi, err := os.Stat(filepath.Join(dir, "events.jsonl"))
		if err != nil || !fi.Mode().IsRegular() || now().Sub(fi.ModTime()) > recent {
			continue
		}
		cands = append(cands, cand{dir, fi.ModTime()})
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].mod.After(cands[j].mod) })
	if len(cands) > maxSessions {
		cands = cands[:maxSessions]
	}
	var out []source.Observation
	keep := map[string]bool{}
	for _, c := range cands {
		proc, ok := s.holder(c.dir)
		if !ok {
			continue // closed (or its process gone): the hooks said the rest
		}
		keep[c.dir] = true
		t := s.tails[c.dir]
		if t == nil {
			t = &tail{path: filepath.Join(c.dir, "events.jsonl")}
			s.tails[c.dir] = t
		}
		t.read()
		if t.state.State == "" {
			continue
		}
		st := t.state
		out = append(out, source.Observation{
			ID: filepath.Base(c.dir), Agent: session.AgentCopilot, Process: proc, Log: &st,
		})
	}
	for dir := range s.tails {
		if !keep[dir] {
			delete(s.tails, dir)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// holder is the running Copilot process that holds dir's
// inuse.<pid>.lock (Copilot makes one per process that opened the
// session, and removes it when that process lets go).
func (s *Source) holder(dir string) (session.Process, bool) {
	procs, cmdline, tty := s.Procs, s.Cmdline, s.Tty
	if procs == nil {
		procs = proctree.Lean{WithExe: true}
	}
	if cmdline == nil {
		cmdline = proctree.Cmdline
	}
	if tty == nil {
		tty = proctree.Tty
	}
	locks, _ := filepath.Glob(filepath.Join(dir, "inuse.*.lock"))
	for _, l := range locks {
		n := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(l), "inuse."), ".lock")
		pid, err := strconv.Atoi(n)
		if err != nil || pid <= 1 || strconv.Itoa(pid) != n {
			continue
		}
		p, err := procs.Get(pid)
		if err != nil {
			continue
		}
		if args, err := cmdline(pid); err != nil || !isCopilot(p.Name, args) {
			continue
		}
		out := session.Process{Pid: pid, StartMs: p.StartMs, Name: p.Name}
		out.Tty, _ = tty(pid)
		// The launcher (`node …/.bin/copilot`) is what a pane shows as its
		// job: the wrapper chain joins the pane's screen to this session
		// (monitor/identity rule 3) before any hook names the process.
		for i, a := range proctree.Ancestors(procs, pid) {
			if i == 4 {
				break
			}
			out.Ancestors = append(out.Ancestors, session.Ancestor{Pid: a.Pid, Name: a.Name, Exe: a.Exe})
			if proctree.IsShell(a.Name) || proctree.IsShell(a.Exe) {
				break
			}
		}
		return out, true
	}
	return session.Process{}, false
}

// isCopilot: the native binary's thread name is MainThread, its path names
// copilot (…/@github/copilot-linux-x64/copilot, or a copilot on PATH).
func isCopilot(name string, args []string) bool {
	if len(args) == 0 {
		return false
	}
	return strings.Contains(filepath.Base(args[0]), "copilot") || strings.Contains(args[0], "/@github/copilot")
}

// Watch follows the session folders with fsnotify (a new session's folder
// is an event in session-state; session-state itself, while missing, is
// followed through its nearest existing ancestor below the home folder),
// re-reading everything every Poll in case an event was missed.
func (s *Source) Watch(ctx context.Context, out chan<- []source.Observation) error {
	fw, err := watchfs.NewWatcher()
	if err != nil {
		return err
	}
	defer fw.Close()
	folders := &fw.Dirs
	addWatches := func() {
		folders.Follow(s.stateDir())
		for dir := range s.tails {
			if !folders.Watched[dir] && fw.Add(dir) == nil {
				folders.Watched[dir] = true
			}
		}
		for dir := range folders.Watched {
			if _, ok := s.tails[dir]; !ok && filepath.Dir(dir) == s.stateDir() {
				fw.Remove(dir)
				delete(folders.Watched, dir)
			}
		}
	}
	poll := s.Poll
	if poll <= 0 {
		poll = defaultPoll
	}
	sender := watchfs.Sender[[]source.Observation]{Out: out}
	send := func() bool {
		obs := s.observe()
		addWatches()
		return sender.Send(ctx, obs, false)
	}
	if !send() {
		return nil
	}
	ticker := time.NewTicker(poll)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-fw.Events:
			if !ok {
				return nil
			}
			if ev.Op&(fsnotify.Create|fsnotify.Write|fsnotify.Remove) == 0 {
				continue
			}
			if filepath.Dir(ev.Name) == s.stateDir() && ev.Op&fsnotify.Create != 0 {
				// A new session's folder: watch it before its log has a line.
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() && !folders.Watched[ev.Name] && fw.Add(ev.Name) == nil {
					folders.Watched[ev.Name] = true
				}
			}
			if !send() {
				return nil
			}
		case <-fw.Errors:
		case <-ticker.C:
			if !send() {
				return nil
			}
		}
	}
}

// tail follows one events.jsonl: each read folds only what was appended,
// keeping at most one partial line.
type tail struct {
	path    string
	state   session.LogState
	folder  Folder
	off     int64
	lines   watchfs.Lines
	started bool
}

func (t *tail) read() {
	f, err := privfile.OpenRegular(t.path)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return
	}
	size := fi.Size()
	if size < t.off { // replaced or truncated: from the start
		*t = tail{path: t.path}
	}
	if !t.started {
		t.started = true
		t.lines.Max = maxLine
		t.state.File = filepath.Base(t.path)
		if start := size - firstWindow; start > 0 {
			t.off = start
			t.lines.Reset(true) // mid-line: skip to the next newline
		}
	}
	t.off, _ = t.lines.ReadRange(f, t.off, size, chunk, func(line []byte) { t.folder.Fold(&t.state, line) })
}

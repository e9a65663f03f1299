package copilot

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mew-dev/mew/internal/privfile"
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
// is an event in session-state), re-reading everything every Poll in case
// an event was missed.
func (s *Source) Watch(ctx context.Context, out chan<- []source.Observation) error {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer fw.Close()
	watched := map[string]bool{}
	addWatches := func() {
		if !watched[s.stateDir()] && fw.Add(s.stateDir()) == nil {
			watched[s.stateDir()] = true
		}
		for dir := range s.tails {
			if !watched[dir] && fw.Add(dir) == nil {
				watched[dir] = true
			}
		}
		for dir := range watched {
			if _, ok := s.tails[dir]; !ok && dir != s.stateDir() {
				fw.Remove(dir)
				delete(watched, dir)
			}
		}
	}
	poll := s.Poll
	if poll <= 0 {
		poll = defaultPoll
	}
	var last []source.Observation
	first := true
	send := func() bool {
		obs := s.observe()
		addWatches()
		if !first && reflect.DeepEqual(obs, last) {
			return true
		}
		first, last = false, obs
		select {
		case out <- obs:
			return true
		case <-ctx.Done():
			return false
		}
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
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() && !watched[ev.Name] && fw.Add(ev.Name) == nil {
					watched[ev.Name] = true
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
	path     string
	state    session.LogState
	off      int64
	partial  []byte
	skipping bool // inside a line longer than maxLine
	started  bool
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
		t.state.File = filepath.Base(t.path)
		if start := size - firstWindow; start > 0 {
			t.off, t.skipping = start, true // mid-line: skip to the next newline
		}
	}
	buf := make([]byte, chunk)
	for t.off < size {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-t.off)], t.off)
		if n > 0 {
			t.feed(buf[:n])
			t.off += int64(n)
		}
		if n == 0 || err != nil && !errors.Is(err, io.EOF) {
			return
		}
	}
}

func (t *tail) feed(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if !t.skipping {
				if len(t.partial)+len(b) > maxLine {
					t.partial, t.skipping = t.partial[:0], true
				} else {
					t.partial = append(t.partial, b...)
				}
			}
			return
		}
		switch {
		case t.skipping:
			t.skipping = false
		case len(t.partial) > 0:
			Fold(&t.state, append(t.partial, b[:i]...))
			t.partial = t.partial[:0]
		default:
			Fold(&t.state, b[:i])
		}
		b = b[i+1:]
	}
}

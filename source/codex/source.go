package codex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/internal/watchfs"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/source/procscan"
	"github.com/mew-dev/mew/store"
	"github.com/mew-dev/mew/terminal"
)

// Defaults of Source.
const (
	defaultDays   = 3              // day folders read back from today
	defaultRecent = 24 * time.Hour // files modified within this are sessions that may still run
	defaultPoll   = 2 * time.Second
	idlePoll      = 60 * time.Second
	// rejoinPoll is the poll for rejoinWindow after a session's TUI went:
	// the person may resume it at once (`codex resume --last` in the same
	// shell), and until its new TUI is found the pane's screen is a
	// session of its own.
	rejoinPoll   = 250 * time.Millisecond
	rejoinWindow = 20 * time.Second
	// maxTails bounds the files followed at once; the least recently
	// modified go first.
	maxTails = 256
	// abandonedAfter: a working session's rollout not written for this
	// long, with no process that could run it (no TUI of its own, no
	// daemon, no headless codex), was left mid-turn (a crash, a kill, a
	// reboot): it is exited, not working. A turn writes its rollout as it
	// goes; the bound leaves room for a tool that runs long and quiet.
	abandonedAfter = 15 * time.Minute
)

// Source is the Codex monitor source: each recent rollout's session with
// its log state, the daemon that runs it and the TUI that shows it.
type Source struct {
	Home string // $CODEX_HOME (default ~/.codex)
	// Days is how many day folders (sessions/YYYY/MM/DD) back from today
	// are read; Recent, how recently a file must have changed to be read.
	Days   int
	Recent time.Duration
	// Hooked lists the Codex sessions Mew's hooks reported (optional): their
	// rollout files are followed wherever they are (a resumed session
	// writes to its old day's folder), and their working directory stands
	// in for one the rollout does not give.
	Hooked func() []Hooked
	// StoreDir is where Hooked looks (the store's folder): Watch calls
	// Hooked again only once something there changed (fsnotify), or
	// idlePoll passed; "" calls it every refresh.
	StoreDir string
	// Procs lists the Codex processes (default: procscan.List of "codex").
	Procs func(ctx context.Context) ([]procscan.Proc, error)
	// Environ reads a process's jump variables (default proctree.Environ).
	Environ func(pid int, keys []string) (map[string]string, error)
	Now     func() time.Time
	// Poll is how often Watch re-reads the process table (and re-lists the
	// day folders, in case an event was missed).
	Poll time.Duration
	// HooksReview reports whether Codex will ask the person to review
	// Mew's hooks at its start ("Hooks need review": installed, not
	// trusted; install.CodexAsksReview), nil for never. A UI that shows
	// no session then, and started after the newest session Codex made,
	// is on that dialog: Codex creates the session only once it is
	// answered, and outside tmux no screen shows it.
	HooksReview func() bool

	// reviewing is HooksReview's last answer, asked at most every
	// defaultPoll (it reads hooks.json and config.toml), at reviewAt.
	reviewing bool
	reviewAt  time.Time

	tails  map[string]*Tail
	hooked []Hooked
	// hookedAt is when Hooked was last called; hookedStale says the store
	// changed since (both only while Watch watches StoreDir).
	hookedAt     time.Time
	hookedStale  bool
	storeWatched bool
	uiSince      map[string]time.Time // session id → when its UI was first seen
	goneAt       map[string]time.Time // session id → when its UI was seen gone
	// lastUI is the UI process that last showed each session: a gone
	// Terminal still names it (its pane, its pid and start), so the last
	// screen of that pane stays this session's (package identity).
	lastUI map[string]session.Process
	// Memory is the file a one-shot Scan keeps lastUI in (memory.go); ""
	// for none.
	Memory   string
	recalled bool
	saved    map[string]session.Process
}

// Hooked is what Mew's hooks know of a Codex session.
type Hooked struct {
	ID, Cwd, Transcript string
}

// HookedFromStore lists the Codex sessions of st's records. It re-reads
// only the files that changed since its last call: it runs every poll, and
// a store can hold hundreds of sessions of other agents.
func HookedFromStore(st store.Store) func() []Hooked {
	return store.Cached(st, func(r session.Record) (Hooked, bool) {
		if r.Agent != session.AgentCodex || r.Hook == nil {
			return Hooked{}, false
		}
		return Hooked{ID: r.ID, Cwd: r.Hook.Cwd, Transcript: r.Hook.TranscriptPath}, true
	})
}

// NewSource is the source for CODEX_HOME (or ~/.codex).
func NewSource() (*Source, error) {
	home := os.Getenv("CODEX_HOME")
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return nil, err
		}
		home = filepath.Join(h, ".codex")
	}
	return &Source{Home: home}, nil
}

// Name names the source in errors.
func (s *Source) Name() string { return "codex" }

func (s *Source) init() {
	if s.tails == nil {
		s.tails, s.uiSince, s.goneAt = map[string]*Tail{}, map[string]time.Time{}, map[string]time.Time{}
		s.lastUI = map[string]session.Process{}
	}
}

func (s *Source) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Source) sessionsDir() string { return filepath.Join(s.Home, "sessions") }

// dayDirs are the day folders of the last Days days, newest first.
func (s *Source) dayDirs() []string {
	days := s.Days
	if days <= 0 {
		days = defaultDays
	}
	now := s.now().Local()
	out := make([]string, 0, days)
	for i := range days {
		d := now.AddDate(0, 0, -i)
		out = append(out, filepath.Join(s.sessionsDir(), d.Format("2006"), d.Format("01"), d.Format("02")))
	}
	return out
}

// refresh finds the rollout files to follow and reads what each gained.
func (s *Source) refresh() []error {
	s.init()
	recent := s.Recent
	if recent <= 0 {
		recent = defaultRecent
	}
	cutoff := s.now().Add(-recent)
	var errs []error
	paths := map[string]time.Time{}
	for _, dir := range s.dayDirs() {
		entries, err := os.ReadDir(dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		for _, e := range entries {
			if SessionIDFromName(e.Name()) == "" {
				continue
			}
			if fi, err := e.Info(); err == nil && fi.ModTime().After(cutoff) {
				paths[filepath.Join(dir, e.Name())] = fi.ModTime()
			}
		}
	}
	if s.Hooked == nil {
		s.hooked = nil
	} else if !s.storeWatched || s.hookedStale || s.hookedAt.IsZero() || time.Since(s.hookedAt) >= idlePoll {
		// Listing the store costs a stat per session of every agent:
		// not again while it is quiet.
		s.hooked, s.hookedAt, s.hookedStale = s.Hooked(), time.Now(), false
	}
	for _, h := range s.hooked {
		// Whatever its age: the store lists the session anyway (and forgets
		// it once exited), and its TUI is what ends it.
		if p := h.Transcript; p != "" && SessionIDFromName(p) != "" && filepath.IsAbs(p) {
			if fi, err := os.Stat(p); err == nil {
				paths[filepath.Clean(p)] = fi.ModTime()
			}
		}
	}
	// The newest maxTails files; the others are dropped.
	list := make([]string, 0, len(paths))
	for p := range paths {
		list = append(list, p)
	}
	sort.Slice(list, func(i, j int) bool { return paths[list[i]].After(paths[list[j]]) })
	if len(list) > maxTails {
		list = list[:maxTails]
	}
	keep := map[string]bool{}
	for _, p := range list {
		keep[p] = true
		t := s.tails[p]
		if t == nil {
			t = NewTail(p)
			s.tails[p] = t
		}
		if _, err := t.Read(); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	for p := range s.tails {
		if !keep[p] {
			delete(s.tails, p)
		}
	}
	return errs
}

// readOne reads a file an event named, if it is followed or belongs in a
// watched day folder.
func (s *Source) readOne(path string) error {
	s.init()
	t := s.tails[path]
	if t == nil {
		if SessionIDFromName(path) == "" || len(s.tails) >= maxTails {
			return nil
		}
		t = NewTail(path)
		s.tails[path] = t
	}
	_, err := t.Read()
	if errors.Is(err, fs.ErrNotExist) {
		delete(s.tails, path)
		return nil
	}
	return err
}

// observe builds the observations from the tails and the process table.
func (s *Source) observe(ctx context.Context) ([]source.Observation, error) {
	var sessions []Session
	byID := map[string]*Tail{}
	for _, t := range s.tails {
		if t.ID == "" || t.State.State == "" || t.Reviewer {
			continue
		}
		if prev, dup := byID[t.ID]; dup && !t.State.At.After(prev.State.At) {
			continue // a session resumed in another file: the newer file speaks
		}
		byID[t.ID] = t
	}
	hookCwd := map[string]string{}
	for _, h := range s.hooked {
		hookCwd[h.ID] = h.Cwd
	}
	for id, t := range byID {
		sessions = append(sessions, Session{ID: id, Cwd: firstNonEmpty(t.State.Cwd, hookCwd[id]), Created: CreatedFromID(id), Active: t.State.At})
	}
	for id := range s.uiSince {
		if byID[id] == nil {
			delete(s.uiSince, id) // a session no longer followed
		}
	}
	for id := range s.goneAt {
		if byID[id] == nil {
			delete(s.goneAt, id)
		}
	}
	for id := range s.lastUI {
		if byID[id] == nil {
			delete(s.lastUI, id)
		}
	}
	s.askReview()
	if len(sessions) == 0 && !s.reviewing {
		return nil, nil
	}
	sort.Slice(sessions, func(i, j int) bool { return sessions[i].ID < sessions[j].ID })
	procs, err := s.listProcs(ctx)
	var uis []UI
	var daemon *procscan.Proc
	daemonPid := s.daemonPid()
	headless := false // a codex without a terminal that runs a session (codex exec in a script)
	for i, p := range procs {
		if u, ok := AsUI(p); ok {
			uis = append(uis, u)
		} else if p.Pid == daemonPid && Daemon(p) {
			daemon = &procs[i]
		} else if p.Tty == "" && !Daemon(p) {
			p.Tty = "?" // would it be a UI, given a terminal?
			if _, ok := AsUI(p); ok {
				headless = true
			}
		}
	}
	assigned := Assign(sessions, uis)
	now := s.now()
	out := make([]source.Observation, 0, len(sessions))
	for _, sess := range sessions {
		t := byID[sess.ID]
		lg := t.State
		o := source.Observation{ID: sess.ID, Agent: session.AgentCodex, Log: &lg}
		if daemon != nil {
			o.Process = session.Process{Pid: daemon.Pid, StartMs: daemon.StartMs, Name: daemon.Name}
		}
		if err != nil {
			// The process table could not be read: say nothing of the
			// TUI rather than call it gone.
			out = append(out, o)
			continue
		}
		term := &session.Terminal{}
		if i, ok := assigned[sess.ID]; ok {
			u := uis[i]
			if _, seen := s.uiSince[sess.ID]; !seen {
				s.uiSince[sess.ID] = now
			}
			delete(s.goneAt, sess.ID)
			term.Process = session.Process{Pid: u.Pid, StartMs: u.StartMs, Name: u.Name, Tty: u.Tty}
			term.Env, term.Tmux = s.jumpEnv(u.Pid)
			term.At = s.uiSince[sess.ID]
			s.lastUI[sess.ID] = term.Process
			if daemon == nil {
				o.Process = term.Process // --no-daemon: the TUI runs the session
			}
		} else {
			if daemon == nil && !headless && lg.State == session.Working && now.Sub(t.mod) > abandonedAfter {
				lg.State, lg.Source, lg.Since = session.Exited, "rollout:abandoned", t.mod.UTC()
			}
			term.Gone = true
			term.Process = s.lastUI[sess.ID]
			// Seen going: from then. Never seen: when the session was last
			// heard of (it did not just end).
			if _, seen := s.uiSince[sess.ID]; seen {
				if _, ok := s.goneAt[sess.ID]; !ok {
					s.goneAt[sess.ID] = now
				}
				term.At = s.goneAt[sess.ID]
			} else {
				term.At = lg.At
			}
		}
		o.Terminal = term
		out = append(out, o)
	}
	if err != nil {
		return out, fmt.Errorf("reading the process table: %w", err)
	}
	if s.reviewing {
		out = append(out, s.onReview(uis, assigned, now)...)
	}
	return out, nil
}

// maxThreadLocks bounds the names newestThread reads.
const maxThreadLocks = 4096

// newestThread is when the newest session of CODEX_HOME was made, by the
// ids of thread-writer-locks/<id>.lock: Codex makes one as it creates a
// session, right after the hooks' review is answered (measured on 0.169:
// none while the dialog shows); zero when none is known.
func (s *Source) newestThread() time.Time {
	// Non-blocking, and a directory only: a FIFO there must not hold the
	// source.
	f, err := os.OpenFile(filepath.Join(s.Home, "thread-writer-locks"), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return time.Time{}
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		return time.Time{}
	}
	entries, _ := f.ReadDir(maxThreadLocks)
	var newest time.Time
	for _, e := range entries {
		if t := CreatedFromID(strings.TrimSuffix(e.Name(), ".lock")); t.After(newest) {
			newest = t
		}
	}
	return newest
}

// ownHome: the Codex process pid uses this source's CODEX_HOME (its
// $CODEX_HOME, else $HOME/.codex), or its environment cannot be read.
// Another home's Codex trusts hooks of its own. An environment read empty
// is a process on its way out (Linux empties it at exit; proctree.Environ
// reads again past an execve): not this home's TUI on the dialog (one
// exiting under another CODEX_HOME showed here for a sample, e2e at
// load 40).
func (s *Source) ownHome(pid int) bool {
	environ := s.Environ
	if environ == nil {
		environ = proctree.Environ
	}
	vars, err := environ(pid, []string{"CODEX_HOME", "HOME"})
	if err != nil {
		return true
	}
	home := vars["CODEX_HOME"]
	if home == "" && vars["HOME"] != "" {
		home = filepath.Join(vars["HOME"], ".codex")
	}
	return home != "" && filepath.Clean(home) == filepath.Clean(s.Home)
}

// askReview refreshes reviewing, at most every defaultPoll.
func (s *Source) askReview() {
	now := s.now()
	if s.HooksReview == nil || (!s.reviewAt.IsZero() && now.Sub(s.reviewAt) < defaultPoll && !now.Before(s.reviewAt)) {
		return
	}
	s.reviewing, s.reviewAt = s.HooksReview(), now
}

// onReview observes the UIs that show no session while Codex asks to
// review Mew's hooks: each waits on that dialog. They carry no session id:
// the process scan's row of the same process (proc:<pid>) is theirs.
func (s *Source) onReview(uis []UI, assigned map[string]int, now time.Time) []source.Observation {
	shows := map[int]bool{}
	for _, i := range assigned {
		shows[i] = true
	}
	newest := s.newestThread()
	var out []source.Observation
	for i, u := range uis {
		if shows[i] || u.Resume != "" || u.Resuming || !s.ownHome(u.Pid) {
			continue // a resume shows an old session, not the start-up dialog
		}
		if !newest.IsZero() && !newest.Before(time.UnixMilli(u.StartMs).Add(-startSlack)) {
			// A session was made since it started: its dialog is
			// answered ("Continue without trusting" leaves the hooks
			// untrusted, and Codex writes no rollout before a turn).
			continue
		}
		p := session.Process{Pid: u.Pid, StartMs: u.StartMs, Name: u.Name, Tty: u.Tty, Cwd: u.Dir}
		p.Env, p.Tmux = s.jumpEnv(u.Pid)
		at := now
		if u.StartMs > 0 {
			at = time.UnixMilli(u.StartMs).UTC()
		}
		out = append(out, source.Observation{
			Fallback: procscan.FallbackPrefix + strconv.Itoa(u.Pid), Agent: session.AgentCodex, Process: p,
			Terminal: &session.Terminal{Process: p, At: at, HooksReview: true},
		})
	}
	return out
}

func (s *Source) listProcs(ctx context.Context) ([]procscan.Proc, error) {
	if s.Procs != nil {
		return s.Procs(ctx)
	}
	return procscan.List(ctx, func(name string) bool { return name == "codex" })
}

func (s *Source) jumpEnv(pid int) (map[string]string, *session.Tmux) {
	environ := s.Environ
	if environ == nil {
		environ = proctree.Environ
	}
	vars, err := environ(pid, terminal.EnvVars())
	if err != nil {
		return nil, nil
	}
	return terminal.Env(func(k string) string { return vars[k] })
}

// daemonPid is the pid in $CODEX_HOME/app-server-daemon/daemon.pid, 0 when
// there is none.
func (s *Source) daemonPid() int {
	var d struct {
		Pid int `json:"pid"`
	}
	if _, err := privfile.ReadJSON(filepath.Join(s.Home, "app-server-daemon", "daemon.pid"), 64<<10, &d); err != nil || d.Pid <= 1 {
		return 0
	}
	return d.Pid
}

// Scan observes once.
func (s *Source) Scan(ctx context.Context) ([]source.Observation, error) {
	errs := s.refresh()
	s.recallUIs()
	obs, err := s.observe(ctx)
	s.rememberUIs()
	return obs, errors.Join(append(errs, err)...)
}

// Watch follows the rollouts with fsnotify (the day folders, new ones at
// midnight included, and the files in them) and the process table every
// Poll, sending the observations whenever they change.
func (s *Source) Watch(ctx context.Context, out chan<- []source.Observation) error {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer fw.Close()
	var storeChanged <-chan fsnotify.Event
	var storeErrs <-chan error
	if s.StoreDir != "" && s.Hooked != nil {
		if sw, err := fsnotify.NewWatcher(); err == nil {
			defer sw.Close()
			if sw.Add(s.StoreDir) == nil {
				storeChanged, storeErrs, s.storeWatched = sw.Events, sw.Errors, true
				defer func() { s.storeWatched = false }()
			}
		}
	}
	watched := map[string]bool{}
	addWatches := func() { s.watchDays(fw.Add, watched) }
	poll := s.Poll
	if poll <= 0 {
		poll = defaultPoll
	}
	sender := watchfs.Sender[[]source.Observation]{Out: out}
	send := func() bool {
		obs, _ := s.observe(ctx)
		return sender.Send(ctx, obs, false)
	}
	addWatches()
	s.refresh()
	if !send() {
		return nil
	}
	// With no Codex session to follow, the process table is not read and
	// the files come by event: the safety-net pass can wait (Mew runs all
	// day; each wake-up costs).
	interval := func() time.Duration {
		if len(sender.Last()) == 0 && s.Poll <= 0 && !s.reviewing {
			return idlePoll // (a Codex starting on its hooks' review is looked for every poll)
		}
		if s.justGone() && rejoinPoll < poll {
			return rejoinPoll
		}
		return poll
	}
	cur := interval()
	ticker := time.NewTicker(cur)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-fw.Events:
			if !ok {
				return nil
			}
			if ev.Op&fsnotify.Create != 0 {
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
					addWatches()
					s.refresh()
				}
			}
			if strings.HasSuffix(ev.Name, ".jsonl") && ev.Op&(fsnotify.Create|fsnotify.Write) != 0 {
				s.readOne(ev.Name)
			}
			if !send() {
				return nil
			}
		case <-fw.Errors:
			addWatches()
		case _, ok := <-storeChanged:
			if !ok {
				storeChanged, s.storeWatched = nil, false
			}
			s.hookedStale = true
			continue
		case <-storeErrs:
			s.hookedStale = true
			continue
		case <-ticker.C:
			addWatches()
			s.refresh()
			if !send() {
				return nil
			}
		}
		if i := interval(); i != cur {
			cur = i
			ticker.Reset(i)
		}
	}
}

// justGone: a session's TUI went within rejoinWindow.
func (s *Source) justGone() bool {
	now := s.now()
	for _, at := range s.goneAt {
		if now.Sub(at) < rejoinWindow {
			return true
		}
	}
	return false
}

// watchDays watches the day folders, and each missing one's nearest
// existing ancestor up to CODEX_HOME itself (watchfs.Folders: never the
// home folder or above, where macOS's kqueue would open every entry,
// Desktop and Documents included, and show privacy prompts; without
// CODEX_HOME the periodic pass looks for it again): the folder's creation (at midnight, or Codex's
// first run) is an event there. Codex makes a new day folder and its first
// rollout at once (mkdir -p, then the file): the walk is redone until it
// adds no watch (then the caller's refresh lists what the folders already
// hold). It reports whether it added one.
func (s *Source) watchDays(add func(string) error, watched map[string]bool) bool {
	f := watchfs.Folders{Add: add, Watched: watched, Within: s.Home}
	return f.Follow(s.dayDirs()...)
}

// Sources are the Codex sources for a monitor whose store is st (none when
// there is no home directory to find CODEX_HOME in); hooksReview is
// Source.HooksReview.
func Sources(st store.Store, hooksReview func() bool) []source.Source {
	src, err := NewSource()
	if err != nil {
		return nil
	}
	src.Hooked = HookedFromStore(st)
	src.StoreDir = st.Dir()
	src.Memory = filepath.Join(st.Home, "screens", "codex-ui.json")
	src.HooksReview = hooksReview
	return []source.Source{src}
}

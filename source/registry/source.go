package registry

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mew-dev/mew/internal/watchfs"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
)

// Source is the registry as a source: one observation per session (the
// newest of its files), each carrying the file as read (Observation's
// Registry). It is a source.Recorder: what it read is folded into the
// session's stored record (Record), so a one-shot read remembers the last
// turn across runs, and a Partial: an unreadable file is reported while
// the others are used.
type Source struct {
	Dir string
	// Rescan is how often Watch lists the directory again besides its
	// events (a missed event must not hide a file); 0 is DefaultRescan.
	Rescan time.Duration

	mu       sync.Mutex
	problems []error
}

// DefaultRescan is Watch's safety net for a missed file event.
const DefaultRescan = time.Minute

// New is the source reading dir (Dir()).
func New(dir string) *Source { return &Source{Dir: dir} }

// Name is "registry".
func (s *Source) Name() string { return "registry" }

var (
	_ source.Recorder = (*Source)(nil)
	_ source.Partial  = (*Source)(nil)
)

// Scan reads every file once.
func (s *Source) Scan(context.Context) ([]source.Observation, error) {
	d := newDirState(s.Dir)
	d.rescan()
	probs := d.problems()
	s.setProblems(probs)
	return d.observations(), errors.Join(probs...)
}

// Watch follows the directory with fsnotify (from its nearest existing
// parent up to the agent's folder until it exists, so Claude Code's first
// run is noticed; without that folder, by the rescan), re-reads
// only the files an event names, and sends the observations whenever a
// file changed.
func (s *Source) Watch(ctx context.Context, out chan<- []source.Observation) error {
	fw, err := watchfs.NewWatcher()
	if err != nil {
		return err
	}
	defer fw.Close()
	// Until the folder exists its nearest existing ancestor up to the
	// agent's own folder (~/.claude, $CLAUDE_CONFIG_DIR) is watched, never
	// the home folder or above (macOS's kqueue would open Desktop,
	// Documents...): with none, the rescan looks for it.
	fw.Dirs.Within = filepath.Dir(s.Dir)
	d := newDirState(s.Dir)
	addWatches := func() { fw.Dirs.Follow(s.Dir) }
	// followTranscripts watches the folders of the idle sessions'
	// transcripts (or their nearest ancestor until Claude Code makes them
	// at the first prompt), and reads the transcripts again when a watch
	// was added: what was written before it sent no event.
	followTranscripts := func() bool {
		var dirs []string
		for _, p := range d.transcripts() {
			dirs = append(dirs, filepath.Dir(p))
		}
		return fw.Dirs.Follow(dirs...) && d.allTranscriptsChanged()
	}
	rescanEvery := s.Rescan
	if rescanEvery <= 0 {
		rescanEvery = DefaultRescan
	}
	ticker := time.NewTicker(rescanEvery)
	defer ticker.Stop()
	send := func() bool {
		s.setProblems(d.problems())
		select {
		case out <- d.observations():
			return true
		case <-ctx.Done():
			return false
		}
	}
	addWatches()
	d.rescan()
	followTranscripts()
	if !send() {
		return nil
	}
	for {
		changed := false
		var recheck <-chan time.Time // only while a verdict waits: no idle wake-ups
		if len(d.recheck) > 0 {
			recheck = time.After(recheckEvery)
		}
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-fw.Events:
			if !ok {
				return nil
			}
			dir, base := filepath.Dir(ev.Name), filepath.Base(ev.Name)
			switch {
			case ev.Name == s.Dir || strings.HasPrefix(s.Dir, ev.Name+string(filepath.Separator)):
				// The directory (or one on the way to it) appeared or
				// went: watch what exists now, read it whole.
				addWatches()
				changed = d.rescan()
			case dir == s.Dir && IsDocName(base):
				changed = d.reload(base)
			case strings.HasSuffix(base, ".jsonl"):
				changed = d.transcriptChanged(ev.Name)
			default:
				// Perhaps a folder on the way to a transcript.
				changed = followTranscripts()
			}
		case <-fw.Errors:
			// Overflow or a vanished directory: read everything again.
			addWatches()
			changed = d.rescan()
		case <-ticker.C:
			addWatches()
			changed = d.rescan() // stats every file; re-reads only the changed ones
		case now := <-recheck:
			changed = d.recheckStopped(now)
		}
		if changed {
			// A session gone idle: its transcript is followed from now on.
			followTranscripts()
		}
		if changed && !send() {
			return nil
		}
	}
}

// Problems are the files the last observations left out, and why.
func (s *Source) Problems() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.problems
}

func (s *Source) setProblems(p []error) {
	s.mu.Lock()
	s.problems = p
	s.mu.Unlock()
}

// Record folds the file read into the session's memory of the registry
// (ObserveMono), or, when o is nil, records that the file is gone
// (Vanish).
func (s *Source) Record(rec *session.Record, o *source.Observation, now time.Time, mono int64) bool {
	if o == nil {
		if rec.Registry == nil || rec.Registry.Gone {
			return false
		}
		gone := Vanish(*rec.Registry, now)
		rec.Registry = &gone
		return true
	}
	if o.Registry == nil {
		return false
	}
	next := ObserveMono(rec.Registry, docOf(o.ID, *o.Registry), o.Registry.File, now, mono)
	changed := rec.Registry == nil || !same(*rec.Registry, next)
	rec.Registry = &next
	return changed
}

// reading is a document as an observation carries it: the file's own
// status time as At, nothing remembered. LastTurnAt carries the
// transcript's reply (Doc.RepliedAt), the last turn it saw finish.
func reading(e Entry) session.RegistryState {
	d := e.Doc
	return session.RegistryState{
		Status: d.Status, WaitingFor: d.WaitingFor, At: d.StatusAt,
		Pid: d.Pid, ProcStart: d.ProcStart, StartedAt: d.StartedAt,
		Cwd: d.Cwd, Name: d.Name, Tmux: d.Tmux, Version: d.Version, File: e.File, Entrypoint: d.Entrypoint,
		Interrupted: d.Interrupted, LastTurnAt: d.RepliedAt,
	}
}

// docOf is the document behind a reading.
func docOf(id string, r session.RegistryState) Doc {
	return Doc{
		SessionID: id, Pid: r.Pid, ProcStart: r.ProcStart, StartedAt: r.StartedAt,
		Cwd: r.Cwd, Name: r.Name, Tmux: r.Tmux, Version: r.Version,
		Status: r.Status, WaitingFor: r.WaitingFor, Entrypoint: r.Entrypoint, StatusAt: r.At,
		Interrupted: r.Interrupted, RepliedAt: r.LastTurnAt,
	}
}

// same compares two memories (times by instant: == on time.Time also
// compares locations and monotonic readings).
func same(a, b session.RegistryState) bool {
	if !a.At.Equal(b.At) || !a.LastTurnAt.Equal(b.LastTurnAt) || !a.StartedAt.Equal(b.StartedAt) {
		return false
	}
	a.At, a.LastTurnAt, a.StartedAt = b.At, b.LastTurnAt, b.StartedAt
	return a == b
}

// Pick chooses one document per session: Claude Code may leave a stale
// file of a dead process for a session it later resumed in another; the
// most recently updated one wins. Entries come sorted by file name.
func Pick(entries []Entry) map[string]Entry {
	docs := make(map[string]Entry, len(entries))
	for _, e := range entries {
		cur, ok := docs[e.Doc.SessionID]
		if !ok || e.Doc.StatusAt.After(cur.Doc.StatusAt) || (e.Doc.StatusAt.Equal(cur.Doc.StatusAt) && e.Doc.StartedAt.After(cur.Doc.StartedAt)) {
			docs[e.Doc.SessionID] = e
		}
	}
	return docs
}

// dirState is what was read of the directory: each file's document (or
// why it could not be read) and what it looked like then, so a re-list
// re-reads only the files that changed.
type dirState struct {
	dir    string
	docs   map[string]Entry         // file name → document
	stamps map[string]watchfs.Stamp // what was read (Claude Code replaces its files by rename: a new inode)
	errs   map[string]error         // file name ("" for the directory) → problem
	// recheck holds the documents whose transcript may lag their status
	// (idle said "stopped"; waiting named no tool yet), until when to read
	// the transcript again: Claude Code can write its status before the
	// turn's last entry reaches the transcript (seen on a loaded machine),
	// and a finished turn must not stay idle, a question not read as input.
	recheck map[string]time.Time
}

// recheckFor is how long a "stopped" verdict is read again, and
// recheckEvery how often.
const (
	recheckFor   = 3 * time.Second
	recheckEvery = 150 * time.Millisecond
)

func newDirState(dir string) *dirState {
	return &dirState{dir: dir, docs: map[string]Entry{}, stamps: map[string]watchfs.Stamp{}, errs: map[string]error{}, recheck: map[string]time.Time{}}
}

// waitingFor is what a wait is for, by the tool the transcript's last
// entry calls ("" for a permission or anything else).
func waitingFor(tool string) string {
	switch tool {
	case "AskUserQuestion":
		return "question"
	case "ExitPlanMode":
		return "plan approval"
	}
	return ""
}

// recheckStopped reads again the transcripts of the documents in recheck;
// it reports whether a verdict changed (the entry arrived).
func (d *dirState) recheckStopped(now time.Time) bool {
	changed := false
	for name, until := range d.recheck {
		e, ok := d.docs[name]
		if !ok || now.After(until) {
			delete(d.recheck, name)
			continue
		}
		path := TranscriptPath(filepath.Dir(d.dir), e.Doc.Cwd, e.Doc.SessionID)
		switch {
		case e.Doc.Status == "idle" && e.Doc.Interrupted:
			if v := readVerdict(path); v.known && !v.stopped {
				e.Doc.Interrupted, e.Doc.RepliedAt = false, v.replied
				d.docs[name] = e
				delete(d.recheck, name)
				changed = true
			}
		case e.Doc.Status == "waiting":
			if tool := WaitingTool(path); tool != "" {
				delete(d.recheck, name)
				if w := waitingFor(tool); w != "" && w != e.Doc.WaitingFor {
					e.Doc.WaitingFor = w
					d.docs[name] = e
					changed = true
				}
			}
		default:
			delete(d.recheck, name)
		}
	}
	return changed
}

// rescan lists the directory and re-reads the files whose stamp changed
// since they were read (all of them the first time); it reports whether
// anything changed.
func (d *dirState) rescan() bool {
	changed := false
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			changed = d.errs[""] == nil || changed
			d.errs[""] = err
		}
		entries = nil
	} else if d.errs[""] != nil {
		delete(d.errs, "")
		changed = true
	}
	present := make(map[string]bool, len(entries))
	for _, e := range entries {
		if !IsDocName(e.Name()) || e.IsDir() {
			continue
		}
		present[e.Name()] = true
		changed = d.reload(e.Name()) || changed
	}
	for name := range d.stamps {
		if !present[name] {
			changed = d.drop(name) || changed
		}
	}
	for name := range d.errs {
		if name != "" && !present[name] {
			delete(d.errs, name)
			changed = true
		}
	}
	return changed
}

// reload re-reads one file if it changed since it was read; it reports
// whether anything changed.
func (d *dirState) reload(name string) bool {
	path := filepath.Join(d.dir, name)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return d.drop(name)
	}
	if err == nil {
		if old, ok := d.stamps[name]; ok && old == watchfs.StampOf(fi) {
			return false
		}
	}
	doc, err := ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return d.drop(name)
		}
		d.errs[name] = err
		delete(d.docs, name)
		delete(d.stamps, name)
		return true
	}
	delete(d.errs, name)
	if fi != nil {
		d.stamps[name] = watchfs.StampOf(fi)
	}
	// The registry's folder is $CLAUDE_CONFIG_DIR/sessions; the transcript
	// tells a stopped turn from a finished one, and which tool a wait is
	// for (the registry says "input needed" for AskUserQuestion and
	// "permission prompt" for ExitPlanMode).
	switch doc.Status {
	case "idle":
		v := readVerdict(TranscriptPath(filepath.Dir(d.dir), doc.Cwd, doc.SessionID))
		doc.Interrupted, doc.RepliedAt = v.stopped, v.replied
		if doc.Interrupted {
			d.recheck[name] = time.Now().Add(recheckFor)
		}
	case "waiting":
		tool := WaitingTool(TranscriptPath(filepath.Dir(d.dir), doc.Cwd, doc.SessionID))
		if w := waitingFor(tool); w != "" {
			doc.WaitingFor = w
		}
		if tool == "" {
			d.recheck[name] = time.Now().Add(recheckFor) // the tool call may not be written yet
		}
	}
	d.docs[name] = Entry{File: name, Doc: doc}
	return true
}

// transcripts are the transcripts of the idle sessions: Claude Code can
// run a short turn without rewriting its registry file (no busy, no idle
// after), and only the transcript then shows it.
func (d *dirState) transcripts() []string {
	var out []string
	for _, e := range d.docs {
		if e.Doc.Status != "idle" {
			continue
		}
		if p := TranscriptPath(filepath.Dir(d.dir), e.Doc.Cwd, e.Doc.SessionID); p != "" {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// transcriptChanged reads again the transcript at path for the idle
// sessions it belongs to; it reports whether one got a new finished
// reply. Only that: the prompt of the next turn lands in the transcript
// before the registry's busy, and a turn must not read stopped meanwhile.
func (d *dirState) transcriptChanged(path string) bool {
	changed := false
	for name, e := range d.docs {
		if e.Doc.Status != "idle" || TranscriptPath(filepath.Dir(d.dir), e.Doc.Cwd, e.Doc.SessionID) != path {
			continue
		}
		v := readVerdict(path)
		if v.stopped || !v.replied.After(e.Doc.RepliedAt) {
			continue
		}
		e.Doc.Interrupted, e.Doc.RepliedAt = v.stopped, v.replied
		d.docs[name] = e
		changed = true
	}
	return changed
}

// allTranscriptsChanged is transcriptChanged for every idle session.
func (d *dirState) allTranscriptsChanged() bool {
	changed := false
	for _, p := range d.transcripts() {
		changed = d.transcriptChanged(p) || changed
	}
	return changed
}

func (d *dirState) drop(name string) bool {
	_, had := d.stamps[name]
	_, bad := d.errs[name]
	delete(d.docs, name)
	delete(d.stamps, name)
	delete(d.errs, name)
	return had || bad
}

// observations are one per session (Pick), sorted by id.
func (d *dirState) observations() []source.Observation {
	entries := make([]Entry, 0, len(d.docs))
	for _, e := range d.docs {
		entries = append(entries, e)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].File < entries[j].File })
	picked := Pick(entries)
	out := make([]source.Observation, 0, len(picked))
	for _, e := range picked {
		r := reading(e)
		out = append(out, source.Observation{ID: e.Doc.SessionID, Agent: session.AgentClaude, Registry: &r})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// problems are the files left out, by name (the directory's own first).
func (d *dirState) problems() []error {
	names := make([]string, 0, len(d.errs))
	for name := range d.errs {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]error, 0, len(names))
	for _, name := range names {
		out = append(out, d.errs[name])
	}
	return out
}

package driver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mew-dev/mew/session"
)

// RegDoc is what the driver reads of Claude Code's own session file
// ($CLAUDE_CONFIG_DIR/sessions/<pid>.json).
type RegDoc struct {
	Pid             int    `json:"pid"`
	SessionID       string `json:"sessionId"`
	Status          string `json:"status"`
	WaitingFor      string `json:"waitingFor"`
	StatusUpdatedAt int64  `json:"statusUpdatedAt"` // Unix ms, the CLI's own clock
	UpdatedAt       int64  `json:"updatedAt"`
	Version         string `json:"version"`
}

// RegChange is one observed change of a registry file.
type RegChange struct {
	At   time.Time       // when the driver saw it
	File string          // base name
	Raw  json.RawMessage // the file's content; nil when the file is gone
	Doc  *RegDoc         // parsed; nil when gone or unparsable
}

// StatusAt is when the CLI says its status changed, falling back to when the
// driver saw it; the earlier of the two is the better truth.
func (c RegChange) StatusAt() time.Time {
	if c.Doc != nil && c.Doc.StatusUpdatedAt > 0 {
		t := time.UnixMilli(c.Doc.StatusUpdatedAt)
		if t.Before(c.At) {
			return t
		}
	}
	return c.At
}

func (c RegChange) String() string {
	switch {
	case c.Raw == nil:
		return c.File + " gone"
	case c.Doc == nil:
		return c.File + " unparsable"
	case c.Doc.Status == "":
		return "(no status yet)"
	case c.Doc.WaitingFor != "":
		return fmt.Sprintf("%s (%s)", c.Doc.Status, c.Doc.WaitingFor)
	}
	return c.Doc.Status
}

// Snap is one screen capture.
type Snap struct {
	At   time.Time
	Text string
}

// Sample is one run of `mew status --json`, or what the long-running
// `mew status --watch --json` had last printed at one instant (Start = End).
type Sample struct {
	Start, End time.Time
	Sessions   []session.Shown
	Err        string
	// Mode is ModeOnce or ModeWatch.
	Mode string
}

// The two ways Mew is sampled; every check judges both.
const (
	ModeOnce  = "once"  // `mew status --json`, one process per sample
	ModeWatch = "watch" // one `mew status --watch --json` for the run
)

// Find returns the session with id, or with any id when id is "" and Mew
// lists exactly one.
func (s Sample) Find(id string) (session.Shown, bool) {
	for _, sh := range s.Sessions {
		if sh.ID == id || (id == "" && len(s.Sessions) == 1) {
			return sh, true
		}
	}
	return session.Shown{}, false
}

// recorder holds everything observed during a run, behind one lock.
type recorder struct {
	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every new observation
	reg     []RegChange
	screens []Snap
	samples []Sample // one-shot `mew status --json`
	watched []Sample // the long-running `mew status --watch --json`
	// primaryWatch: Samples returns watched (Options.MewWatch).
	primaryWatch bool
	lastWatch    string
	hooks        []HookSeen
	rollout      []RolloutEvent
	tl           *Timeline
	lastMew      string
	mewID        func() string
	onReg        func(RegChange)
}

func newRecorder(tl *Timeline) *recorder {
	return &recorder{changed: make(chan struct{}), tl: tl}
}

// notify wakes every waiter; the caller holds mu.
func (r *recorder) notify() {
	close(r.changed)
	r.changed = make(chan struct{})
}

// wait blocks until something new is observed or ctx ends.
func (r *recorder) wait(ctx context.Context) error {
	r.mu.Lock()
	ch := r.changed
	r.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pollRegistry reads dir every interval and records each file's changes.
func (r *recorder) pollRegistry(ctx context.Context, dir string, interval time.Duration, screen func() string) {
	last := map[string][]byte{}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		seen := map[string]bool{}
		for _, p := range names {
			b, err := os.ReadFile(p)
			if err != nil || len(b) == 0 {
				continue
			}
			base := filepath.Base(p)
			seen[base] = true
			if bytes.Equal(last[base], b) {
				continue
			}
			if !json.Valid(b) {
				continue // half-written: the next poll sees the whole file
			}
			last[base] = b
			c := RegChange{At: time.Now(), File: base, Raw: append(json.RawMessage(nil), b...)}
			var d RegDoc
			if json.Unmarshal(b, &d) == nil {
				c.Doc = &d
			}
			r.addReg(c, screen)
		}
		for base := range last {
			if !seen[base] {
				delete(last, base)
				r.addReg(RegChange{At: time.Now(), File: base}, screen)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (r *recorder) addReg(c RegChange, screen func() string) {
	if r.onReg != nil {
		r.onReg(c)
	}
	r.mu.Lock()
	prev := ""
	if n := len(r.reg); n > 0 {
		prev = r.reg[n-1].String()
	}
	r.reg = append(r.reg, c)
	r.notify()
	r.mu.Unlock()
	// Only status changes go into the timeline (updatedAt alone changes
	// often), each with what the screen showed then.
	if s := c.String(); s != prev {
		e := Entry{At: c.At, Source: "registry", Text: s}
		if c.Doc != nil && c.Doc.StatusUpdatedAt > 0 {
			e.Text += fmt.Sprintf("  [statusUpdatedAt %s]", r.tl.Rel(time.UnixMilli(c.Doc.StatusUpdatedAt)))
		}
		e.Detail = Excerpt(screen(), 6)
		r.tl.Add(e)
	}
}

// sampleScreen captures the pane every interval and keeps each change.
func (r *recorder) sampleScreen(ctx context.Context, t *Tmux, interval time.Duration) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		if text, err := t.Capture(); err == nil {
			now := time.Now()
			r.mu.Lock()
			if n := len(r.screens); n == 0 || r.screens[n-1].Text != text {
				r.screens = append(r.screens, Snap{At: now, Text: text})
				r.notify()
			}
			r.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// latestScreen is the newest capture's text.
func (r *recorder) latestScreen() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.screens); n > 0 {
		return r.screens[n-1].Text
	}
	return ""
}

// sampleMew runs `mew status --json` every interval (never two at once).
func (r *recorder) sampleMew(ctx context.Context, mew string, env []string, interval time.Duration) {
	for {
		start := time.Now()
		s := runStatus(ctx, mew, env)
		if ctx.Err() != nil {
			return
		}
		s.Mode = ModeOnce
		r.addSample(s)
		next := start.Add(interval)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(next)):
		}
	}
}

// watchMew runs one `mew status --watch --json --feed` for the whole run
// and turns what it last printed into a sample every interval: the
// watcher's view at that instant.
func (r *recorder) watchMew(ctx context.Context, mew string, env []string, interval time.Duration) {
	c := exec.CommandContext(ctx, mew, "status", "--watch", "--json", "--feed")
	c.Env = env
	out, err := c.StdoutPipe()
	if err != nil {
		r.addSample(Sample{Start: time.Now(), End: time.Now(), Err: err.Error(), Mode: ModeWatch})
		return
	}
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Start(); err != nil {
		r.addSample(Sample{Start: time.Now(), End: time.Now(), Err: err.Error(), Mode: ModeWatch})
		return
	}
	var mu sync.Mutex
	var latest []session.Shown
	seen := false
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var line struct {
				Sessions *[]session.Shown `json:"sessions"`
			}
			if json.Unmarshal(sc.Bytes(), &line) != nil || line.Sessions == nil {
				continue // a heartbeat ({"at": …}) or not a list
			}
			mu.Lock()
			latest, seen = *line.Sessions, true
			mu.Unlock()
		}
	}()
	defer c.Wait()
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
		mu.Lock()
		s := Sample{Start: time.Now(), Sessions: latest, Mode: ModeWatch}
		ok := seen
		mu.Unlock()
		s.End = s.Start
		if !ok {
			s.Err = "no list from mew status --watch yet"
		}
		r.addSample(s)
	}
}

func runStatus(ctx context.Context, mew string, env []string) Sample {
	s := Sample{Start: time.Now()}
	var stderr bytes.Buffer
	c := exec.CommandContext(ctx, mew, "status", "--json")
	c.Env = env
	c.Stderr = &stderr
	out, err := c.Output()
	s.End = time.Now()
	if err != nil {
		s.Err = fmt.Sprintf("%v: %s", err, strings.TrimSpace(stderr.String()))
		return s
	}
	if err := json.Unmarshal(out, &s.Sessions); err != nil {
		s.Err = "mew status --json printed no JSON array: " + err.Error()
	}
	return s
}

func (r *recorder) addSample(s Sample) {
	id := ""
	if r.mewID != nil {
		id = r.mewID()
	}
	desc := describe(s, id) + "  " + RowsString(s)
	r.mu.Lock()
	last, source := &r.lastMew, "mew"
	if s.Mode == ModeWatch {
		r.watched = append(r.watched, s)
		last, source = &r.lastWatch, "mew-watch"
	} else {
		r.samples = append(r.samples, s)
	}
	changed := desc != *last
	*last = desc
	r.notify()
	r.mu.Unlock()
	if changed {
		r.tl.Add(Entry{At: s.End, Source: source, Text: desc})
	}
}

// byMode is every mode's samples; the caller holds mu.
func (r *recorder) byMode() map[string][]Sample {
	return map[string][]Sample{ModeOnce: r.samples, ModeWatch: r.watched}
}

// describe is one sample as the timeline shows it.
func describe(s Sample, id string) string {
	if s.Err != "" {
		return "error: " + s.Err
	}
	sh, ok := s.Find(id)
	if !ok {
		if len(s.Sessions) == 0 {
			return "(no session listed)"
		}
		return fmt.Sprintf("(%d sessions, none is this one)", len(s.Sessions))
	}
	return ShownString(sh)
}

// ShownString is a compact form of Mew's view of a session.
func ShownString(sh session.Shown) string {
	s := string(sh.State)
	if sh.Reason != "" {
		s += "(" + string(sh.Reason) + ")"
	}
	return s + " by " + sh.Source
}

// sortedReg returns registry changes in time order.
func sortedReg(in []RegChange) []RegChange {
	out := append([]RegChange(nil), in...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}

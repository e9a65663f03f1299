package remote

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// Conn is one running feed of a host: its lines, and how to end it.
type Conn struct {
	Out io.Reader
	// Close ends the connection (ssh is stopped); Wait returns once it has
	// ended, with the reason when it failed.
	Close func()
	Wait  func() error
}

// Options configure a Hub. Zero durations take the defaults.
type Options struct {
	Remotes []Remote
	// Dial starts the feed of one host; DialSSH runs the person's ssh.
	Dial func(ctx context.Context, r Remote) (Conn, error)
	// CacheDir keeps each host's last list (CacheDir(mewHome)), so a host
	// that is offline when Mew starts still shows its sessions, greyed;
	// "" keeps nothing.
	CacheDir string
	Now      func() time.Time
	// Silence: no line (not even a heartbeat) for this long and the
	// connection is taken for dead.
	Silence time.Duration
	// FirstLine bounds the wait for a new connection's first line (the
	// ssh handshake and the host's mew starting).
	FirstLine time.Duration
	// Grace: after a connection that worked ends, its host stays online
	// this long while Mew reconnects, so a quick reconnect does not grey
	// the board for a moment. A failed attempt ends it at once.
	Grace time.Duration
	// MinBackoff and MaxBackoff bound the wait before a reconnect; it
	// doubles after each attempt that got no list, and starts over after
	// one that did.
	MinBackoff, MaxBackoff time.Duration
	// CacheEvery: a host's list is written to CacheDir at most this often
	// while it changes (a host whose list changes all the time rewrote the
	// file at every change), and at once when the host is lost.
	CacheEvery time.Duration
}

// Defaults of Options.
const (
	DefaultSilence    = 3500 * time.Millisecond // 3.5 missed heartbeats
	DefaultFirstLine  = 20 * time.Second
	DefaultGrace      = 1500 * time.Millisecond
	DefaultMinBackoff = 500 * time.Millisecond
	DefaultMaxBackoff = 15 * time.Second
	DefaultCacheEvery = 5 * time.Second
	// maxSessions bounds what one host may list: a line with more ends
	// the connection.
	maxSessions = 1000
	// maxSessionBytes bounds one session of the feed. A host's texts are
	// 400 runes at most (reducer), so a real session is a few KiB.
	maxSessionBytes = 32 << 10
	// maxLine bounds one line of the feed. A list is decoded one session
	// at a time and stops at maxSessions, so what a hostile host can make
	// this machine hold is about one line plus maxSessions small sessions,
	// never the gigabytes a line of a million "{}" would decode into.
	maxLine = 4 << 20
)

func (o *Options) defaults() {
	set := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	set(&o.Silence, DefaultSilence)
	set(&o.FirstLine, DefaultFirstLine)
	set(&o.Grace, DefaultGrace)
	set(&o.MinBackoff, DefaultMinBackoff)
	set(&o.MaxBackoff, DefaultMaxBackoff)
	set(&o.CacheEvery, DefaultCacheEvery)
	if o.Now == nil {
		o.Now = time.Now
	}
}

// Link is how Mew is connected to a host.
type Link string

const (
	Connecting   Link = "connecting"   // not reached since Mew started
	Online       Link = "online"       // the feed runs
	Reconnecting Link = "reconnecting" // the feed ended a moment ago; shown as online during the grace
	Offline      Link = "offline"      // cannot be reached: sessions greyed, last seen LastSeen
)

// HostStatus is one host as the hub sees it.
type HostStatus struct {
	Name, Host string
	Link       Link
	LastSeen   time.Time // the last line from the host (or the cached list's time)
	Why        string    // why the last connection ended or failed
	Version    string    // the host's mew build
	Sessions   int
	// Dropped counts sessions of the last list that were left out (bad
	// or repeated ids).
	Dropped int
}

type hostState struct {
	HostStatus
	remote   Remote
	sessions []session.Shown // Host set, Since on this machine's clock
	gen      int             // bumped at every change of Link, for the grace timer
	// cachedAt is when the list was last written to the cache; pending
	// is the write waiting for CacheEvery to pass since.
	cachedAt time.Time
	pending  *time.Timer
}

// Hub follows every remote. Run it, read Sessions after each signal on
// Changes.
type Hub struct {
	o       Options
	mu      sync.Mutex
	hosts   []*hostState
	changes chan struct{}
	// writing serializes cache writes of one host (they happen off mu).
	writing sync.Mutex
}

// New returns a hub for o.Remotes, with each host's cached list (shown as
// offline until the host answers).
func New(o Options) *Hub {
	o.defaults()
	h := &Hub{o: o, changes: make(chan struct{}, 1)}
	rs := slices.Clone(o.Remotes)
	slices.SortFunc(rs, func(a, b Remote) int { return compareStrings(a.Name, b.Name) })
	for _, r := range rs {
		hs := &hostState{remote: r, HostStatus: HostStatus{Name: r.Name, Host: r.Host, Link: Connecting}}
		if c, ok := h.readCache(r.Name); ok {
			hs.sessions, hs.LastSeen = c.Sessions, c.LastSeen
			hs.Sessions = len(c.Sessions)
		}
		h.hosts = append(h.hosts, hs)
	}
	return h
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Changes gets a signal whenever Sessions or Hosts may have changed
// (signals coalesce: read Sessions after each).
func (h *Hub) Changes() <-chan struct{} { return h.changes }

func (h *Hub) notify() {
	select {
	case h.changes <- struct{}{}:
	default:
	}
}

// Sessions is every host's latest list, hosts by name: each session with
// Host set, and Offline and LastSeen while its host cannot be reached (or
// has not answered yet since Mew started).
func (h *Hub) Sessions() []session.Shown {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []session.Shown
	for _, hs := range h.hosts {
		stale := hs.Link == Offline || hs.Link == Connecting
		for _, s := range hs.sessions {
			if stale {
				s.Offline, s.LastSeen = true, hs.LastSeen
			}
			out = append(out, s)
		}
	}
	return out
}

// Hosts is the status of every host, by name.
func (h *Hub) Hosts() []HostStatus {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]HostStatus, len(h.hosts))
	for i, hs := range h.hosts {
		out[i] = hs.HostStatus
	}
	return out
}

// Run follows every host until ctx ends: one feed each, reconnecting with
// backoff.
func (h *Hub) Run(ctx context.Context) {
	h.eachHost(func(hs *hostState) { h.follow(ctx, hs) })
	// A write held back by CacheEvery is made now: the next Mew starts
	// from the last list seen.
	for _, hs := range h.hosts {
		h.mu.Lock()
		held := hs.pending != nil
		if held {
			h.cacheNow(hs)
		}
		h.mu.Unlock()
		if held {
			h.writeCache(hs)
		}
	}
}

// Once asks every host for its list once, at the same time, and returns
// when each has answered or failed (or ctx ends): what a one-shot `mew
// status` shows.
func (h *Hub) Once(ctx context.Context) {
	h.eachHost(func(hs *hostState) {
		if !h.attempt(ctx, hs, true) && ctx.Err() != nil {
			h.lost(hs, "no answer in time", true)
		}
	})
}

// eachHost runs f for every host at the same time and returns when all
// have returned.
func (h *Hub) eachHost(f func(*hostState)) {
	var wg sync.WaitGroup
	for _, hs := range h.hosts {
		wg.Go(func() { f(hs) })
	}
	wg.Wait()
}

func (h *Hub) follow(ctx context.Context, hs *hostState) {
	backoff := h.o.MinBackoff
	for ctx.Err() == nil {
		got := h.attempt(ctx, hs, false)
		if got {
			backoff = h.o.MinBackoff
		}
		// Jitter: hosts behind one failing link don't retry in step.
		wait := backoff/2 + rand.N(backoff/2+1)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		if !got {
			backoff = min(2*backoff, h.o.MaxBackoff)
		}
	}
}

type lineOrErr struct {
	line Line
	at   time.Time
	err  error
}

// attempt runs one connection until it ends (or, with once, until its
// first list), and reports whether a list came.
func (h *Hub) attempt(ctx context.Context, hs *hostState, once bool) (got bool) {
	conn, err := h.o.Dial(ctx, hs.remote)
	if err != nil {
		h.lost(hs, err.Error(), true)
		return false
	}
	lines := make(chan lineOrErr)
	readDone := make(chan struct{})
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(conn.Out)
		sc.Buffer(make([]byte, 64<<10), maxLine)
		for sc.Scan() {
			var le lineOrErr
			le.at = h.o.Now()
			if err := decodeLine(sc.Bytes(), &le.line); err != nil {
				le.err = fmt.Errorf("the host sent something that is not Mew's feed: %v", err)
			}
			select {
			case lines <- le:
			case <-readDone:
				return
			}
			if le.err != nil {
				return
			}
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				err = fmt.Errorf("the host sent a line of more than %d MiB", maxLine>>20)
			}
			select {
			case lines <- lineOrErr{err: fmt.Errorf("reading the feed: %v", err)}:
			case <-readDone:
			}
		}
	}()
	end := func() error {
		close(readDone)
		conn.Close()
		return conn.Wait()
	}
	timer := time.NewTimer(h.o.FirstLine)
	defer timer.Stop()
	first := true
	var skew time.Duration
	for {
		select {
		case <-ctx.Done():
			end()
			return got
		case <-timer.C:
			end()
			if first {
				h.lost(hs, fmt.Sprintf("no answer within %v", h.o.FirstLine), true)
			} else {
				h.lost(hs, fmt.Sprintf("no word from the host for %v", h.o.Silence), true)
			}
			return got
		case le, ok := <-lines:
			if !ok || le.err != nil {
				why := end()
				msg := "the connection ended"
				switch {
				case le.err != nil:
					msg = le.err.Error()
				case why != nil:
					msg = why.Error()
				}
				h.lost(hs, msg, !got)
				return got
			}
			timer.Reset(h.o.Silence)
			if first {
				first = false
				if le.line.Feed != FeedVersion || le.line.Sessions == nil {
					end()
					h.lost(hs, fmt.Sprintf("the host's mew speaks feed version %d, this one %d: install the same Mew on both", le.line.Feed, FeedVersion), true)
					return got
				}
				// Ages are shown on this machine's clock: a host whose
				// clock is off gets its times moved by the difference
				// (network delay aside, which is why small ones stay).
				if d := le.at.Sub(le.line.At); d > time.Second || d < -time.Second {
					skew = d
				}
			}
			if le.line.Sessions != nil {
				got = true
			}
			h.seen(hs, le.line, le.at, skew)
			if once && got {
				end()
				return got
			}
		}
	}
}

// decodeLine decodes one line of the feed into l. Its list is read one
// session at a time: a host that lists more than maxSessions, or one
// session of more than maxSessionBytes, is refused before the rest is
// decoded.
func decodeLine(b []byte, l *Line) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		switch key {
		case "feed":
			err = dec.Decode(&l.Feed)
		case "version":
			err = dec.Decode(&l.Version)
		case "at":
			err = dec.Decode(&l.At)
		case "sessions":
			err = decodeSessions(dec, l)
		default: // errors (shown by the host's own mew), and anything newer
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one value on a line")
	}
	return nil
}

func decodeSessions(dec *json.Decoder, l *Line) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		l.Sessions = nil // null: a heartbeat, as when absent
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return fmt.Errorf("not a list")
	}
	list := []session.Shown{}
	for dec.More() {
		if len(list) == maxSessions {
			return fmt.Errorf("more than %d sessions", maxSessions)
		}
		start := dec.InputOffset()
		var s session.Shown
		if err := dec.Decode(&s); err != nil {
			return err
		}
		if dec.InputOffset()-start > maxSessionBytes {
			return fmt.Errorf("a session of more than %d KiB", maxSessionBytes>>10)
		}
		list = append(list, s)
	}
	l.Sessions = &list
	return expectDelim(dec, ']')
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("expected %q, got %v", want, tok)
	}
	return nil
}

// seen folds one line into the host's state.
func (h *Hub) seen(hs *hostState, l Line, at time.Time, skew time.Duration) {
	h.mu.Lock()
	hs.LastSeen = at
	if l.Version != "" {
		hs.Version = l.Version
	}
	if l.Sessions == nil && hs.Link == Online {
		h.mu.Unlock()
		return // a heartbeat: nothing to show
	}
	changed := hs.Link != Online
	if changed {
		hs.Link, hs.Why = Online, ""
		hs.gen++
	}
	if l.Sessions != nil {
		list, dropped := normalize(*l.Sessions, hs.remote.Name, skew, at)
		if !reflect.DeepEqual(list, hs.sessions) {
			hs.sessions, changed = list, true
		}
		hs.Sessions, hs.Dropped = len(list), dropped
	}
	write := false
	if changed {
		write = h.cacheSoon(hs)
	}
	h.mu.Unlock()
	if write {
		h.writeCache(hs)
	}
	if changed {
		h.notify()
	}
}

// cacheSoon (under mu) arranges for the host's list to be cached: now
// (the caller writes, when it returns true) if the last write is
// CacheEvery old, else once it is, with the list as it is then.
func (h *Hub) cacheSoon(hs *hostState) bool {
	if hs.pending != nil {
		return false // the pending write takes the latest list
	}
	wait := h.o.CacheEvery - h.o.Now().Sub(hs.cachedAt)
	if wait <= 0 {
		hs.cachedAt = h.o.Now()
		return true
	}
	hs.pending = time.AfterFunc(wait, func() {
		h.mu.Lock()
		if hs.pending == nil {
			h.mu.Unlock()
			return // cacheNow wrote it meanwhile
		}
		hs.pending, hs.cachedAt = nil, h.o.Now()
		h.mu.Unlock()
		h.writeCache(hs)
	})
	return false
}

// cacheNow (under mu) takes over a pending write: the caller writes now.
func (h *Hub) cacheNow(hs *hostState) {
	if hs.pending != nil {
		hs.pending.Stop()
		hs.pending = nil
	}
	hs.cachedAt = h.o.Now()
}

// lost records that a connection ended or could not be made. A host that
// was online stays so for the grace time unless now is set (the
// connection is known bad: silent, refused, or never worked).
func (h *Hub) lost(hs *hostState, why string, now bool) {
	h.mu.Lock()
	if why != "" {
		hs.Why = why
	}
	switch {
	case hs.Link == Online && !now:
		hs.Link = Reconnecting
		hs.gen++
		gen := hs.gen
		time.AfterFunc(h.o.Grace, func() {
			h.mu.Lock()
			expired := hs.gen == gen && hs.Link == Reconnecting
			if expired {
				hs.Link = Offline
				hs.gen++
				h.cacheNow(hs)
			}
			h.mu.Unlock()
			if expired {
				h.writeCache(hs)
				h.notify()
			}
		})
		h.mu.Unlock()
		return
	case hs.Link == Offline:
		h.mu.Unlock()
		return
	}
	// A host not reached since Mew started has nothing newer than its
	// cache to write.
	write := hs.Link != Connecting
	hs.Link = Offline
	hs.gen++
	if write {
		h.cacheNow(hs)
	}
	h.mu.Unlock()
	if write {
		h.writeCache(hs)
	}
	h.notify()
}

// normalize makes a host's list safe to merge: valid ids only, each once,
// at most maxSessions; Host set to the remote's name (whatever the host
// said), times moved by skew and clamped (clampSince).
func normalize(in []session.Shown, name string, skew time.Duration, now time.Time) ([]session.Shown, int) {
	out := make([]session.Shown, 0, len(in))
	seen := make(map[string]bool, len(in))
	dropped := 0
	for _, s := range in {
		if !session.ValidID(s.ID) || seen[s.ID] || len(out) >= maxSessions {
			dropped++
			continue
		}
		seen[s.ID] = true
		cleanFields(&s)
		s.Host, s.Offline, s.LastSeen = name, false, time.Time{}
		if skew != 0 && !s.Since.IsZero() {
			s.Since = s.Since.Add(skew)
		}
		s.Since = clampSince(s.Since, now)
		out = append(out, s)
	}
	return out, dropped
}

// clampSince keeps a host's time between the Unix epoch and now (this
// machine's): a host whose clock says year 1 or 9999 (the skew is then
// absurd too, and only saturates) would otherwise make times no JSON can
// hold, and `mew status --json` would fail for every session, this
// machine's included. A time before the epoch is unknown (zero); one
// after now is now.
func clampSince(t, now time.Time) time.Time {
	switch {
	case t.IsZero():
		return t
	case t.Before(time.Unix(0, 0)):
		return time.Time{}
	case t.After(now):
		return now.UTC()
	}
	return t.UTC()
}

// maxField bounds each text field a host sends.
const maxField = 2000

// cleanFields makes every text a host sent one line of printable text:
// what this machine prints and draws of it can neither repaint a terminal
// nor disguise itself (see internal/text).
func cleanFields(s *session.Shown) {
	for _, f := range []*string{&s.Agent, &s.Source, &s.Cwd, &s.Title, &s.Tool, &s.ToolDetail, &s.LastMessage, &s.Tty, &s.Tmux, &s.Terminal, &s.TerminalPane, &s.TerminalTitle} {
		*f = text.OneLine(*f, maxField)
	}
	s.State = session.State(text.OneLine(string(s.State), 32))
	s.Reason = session.Reason(text.OneLine(string(s.Reason), 32))
	s.AnswerVia = text.OneLine(s.AnswerVia, 32)
	// Choices are drawn as buttons and keys 1-9: each once, in range.
	var choices []session.Choice
	seen := map[int]bool{}
	for _, c := range s.Choices {
		if c.N >= 1 && c.N <= 9 && !seen[c.N] {
			seen[c.N] = true
			choices = append(choices, session.Choice{N: c.N, Label: text.OneLine(c.Label, MaxLabel)})
		}
	}
	s.Choices = choices
}

// MaxLabel bounds a choice's label from another machine.
const MaxLabel = 200

// cached is a host's file in CacheDir.
type cached struct {
	LastSeen time.Time       `json:"last_seen"`
	Sessions []session.Shown `json:"sessions"`
}

func (h *Hub) cachePath(name string) string {
	if h.o.CacheDir == "" || !ValidName(name) {
		return ""
	}
	return filepath.Join(h.o.CacheDir, name+".json")
}

func (h *Hub) readCache(name string) (cached, bool) {
	p := h.cachePath(name)
	if p == "" {
		return cached{}, false
	}
	// Mew writes at most a list of maxSessions; more is not its cache.
	data, err := privfile.Read(p, 2*maxLine)
	if err != nil {
		return cached{}, false
	}
	var c cached
	if json.Unmarshal(data, &c) != nil || c.LastSeen.IsZero() {
		return cached{}, false // a damaged cache is only a cache
	}
	now := h.o.Now()
	c.Sessions, _ = normalize(c.Sessions, name, 0, now)
	if c.LastSeen.After(now) {
		c.LastSeen = now
	}
	return c, true
}

// writeCache writes the host's list as it is now. The list is taken
// under the write lock: of two writes at once, the last one written holds
// the latest list.
func (h *Hub) writeCache(hs *hostState) {
	p := h.cachePath(hs.remote.Name)
	if p == "" {
		return
	}
	h.writing.Lock()
	defer h.writing.Unlock()
	h.mu.Lock()
	c := cached{LastSeen: hs.LastSeen, Sessions: hs.sessions}
	h.mu.Unlock()
	if c.LastSeen.IsZero() {
		return
	}
	if c.Sessions == nil {
		c.Sessions = []session.Shown{}
	}
	data, err := json.Marshal(c)
	if err != nil {
		return
	}
	if err := os.MkdirAll(h.o.CacheDir, dirMode); err != nil {
		return
	}
	store.WriteFileAtomic(p, data, fileMode) // best effort: the live list is in memory
}

// RemoveCache deletes the cached list of a remote (`mew remote rm`).
func RemoveCache(mewHome, name string) error {
	if !ValidName(name) {
		return errors.New("not a remote name")
	}
	err := os.Remove(filepath.Join(CacheDir(mewHome), name+".json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// Find returns the session with id (as Sessions lists it) and the remote
// it runs on.
func (h *Hub) Find(id string) (session.Shown, Remote, bool) {
	for _, s := range h.Sessions() {
		if s.ID != id {
			continue
		}
		for _, r := range h.o.Remotes {
			if r.Name == s.Host {
				return s, r, true
			}
		}
	}
	return session.Shown{}, Remote{}, false
}

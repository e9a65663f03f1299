package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// fakeLink stands in for ssh: each Dial makes a fakeConn the test writes
// lines into, or fails while refuse is set.
type fakeLink struct {
	mu     sync.Mutex
	refuse error
	dials  int
	conns  chan *fakeConn
}

type fakeConn struct {
	w      *io.PipeWriter
	closed chan struct{}
	once   sync.Once
}

func newLink() *fakeLink { return &fakeLink{conns: make(chan *fakeConn, 64)} }

func (l *fakeLink) dial(ctx context.Context, r Remote) (Conn, error) {
	l.mu.Lock()
	l.dials++
	refuse := l.refuse
	l.mu.Unlock()
	if refuse != nil {
		return Conn{}, refuse
	}
	pr, pw := io.Pipe()
	c := &fakeConn{w: pw, closed: make(chan struct{})}
	l.conns <- c
	return Conn{
		Out:   pr,
		Close: func() { c.hangup(); pr.Close() },
		Wait: func() error {
			<-c.closed
			return errors.New("ssh: connection closed")
		},
	}, nil
}

func (l *fakeLink) setRefuse(err error) {
	l.mu.Lock()
	l.refuse = err
	l.mu.Unlock()
}

func (l *fakeLink) next(t *testing.T) *fakeConn {
	t.Helper()
	select {
	case c := <-l.conns:
		return c
	case <-time.After(5 * time.Second):
		t.Fatal("the hub did not connect")
		return nil
	}
}

func (c *fakeConn) hangup() {
	c.once.Do(func() {
		c.w.Close()
		close(c.closed)
	})
}

func (c *fakeConn) send(t *testing.T, l Line) {
	t.Helper()
	b, _ := json.Marshal(l)
	if _, err := c.w.Write(append(b, '\n')); err != nil {
		t.Fatalf("the hub stopped reading: %v", err)
	}
}

func snapshot(at time.Time, first bool, sessions ...session.Shown) Line {
	l := Line{At: at, Sessions: &sessions}
	if first {
		l.Feed, l.Version = FeedVersion, "v-test"
	}
	return l
}

func shown(id string, st session.State) session.Shown {
	return session.Shown{ID: id, State: st, Since: t0, Agent: "claude", Cwd: "/src/" + id}
}

// hubFor starts a hub on one fake host and stops it with the test.
func hubFor(t *testing.T, link *fakeLink, o Options) *Hub {
	t.Helper()
	o.Remotes = []Remote{{Name: "box", Host: "box"}}
	o.Dial = link.dial
	if o.Silence == 0 {
		o.Silence = time.Hour // the tests that want silence set it
	}
	if o.Grace == 0 {
		o.Grace = 200 * time.Millisecond
	}
	o.MinBackoff, o.MaxBackoff = 5*time.Millisecond, 20*time.Millisecond
	h := New(o)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return h
}

// waitFor waits for the hub's sessions (and hosts) to satisfy ok.
func waitFor(t *testing.T, h *Hub, what string, ok func([]session.Shown, HostStatus) bool) []session.Shown {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		s, hs := h.Sessions(), h.Hosts()[0]
		if ok(s, hs) {
			return s
		}
		select {
		case <-h.Changes():
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("never: %s; sessions %+v, host %+v", what, s, hs)
		}
	}
}

func TestHubFollowsTheFeed(t *testing.T) {
	link := newLink()
	h := hubFor(t, link, Options{})
	c := link.next(t)
	c.send(t, snapshot(time.Now(), true, shown("s1", session.Working), shown("s2", session.Done)))
	got := waitFor(t, h, "two sessions online", func(s []session.Shown, hs HostStatus) bool { return len(s) == 2 && hs.Link == Online })
	for _, s := range got {
		if s.Host != "box" || s.Offline || !s.LastSeen.IsZero() {
			t.Errorf("session %+v: want host box, online, no last-seen", s)
		}
	}
	if v := h.Hosts()[0].Version; v != "v-test" {
		t.Errorf("version %q", v)
	}
	// A change replaces the list: nothing kept from the old one.
	c.send(t, snapshot(time.Now(), false, shown("s2", session.Waiting)))
	waitFor(t, h, "s1 gone, s2 waiting", func(s []session.Shown, _ HostStatus) bool {
		return len(s) == 1 && s[0].ID == "s2" && s[0].State == session.Waiting
	})
	// A heartbeat changes nothing and signals nothing.
	drain(h)
	c.send(t, Line{At: time.Now()})
	select {
	case <-h.Changes():
		t.Error("a heartbeat signalled a change")
	case <-time.After(50 * time.Millisecond):
	}
}

func drain(h *Hub) {
	for {
		select {
		case <-h.Changes():
		default:
			return
		}
	}
}

// The host says whatever it likes; the hub keeps valid ids, each once,
// with the remote's name as host.
func TestHubNormalizesWhatTheHostSends(t *testing.T) {
	link := newLink()
	h := hubFor(t, link, Options{})
	c := link.next(t)
	evil := shown("ok-1", session.Waiting)
	evil.Host, evil.Offline = "elsewhere", true
	evil.Title, evil.Cwd = "\x1b]0;owned\x07fix\nthe api", "/srv/\x1b[2Japi"
	evil.LastMessage = strings.Repeat("x", 10000)
	evil.AnswerVia = "tmux\x1b[2J"
	evil.Choices = []session.Choice{{N: 1, Label: "Yes\x1b]0;x\x07"}, {N: 1, Label: "again"}, {N: 0, Label: "zero"}, {N: 12, Label: "twelve"}, {N: 2, Label: strings.Repeat("n", 1000)}}
	c.send(t, snapshot(time.Now(), true, evil, shown("../etc/passwd", session.Done), shown("ok-1", session.Done), shown("", session.Idle), shown("ok-2", session.Idle)))
	got := waitFor(t, h, "online", func(s []session.Shown, hs HostStatus) bool { return hs.Link == Online })
	if len(got) != 2 || got[0].ID != "ok-1" || got[0].State != session.Waiting || got[1].ID != "ok-2" {
		t.Fatalf("sessions %+v", got)
	}
	if got[0].Host != "box" || got[0].Offline {
		t.Errorf("the host's own host/offline fields were kept: %+v", got[0])
	}
	if strings.ContainsAny(got[0].Title+got[0].Cwd, "\x1b\x07\n") || got[0].Title != "]0;owned fix the api" || len([]rune(got[0].LastMessage)) > 2000 {
		t.Errorf("text from the host not made safe: title %q cwd %q, message of %d runes", got[0].Title, got[0].Cwd, len([]rune(got[0].LastMessage)))
	}
	if ch := got[0].Choices; len(ch) != 2 || ch[0].N != 1 || strings.ContainsAny(ch[0].Label, "\x1b\x07") || !strings.HasPrefix(ch[0].Label, "Yes") || ch[1].N != 2 || len([]rune(ch[1].Label)) > MaxLabel {
		t.Errorf("choices from the host not made safe (one each of 1-9, plain labels): %+v", ch)
	}
	if strings.ContainsRune(got[0].AnswerVia, '\x1b') {
		t.Errorf("answer via %q", got[0].AnswerVia)
	}
	if d := h.Hosts()[0].Dropped; d != 3 {
		t.Errorf("dropped %d, want 3", d)
	}
}

// A quick reconnect keeps the host online (no grey flash) and the list is
// replaced, never doubled; a reconnect that fails makes it offline at
// once, with its sessions kept and greyed; it comes back when the host
// does.
func TestHubReconnects(t *testing.T) {
	link := newLink()
	h := hubFor(t, link, Options{Grace: time.Hour})
	c := link.next(t)
	c.send(t, snapshot(time.Now(), true, shown("s1", session.Waiting)))
	waitFor(t, h, "online", func(s []session.Shown, hs HostStatus) bool { return hs.Link == Online })

	c.hangup()
	c = link.next(t)
	if hs := h.Hosts()[0]; hs.Link != Reconnecting {
		t.Errorf("link %s after a hang-up, want reconnecting", hs.Link)
	}
	for _, s := range h.Sessions() {
		if s.Offline {
			t.Errorf("greyed during the grace: %+v", s)
		}
	}
	c.send(t, snapshot(time.Now(), true, shown("s1", session.Waiting)))
	got := waitFor(t, h, "online again", func(s []session.Shown, hs HostStatus) bool { return hs.Link == Online })
	if len(got) != 1 {
		t.Fatalf("after a reconnect: %+v", got)
	}

	link.setRefuse(errors.New("ssh: connect to host box port 22: Connection refused"))
	c.hangup()
	got = waitFor(t, h, "offline", func(s []session.Shown, hs HostStatus) bool { return hs.Link == Offline })
	if len(got) != 1 || !got[0].Offline || got[0].LastSeen.IsZero() || got[0].State != session.Waiting {
		t.Fatalf("offline sessions %+v: want s1 kept, waiting, offline, with last seen", got)
	}
	if why := h.Hosts()[0].Why; why != "ssh: connect to host box port 22: Connection refused" {
		t.Errorf("why %q", why)
	}

	link.setRefuse(nil)
	c = link.next(t)
	c.send(t, snapshot(time.Now(), true, shown("s1", session.Done)))
	got = waitFor(t, h, "back", func(s []session.Shown, hs HostStatus) bool { return hs.Link == Online })
	if len(got) != 1 || got[0].Offline || got[0].State != session.Done {
		t.Fatalf("back: %+v", got)
	}
}

// A connection that still runs but says nothing (a dead link, a frozen
// host) is given up after Silence.
func TestHubSilenceMeansOffline(t *testing.T) {
	link := newLink()
	link.conns = make(chan *fakeConn, 64)
	h := hubFor(t, link, Options{Silence: 100 * time.Millisecond, Grace: time.Hour})
	c := link.next(t)
	c.send(t, snapshot(time.Now(), true, shown("s1", session.Working)))
	waitFor(t, h, "online", func(s []session.Shown, hs HostStatus) bool { return hs.Link == Online })
	link.setRefuse(errors.New("no route to host"))
	// Heartbeats keep it online past Silence.
	for range 4 {
		time.Sleep(50 * time.Millisecond)
		c.send(t, Line{At: time.Now()})
	}
	if hs := h.Hosts()[0]; hs.Link != Online {
		t.Fatalf("heartbeats did not keep the host online: %+v", hs)
	}
	waitFor(t, h, "offline after silence", func(s []session.Shown, hs HostStatus) bool {
		return hs.Link == Offline && len(s) == 1 && s[0].Offline
	})
}

func TestHubRefusesAnotherFeedVersion(t *testing.T) {
	link := newLink()
	h := hubFor(t, link, Options{})
	c := link.next(t)
	l := snapshot(time.Now(), true, shown("s1", session.Working))
	l.Feed = FeedVersion + 1
	c.send(t, l)
	waitFor(t, h, "offline, saying why", func(s []session.Shown, hs HostStatus) bool {
		return hs.Link == Offline && len(s) == 0 && hs.Why != ""
	})
}

// A host whose clock is off: ages are shown on this machine's clock.
func TestHubCorrectsClockSkew(t *testing.T) {
	link := newLink()
	h := hubFor(t, link, Options{})
	c := link.next(t)
	remoteNow := time.Now().Add(-time.Hour) // the host's clock is an hour behind
	s := shown("s1", session.Waiting)
	s.Since = remoteNow.Add(-10 * time.Second)
	c.send(t, snapshot(remoteNow, true, s))
	got := waitFor(t, h, "online", func(s []session.Shown, hs HostStatus) bool { return hs.Link == Online })
	if age := time.Since(got[0].Since); age < 9*time.Second || age > 20*time.Second {
		t.Errorf("age %v after correcting the skew, want about 10 s", age)
	}
}

// The last list survives Mew's restart: a host that cannot be reached
// shows its sessions greyed, with when they were last seen.
func TestHubCache(t *testing.T) {
	dir := t.TempDir()
	link := newLink()
	ctx, cancel := context.WithCancel(context.Background())
	h := New(Options{Remotes: []Remote{{Name: "box", Host: "box"}}, Dial: link.dial, CacheDir: dir, Silence: time.Hour})
	done := make(chan struct{})
	go func() { h.Run(ctx); close(done) }()
	c := link.next(t)
	c.send(t, snapshot(time.Now(), true, shown("s1", session.Waiting), shown("s2", session.Working)))
	waitFor(t, h, "online", func(s []session.Shown, hs HostStatus) bool { return hs.Link == Online })
	cancel()
	<-done
	if fi, err := os.Stat(filepath.Join(dir, "box.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("cache file: %v %v", fi, err)
	}

	link2 := newLink()
	link2.setRefuse(errors.New("Connection refused"))
	h2 := New(Options{Remotes: []Remote{{Name: "box", Host: "box"}}, Dial: link2.dial, CacheDir: dir})
	got := h2.Sessions()
	if len(got) != 2 || !got[0].Offline || got[0].LastSeen.IsZero() || got[0].Host != "box" {
		t.Fatalf("from the cache: %+v", got)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	h2.Once(ctx2)
	if hs := h2.Hosts()[0]; hs.Link != Offline || hs.Why != "Connection refused" {
		t.Errorf("after a refused Once: %+v", hs)
	}
	if got := h2.Sessions(); len(got) != 2 || !got[1].Offline {
		t.Errorf("after a refused Once: %+v", got)
	}

	// A damaged cache is ignored, not an error.
	os.WriteFile(filepath.Join(dir, "box.json"), []byte("{"), 0o600)
	if got := New(Options{Remotes: []Remote{{Name: "box", Host: "box"}}, CacheDir: dir}).Sessions(); len(got) != 0 {
		t.Errorf("a damaged cache gave %+v", got)
	}
}

// Once returns after each host's first list, with the connection ended.
func TestHubOnce(t *testing.T) {
	a, b := newLink(), newLink()
	dial := func(ctx context.Context, r Remote) (Conn, error) {
		if r.Name == "a" {
			return a.dial(ctx, r)
		}
		return b.dial(ctx, r)
	}
	h := New(Options{Remotes: []Remote{{Name: "b", Host: "hb"}, {Name: "a", Host: "ha"}}, Dial: dial})
	done := make(chan struct{})
	go func() { h.Once(context.Background()); close(done) }()
	ca, cb := a.next(t), b.next(t)
	cb.send(t, snapshot(time.Now(), true, shown("b1", session.Done)))
	ca.send(t, snapshot(time.Now(), true, shown("a1", session.Waiting), shown("a2", session.Idle)))
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Once did not return")
	}
	for _, c := range []*fakeConn{ca, cb} {
		select {
		case <-c.closed:
		default:
			t.Error("a connection was left open")
		}
	}
	got := h.Sessions()
	var ids []string
	for _, s := range got {
		ids = append(ids, s.Host+"/"+s.ID)
	}
	if fmt.Sprint(ids) != "[a/a1 a/a2 b/b1]" {
		t.Errorf("sessions %v, want hosts by name", ids)
	}
}

// onceWith runs Once against a host that sends line, and returns the
// host's status and what the hub allocated meanwhile (an upper bound of
// the memory it held).
func onceWith(t *testing.T, line []byte) (HostStatus, uint64) {
	t.Helper()
	link := newLink()
	h := New(Options{Remotes: []Remote{{Name: "box", Host: "box"}}, Dial: link.dial, Silence: time.Hour})
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan struct{})
	go func() { h.Once(context.Background()); close(done) }()
	c := link.next(t)
	go c.w.Write(line) // fails once the hub hangs up: that is the point
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Once did not return")
	}
	runtime.ReadMemStats(&after)
	return h.Hosts()[0], after.TotalAlloc - before.TotalAlloc
}

// hostileList is a first line listing n empty sessions.
func hostileList(n int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"feed":%d,"at":%q,"sessions":[`, FeedVersion, time.Now().UTC().Format(time.RFC3339Nano))
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("{}")
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// A host cannot make this machine allocate what it likes: a list past
// maxSessions, or a line past maxLine, drops the connection after a few
// MiB.
func TestHubBoundsWhatAHostCanCost(t *testing.T) {
	for _, tc := range []struct {
		name, why string
		line      []byte
	}{
		{"900000 sessions", "more than 1000 sessions", hostileList(900000)},
		{"a 16 MiB line", "a line of more than 4 MiB", hostileList((16<<20)/3 - 100)},
		{"one huge session", "a session of more than 32 KiB", []byte(`{"feed":1,"sessions":[{"title":"` + strings.Repeat("x", 1<<20) + `"}]}` + "\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs, alloc := onceWith(t, tc.line)
			t.Logf("%d-byte line: %.1f MiB allocated, host %s: %s", len(tc.line), float64(alloc)/(1<<20), hs.Link, hs.Why)
			if hs.Link != Offline || !strings.Contains(hs.Why, tc.why) || hs.Sessions != 0 {
				t.Errorf("host %+v: want offline, saying %q, nothing listed", hs, tc.why)
			}
			if alloc > 64<<20 {
				t.Errorf("the hub allocated %d MiB for one hostile line", alloc>>20)
			}
		})
	}
}

// A host whose clock is absurd (year 1, year 9999) gets its times clamped
// between the epoch and now: every session can still be printed as JSON,
// so one host cannot fail `mew status --json` for all.
func TestHubClampsAbsurdTimes(t *testing.T) {
	for _, at := range []time.Time{
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Now(),
	} {
		link := newLink()
		h := hubFor(t, link, Options{})
		c := link.next(t)
		var list []session.Shown
		for i, since := range []time.Time{
			time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
			time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC),
			time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Now().Add(-time.Minute),
		} {
			s := shown(fmt.Sprintf("s%d", i), session.Waiting)
			s.Since = since
			list = append(list, s)
		}
		c.send(t, snapshot(at, true, list...))
		got := waitFor(t, h, "online", func(s []session.Shown, hs HostStatus) bool { return hs.Link == Online && len(s) == 4 })
		if _, err := json.Marshal(got); err != nil {
			t.Errorf("host clock %v: the list cannot be printed: %v", at, err)
		}
		now := time.Now()
		for _, s := range got {
			if !s.Since.IsZero() && (s.Since.Before(time.Unix(0, 0)) || s.Since.After(now)) {
				t.Errorf("host clock %v: %s since %v, want unknown or between the epoch and now", at, s.ID, s.Since)
			}
		}
	}
}

// A cache that is not a regular file is no cache (a link to /dev/zero
// would be read forever).
func TestHubCacheIsARegularFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "box.json")); err != nil {
		t.Fatal(err)
	}
	done := make(chan *Hub, 1)
	go func() { done <- New(Options{Remotes: []Remote{{Name: "box", Host: "box"}}, CacheDir: dir}) }()
	select {
	case h := <-done:
		if got := h.Sessions(); len(got) != 0 {
			t.Errorf("sessions from /dev/zero: %+v", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("New did not return")
	}
}

// A host whose list changes all the time has it cached at most every
// CacheEvery (it was rewritten at every change), and at once when the
// host is lost.
func TestHubThrottlesCacheWrites(t *testing.T) {
	dir := t.TempDir()
	link := newLink()
	h := hubFor(t, link, Options{CacheDir: dir, CacheEvery: time.Hour})
	cachedIDs := func() string {
		data, _ := os.ReadFile(filepath.Join(dir, "box.json"))
		var c cached
		json.Unmarshal(data, &c)
		var ids []string
		for _, s := range c.Sessions {
			ids = append(ids, s.ID)
		}
		return strings.Join(ids, ",")
	}
	waitCache := func(want string) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); cachedIDs() != want; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("cache holds %q, want %q", cachedIDs(), want)
			}
		}
	}
	c := link.next(t)
	c.send(t, snapshot(time.Now(), true, shown("s0", session.Working)))
	waitCache("s0") // the first list is written at once
	for i := 1; i <= 50; i++ {
		c.send(t, snapshot(time.Now(), false, shown(fmt.Sprintf("s%d", i), session.Working)))
	}
	waitFor(t, h, "the 50th list", func(s []session.Shown, _ HostStatus) bool { return len(s) == 1 && s[0].ID == "s50" })
	// Each list is folded in (and was written) before the next is read.
	if got := cachedIDs(); got != "s0" {
		t.Errorf("the cache was rewritten within CacheEvery: it holds %q", got)
	}
	link.setRefuse(errors.New("Connection refused"))
	c.hangup()
	waitFor(t, h, "offline", func(s []session.Shown, hs HostStatus) bool { return hs.Link == Offline })
	waitCache("s50")
}

package tui

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/mew-dev/mew/session"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

type fakeJumper struct {
	mu  sync.Mutex
	ids []string
	err error
}

func (j *fakeJumper) Jump(id string) (string, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.ids = append(j.ids, id)
	if j.err != nil {
		return "", j.err
	}
	return "jumped to tmux pane %3", nil
}

func (j *fakeJumper) calls() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]string(nil), j.ids...)
}

func shown(id string, st session.State, r session.Reason, age time.Duration, cwd string) session.Shown {
	return session.Shown{ID: id, State: st, Reason: r, Since: t0.Add(-age), Cwd: cwd, Title: "task of " + id}
}

func newModel(c *clock, j Jumper, bell io.Writer) *Model {
	return New(Options{Now: c.Now, Jumper: j, Bell: bell, Plain: true})
}

// step feeds a message and runs the command it returns when it is a jump
// (the rest are timers and channel reads a real program would run).
func step(t *testing.T, m *Model, msg tea.Msg) tea.Cmd {
	t.Helper()
	_, cmd := m.Update(msg)
	return cmd
}

func key(s string) tea.KeyPressMsg {
	switch s {
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

func listed(m *Model) []string {
	var out []string
	for _, r := range m.Rows() {
		out = append(out, r.Session.ID)
	}
	return out
}

func TestListOrderAndText(t *testing.T) {
	c := &clock{t0}
	m := newModel(c, nil, nil)
	step(t, m, Update{Sessions: []session.Shown{
		shown("work1", session.Working, "", time.Minute, "/src/alpha"),
		shown("done1", session.Done, "", 5*time.Minute, "/src/beta"),
		shown("wait1", session.Waiting, session.ReasonPermission, 2*time.Minute, "/src/gamma"),
		shown("exit1", session.Exited, "", time.Minute, "/src/delta"),
	}})
	want := []string{"wait1", "done1", "work1", "exit1"}
	if got := listed(m); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("rows %v, want %v", got, want)
	}
	lines := strings.Split(m.text(), "\n")
	var rows []string
	for _, l := range lines {
		if strings.HasPrefix(l, "› ") || strings.HasPrefix(l, "  ") && strings.Contains(l, "task of") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 4 {
		t.Fatalf("view has %d session lines:\n%s", len(rows), m.text())
	}
	for i, w := range []struct{ project, state, age string }{
		{"gamma", "waiting · permission", "2m"},
		{"beta", "done", "5m"},
		{"alpha", "working", "1m"},
		{"delta", "exited", "1m"},
	} {
		f := strings.Fields(rows[i])
		if !strings.Contains(rows[i], w.project) || !strings.Contains(rows[i], w.state) || !containsField(f, w.age) {
			t.Errorf("line %d = %q, want %s, %q, %s", i, rows[i], w.project, w.state, w.age)
		}
	}
	if !strings.HasPrefix(rows[0], "› ") {
		t.Errorf("the first row is not selected: %q", rows[0])
	}
	if !strings.Contains(m.text(), "1 waiting · 1 done · 1 working · 1 exited") {
		t.Errorf("summary missing:\n%s", m.text())
	}
}

func containsField(f []string, s string) bool {
	for _, x := range f {
		if x == s {
			return true
		}
	}
	return false
}

func TestColouredByState(t *testing.T) {
	m := New(Options{Now: (&clock{t0}).Now})
	step(t, m, Update{Sessions: []session.Shown{
		shown("wait1", session.Waiting, session.ReasonQuestion, time.Minute, "/src/a"),
		shown("fail1", session.Failed, "", time.Minute, "/src/b"),
	}})
	v := m.text()
	for what, seq := range map[string]string{"waiting": "38;2;255;184;60", "failed": "38;2;255;100;100"} {
		if !strings.Contains(v, seq) {
			t.Errorf("%s is not in its colour (%s):\n%q", what, seq, v)
		}
	}
}

func TestNavigateAndJump(t *testing.T) {
	c := &clock{t0}
	j := &fakeJumper{}
	m := newModel(c, j, nil)
	sessions := []session.Shown{
		shown("a", session.Waiting, session.ReasonPermission, 3*time.Minute, "/src/a"),
		shown("b", session.Waiting, session.ReasonQuestion, 2*time.Minute, "/src/b"),
		shown("c", session.Working, "", time.Minute, "/src/c"),
	}
	step(t, m, Update{Sessions: sessions})
	step(t, m, key("down"))
	step(t, m, key("down"))
	step(t, m, key("down")) // stays on the last row
	step(t, m, key("up"))
	if m.Selected() != "b" {
		t.Fatalf("selected %q, want b", m.Selected())
	}
	// The selection follows the session when the order changes.
	sessions[0].State, sessions[0].Reason, sessions[0].Since = session.Working, "", t0
	step(t, m, Update{Sessions: sessions})
	if got := listed(m); got[0] != "b" || m.Selected() != "b" {
		t.Fatalf("after a reorder rows %v selected %q, want b still selected", got, m.Selected())
	}
	cmd := step(t, m, key("enter"))
	if cmd == nil {
		t.Fatal("enter gave no command")
	}
	if !strings.Contains(m.text(), "jumping to b") {
		t.Errorf("no progress shown:\n%s", m.text())
	}
	step(t, m, cmd())
	if calls := j.calls(); len(calls) != 1 || calls[0] != "b" {
		t.Fatalf("jumper calls %v, want [b]", calls)
	}
	if !strings.Contains(m.text(), "jumped to tmux pane %3") {
		t.Errorf("the jump's result is not shown:\n%s", m.text())
	}
	j.err = errors.New("no terminal found")
	step(t, m, step(t, m, key("enter"))())
	if !strings.Contains(m.text(), "could not jump: no terminal found") {
		t.Errorf("the jump's error is not shown:\n%s", m.text())
	}
	if _, cmd := m.Update(key("q")); cmd == nil || cmd() != tea.Quit() {
		t.Error("q does not quit")
	}
}

func TestBellOnNewWait(t *testing.T) {
	c := &clock{t0}
	var bell bytes.Buffer
	m := newModel(c, nil, &bell)
	sessions := []session.Shown{shown("a", session.Working, "", time.Minute, "/src/a")}
	step(t, m, Update{Sessions: sessions})
	advance := func(d time.Duration) { c.now = c.now.Add(d); step(t, m, tickMsg(c.now)) }

	sessions[0] = shown("a", session.Waiting, session.ReasonPermission, 0, "/src/a")
	sessions[0].Since = c.now
	step(t, m, Update{Sessions: sessions})
	if bell.Len() != 0 {
		t.Fatal("rang before the wait settled")
	}
	advance(250 * time.Millisecond)
	advance(250 * time.Millisecond)
	if bell.String() != "\a" {
		t.Fatalf("bell %q after the wait settled, want one BEL", bell.String())
	}
	for range 8 {
		advance(250 * time.Millisecond)
	}
	if bell.Len() != 1 {
		t.Fatalf("polling rang again: %q", bell.String())
	}
	// Another session starts waiting: another bell. A done one: none.
	sessions = append(sessions, shown("b", session.Waiting, session.ReasonQuestion, 0, "/src/b"), shown("c", session.Done, "", 0, "/src/c"))
	sessions[1].Since, sessions[2].Since = c.now, c.now
	step(t, m, Update{Sessions: sessions})
	for range 8 {
		advance(250 * time.Millisecond)
	}
	if bell.Len() != 2 || m.Bells() != 2 {
		t.Fatalf("bells %q (%d), want two", bell.String(), m.Bells())
	}
}

func TestHostileTextStaysOnItsLine(t *testing.T) {
	m := newModel(&clock{t0}, nil, nil)
	s := shown("a", session.Done, "", time.Minute, "/src/evil\x1b]0;pwned\a\nname")
	s.LastMessage = "line one\r\n\x1b[2Jline two"
	step(t, m, Update{Sessions: []session.Shown{s}})
	v := m.text()
	if strings.ContainsAny(v, "\x1b\a\r") {
		t.Errorf("control characters reach the terminal: %q", v)
	}
	// The title, a blank, the row, its agent and place (selected), a
	// blank, the help: a newline in the data would add one.
	if n := strings.Count(v, "\n"); n != 5 {
		t.Errorf("view has %d lines, want 6: %q", n+1, v)
	}
}

func TestQuitsWhenUpdatesEnd(t *testing.T) {
	ch := make(chan Update)
	m := New(Options{Updates: ch, Now: (&clock{t0}).Now, Plain: true})
	close(ch)
	msg := m.next()()
	if _, cmd := m.Update(msg); cmd == nil || cmd() != tea.Quit() {
		t.Error("the board does not quit when the monitor stops")
	}
}

// runHeadless runs m in a real Bubble Tea program without a terminal: key
// messages in, rendered frames out. quit sends q and waits for the end.
func runHeadless(t *testing.T, m *Model, opts ...tea.ProgramOption) (p *tea.Program, out *safeBuffer, quit func()) {
	t.Helper()
	out = &safeBuffer{}
	opts = append([]tea.ProgramOption{tea.WithInput(nil), tea.WithOutput(out), tea.WithoutSignals(), tea.WithWindowSize(120, 20)}, opts...)
	p = tea.NewProgram(m, opts...)
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	return p, out, func() {
		t.Helper()
		p.Send(key("q"))
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(60 * time.Second):
			p.Kill()
			t.Fatal("the program did not quit on q")
		}
	}
}

func TestProgramHeadless(t *testing.T) {
	ch := make(chan Update, 1)
	j := &fakeJumper{}
	m := New(Options{Updates: ch, Jumper: j, Now: (&clock{t0}).Now, Plain: true})
	p, out, quit := runHeadless(t, m)
	ch <- Update{Sessions: []session.Shown{
		shown("a", session.Waiting, session.ReasonPermission, time.Minute, "/src/first"),
		shown("b", session.Done, "", time.Minute, "/src/second"),
	}}
	waitFor(t, func() bool { return strings.Contains(out.String(), "second") })
	p.Send(key("down"))
	p.Send(key("enter"))
	waitFor(t, func() bool { return len(j.calls()) == 1 })
	waitFor(t, func() bool { return strings.Contains(out.String(), "jumped to tmux pane") })
	quit()
	if got := j.calls(); got[0] != "b" {
		t.Errorf("jumped to %v, want b", got)
	}
	// The live board takes the whole screen and gives it back.
	if o := out.String(); !strings.Contains(o, "\x1b[?1049h") || !strings.Contains(o, "\x1b[?1049l") {
		t.Errorf("the board did not use the alternate screen: %q", o)
	}
}

// The model styles in full colour; the program brings it down to what the
// terminal shows (Lip Gloss v1's renderer did this in the model).
func TestProgramColoursForTheTerminal(t *testing.T) {
	for _, tc := range []struct {
		profile   colorprofile.Profile
		want, not string
	}{
		{colorprofile.TrueColor, "38;2;255;184;60", "38;5;"},
		{colorprofile.ANSI256, "38;5;", "38;2;"},
		{colorprofile.NoTTY, "waiting", "38;"},
	} {
		ch := make(chan Update, 1)
		_, out, quit := runHeadless(t, New(Options{Updates: ch, Now: (&clock{t0}).Now}), tea.WithColorProfile(tc.profile))
		ch <- Update{Sessions: []session.Shown{shown("a", session.Waiting, session.ReasonPermission, time.Minute, "/src/first")}}
		waitFor(t, func() bool { return strings.Contains(out.String(), "permission") })
		quit()
		if o := out.String(); !strings.Contains(o, tc.want) || strings.Contains(o, tc.not) {
			t.Errorf("%v: want %q and no %q in %q", tc.profile, tc.want, tc.not, o)
		}
	}
}

type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

type fakeAnswerer struct {
	mu    sync.Mutex
	calls []string
	err   error
}

func (a *fakeAnswerer) Answer(id string, c session.Choice) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls = append(a.calls, fmt.Sprintf("%s %d %s", id, c.N, c.Label))
	if a.err != nil {
		return "", a.err
	}
	return fmt.Sprintf("answered %d %q", c.N, c.Label), nil
}

// Keys 1-9 answer the selected waiting session: its choices show under it,
// the answer runs off the update loop, one at a time; where Mew cannot
// type, the board says to answer in the terminal.
func TestAnswerKeys(t *testing.T) {
	c := &clock{t0}
	a := &fakeAnswerer{}
	m := New(Options{Now: c.Now, Answerer: a, Plain: true})
	wait := shown("wait1", session.Waiting, session.ReasonPermission, time.Minute, "/src/gamma")
	wait.Choices, wait.AnswerVia = []session.Choice{{N: 1, Label: "Yes"}, {N: 3, Label: "No"}}, "tmux"
	other := shown("wait2", session.Waiting, session.ReasonQuestion, 30*time.Second, "/src/delta")
	other.Choices = []session.Choice{{N: 1, Label: "React"}}
	step(t, m, Update{Sessions: []session.Shown{wait, other, shown("work1", session.Working, "", time.Minute, "/src/alpha")}})
	if !strings.Contains(m.text(), "    1 Yes · 3 No\n") || !strings.Contains(m.text(), "1-9 answer") {
		t.Fatalf("view:\n%s", m.text())
	}
	if cmd := step(t, m, key("2")); cmd != nil || !strings.Contains(m.text(), "no choice 2") {
		t.Fatalf("key 2: %v\n%s", cmd, m.text())
	}
	cmd := step(t, m, key("3"))
	if cmd == nil {
		t.Fatal("key 3 did not answer")
	}
	if step(t, m, key("1")) != nil || !strings.Contains(m.text(), "an answer is being typed") {
		t.Fatalf("a second answer while one runs:\n%s", m.text())
	}
	step(t, m, cmd())
	if strings.Join(a.calls, ";") != "wait1 3 No" || !strings.Contains(m.text(), `answered 3 "No"`) {
		t.Fatalf("calls %q\n%s", a.calls, m.text())
	}
	// The second waiting session's terminal takes no typing.
	step(t, m, key("down"))
	if step(t, m, key("1")) != nil || !strings.Contains(m.text(), "answer in the terminal: enter jumps there") || len(a.calls) != 1 {
		t.Fatalf("elsewhere: %q\n%s", a.calls, m.text())
	}
	// A working session: digits do nothing.
	step(t, m, key("down"))
	if step(t, m, key("1")) != nil || len(a.calls) != 1 {
		t.Fatal("a digit answered a working session")
	}
	// A failed answer says so.
	a.err = errors.New("typed nothing: the terminal shows no prompt now")
	step(t, m, key("up"))
	step(t, m, key("up"))
	step(t, m, cmdOf(t, m, "1")())
	if !strings.Contains(m.text(), "not answered: typed nothing") {
		t.Fatalf("failure:\n%s", m.text())
	}
}

func cmdOf(t *testing.T, m *Model, k string) tea.Cmd {
	t.Helper()
	cmd := step(t, m, key(k))
	if cmd == nil {
		t.Fatalf("key %s: no answer", k)
	}
	return cmd
}

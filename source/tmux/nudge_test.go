package tmux

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
)

// A nudge (a report came) reads the panes again and sends what it read
// even when nothing changed, so the monitor knows the screen was read
// since the report; a sweep that finds nothing new otherwise sends
// nothing. A burst of nudges is one read.
func TestNudgeSendsAFreshRead(t *testing.T) {
	s := startServer(t)
	src := newSource(s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	agent := s.fakeAgent(promptScreen, idleScreen)
	ch := make(chan []source.Observation, 16)
	done := make(chan error, 1)
	go func() { done <- src.Watch(ctx, ch) }()
	s.tmux("send-keys", "-t", "work", agent, "Enter")
	first := waitObs(t, ch, "the prompt", func(o []source.Observation) bool {
		return len(o) == 1 && o[0].Screen.State == session.ScreenBlocked
	})[0]

	nudged := time.Now()
	for range 5 {
		src.Nudge()
	}
	again := waitObs(t, ch, "a read after the nudge", func(o []source.Observation) bool { return len(o) == 1 })[0]
	if again.Screen.State != session.ScreenBlocked || !again.Screen.Since.Equal(first.Screen.Since) || again.Screen.At.Before(nudged) {
		t.Errorf("after the nudge: %+v, want the same prompt read again after %v", *again.Screen, nudged)
	}
	// And reads go on being sent until one is the settle time late.
	waitObs(t, ch, "a read the settle time after the nudge", func(o []source.Observation) bool {
		return len(o) == 1 && !o[0].Screen.At.Before(nudged.Add(session.ScreenSettle))
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// A pane closed under a running agent is reported a moment longer as the
// agent gone from its terminal, joined to the agent by its process: the
// wait its screen saw go away must not come back before the process is
// seen gone (issue 22).
func TestClosedPaneIsReportedAsTheAgentGone(t *testing.T) {
	s := startServer(t)
	s.tmux("new-window", "-d", "-t", "work", "env PS1='$ ' bash --norc --noprofile") // keeps the server up
	src := newSource(s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	agent := s.fakeAgent(promptScreen, idleScreen)
	ch := make(chan []source.Observation, 16)
	done := make(chan error, 1)
	go func() { done <- src.Watch(ctx, ch) }()
	s.tmux("send-keys", "-t", "work:0", agent, "Enter")
	open := waitObs(t, ch, "the prompt", func(o []source.Observation) bool {
		return len(o) == 1 && o[0].Screen.State == session.ScreenBlocked
	})[0]
	s.tmux("kill-pane", "-t", open.Process.Tmux.Pane)
	gone := waitObs(t, ch, "the closed pane", func(o []source.Observation) bool {
		return len(o) == 1 && o[0].Screen.Background
	})[0]
	if gone.Fallback != open.Fallback || gone.Process.Pid != open.Process.Pid || gone.Process.StartMs != open.Process.StartMs || gone.Screen.Pid != 0 {
		t.Errorf("closed pane: %+v screen %+v, want %s joined by the agent's process %d", gone, *gone.Screen, open.Fallback, open.Process.Pid)
	}
	waitObs(t, ch, "the closed pane forgotten", func(o []source.Observation) bool { return len(o) == 0 })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// `tail -f` of a log that holds an agent's screen text is no session: the
// process names the agent before its screen does (issue 22: a plain shell
// pane showing a Codex dialog's text through tail -f was listed as a Codex
// session waiting on the person, for 192 s).
func TestViewerShowingAnAgentsTextIsNoSession(t *testing.T) {
	s := startServer(t)
	src := newSource(s)
	log := filepath.Join(s.dir, "codex.log")
	text := "  >_ OpenAI Codex (v0.171.0)\n\n  Would you like to run the following command?\n\n› 1. Yes, proceed (y)\n\n  Press enter to confirm or esc to cancel\n"
	if err := os.WriteFile(log, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s.tmux("send-keys", "-t", "work", "tail -f "+log, "Enter")
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.tmux("capture-pane", "-p", "-t", "work"), "Press enter to confirm") {
		if time.Now().After(deadline) {
			t.Fatal("tail never showed the file")
		}
		time.Sleep(50 * time.Millisecond)
	}
	for range 3 {
		obs, err := src.Scan(context.Background())
		if err != nil || len(obs) != 0 {
			t.Fatalf("tail -f of an agent's text: %+v %v, want nothing listed", obs, err)
		}
	}
}

// The server killed under a running agent (the window closed): the agent
// is reported gone from its pane for a moment too, then nothing.
func TestServerGoneIsReportedAsTheAgentGone(t *testing.T) {
	s := startServer(t)
	src := newSource(s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	agent := s.fakeAgent(promptScreen, idleScreen)
	ch := make(chan []source.Observation, 16)
	done := make(chan error, 1)
	go func() { done <- src.Watch(ctx, ch) }()
	s.tmux("send-keys", "-t", "work", agent, "Enter")
	open := waitObs(t, ch, "the prompt", func(o []source.Observation) bool {
		return len(o) == 1 && o[0].Screen.State == session.ScreenBlocked
	})[0]
	s.tmux("kill-server")
	gone := waitObs(t, ch, "the agent gone with the server", func(o []source.Observation) bool {
		return len(o) == 1 && o[0].Screen.Background
	})[0]
	if gone.Fallback != open.Fallback || gone.Process.Pid != open.Process.Pid {
		t.Errorf("after the server went: %+v, want %s by process %d", gone, open.Fallback, open.Process.Pid)
	}
	waitObs(t, ch, "nothing", func(o []source.Observation) bool { return len(o) == 0 })
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// One-shot reads (`mew status`): a server gone since the last read, which
// the memory file remembers, reports its agents gone from their panes for
// a moment too, and nothing once the memory is older than that.
func TestOneShotServerGoneIsReportedFromMemory(t *testing.T) {
	s := startServer(t)
	mem := filepath.Join(t.TempDir(), "screens", "tmux.json")
	read := func(now time.Time) []source.Observation {
		src := newSource(s)
		src.Memory, src.Now = mem, func() time.Time { return now }
		obs, err := src.Scan(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return obs
	}
	s.tmux("send-keys", "-t", "work", s.fakeAgent(promptScreen), "Enter")
	var open source.Observation
	for deadline := time.Now().Add(10 * time.Second); ; {
		if obs := read(time.Now()); len(obs) == 1 && obs[0].Screen.State == session.ScreenBlocked {
			open = obs[0]
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the agent's prompt was never read")
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.tmux("kill-server")
	gone := read(time.Now())
	if len(gone) != 1 || !gone[0].Screen.Background || gone[0].Process.Pid != open.Process.Pid || gone[0].Fallback != open.Fallback {
		t.Fatalf("after the server went: %+v, want %s gone from its pane, by process %d", gone, open.Fallback, open.Process.Pid)
	}
	if late := read(time.Now().Add(closedFor + time.Second)); len(late) != 0 {
		t.Errorf("long after: %+v, want nothing", late)
	}
}

// After a nudge the panes are read until the longest settle time of the
// agents they show (Gemini CLI's 1 s): a read at the default 500 ms would
// leave its late "Request cancelled" for the next tick.
func TestSettleIsTheLongestOfThePanesAgents(t *testing.T) {
	s := &Source{}
	if got := s.settle(); got != session.ScreenSettle {
		t.Errorf("no panes: %v, want %v", got, session.ScreenSettle)
	}
	s.panes = map[string]*pane{"%1": {id: "%1"}, "%2": {id: "%2"}}
	if got := s.settle(); got != session.ScreenSettle {
		t.Errorf("agents with no settle of their own: %v, want %v", got, session.ScreenSettle)
	}
	s.panes["%2"].tracker.State.ReportSettle = time.Second
	if got := s.settle(); got != time.Second {
		t.Errorf("a Gemini pane among them: %v, want 1s", got)
	}
}

// A pane in the foreground that still shows a turn running is read more
// often, whatever its agent's settle time: OpenCode and Kilo draw their
// turn's end after their plugin's idle, later on a loaded machine.
func TestRunningIsAWorkingPaneInTheForeground(t *testing.T) {
	s := &Source{panes: map[string]*pane{"%1": {id: "%1"}, "%2": {id: "%2"}}}
	if s.running() {
		t.Error("no pane read yet is running")
	}
	st := &s.panes["%1"].tracker.State
	st.State = session.ScreenWorking
	if !s.running() {
		t.Error("a working pane of an agent with the default settle time is not running")
	}
	st.ReportSettle = time.Second
	if !s.running() {
		t.Error("a working Gemini pane is not running")
	}
	st.Background = true
	if s.running() {
		t.Error("a working pane whose agent left the foreground is running")
	}
	st.Background = false
	st.State = session.ScreenIdle
	if s.running() {
		t.Error("an idle pane is running")
	}
}

package e2e

// Amp's cells of the conformance matrix (issue 35, e2e/matrix): one session
// per mode walks the classes in a row — a fresh pane, a rejected approval
// and the turn after it, a reply quoting the dialog, Esc Esc while a reply
// streams and the turn after it, a failed turn, and kill -9 while waiting
// (hooks only: a normal exit, as Amp's plugin says nothing of its dialog
// and there is no wait to kill in).

import (
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

var (
	ampQuoted = regexp.MustCompile(`Nothing is waiting for you here`)
	// The quote's rows, as Amp draws a reply: a column in.
	ampQuote = regexp.MustCompile(`(?m)^ ╭─ Approval Required[\s\S]* ╰─+ ↑/↓/j/k move · Enter select · Esc cancel ─╯`)
)

type ampMode int

const (
	ampHooksPane ampMode = iota // Mew's plugin and the pane read
	ampScreen                   // no install: the pane alone
	ampHooks                    // the plugin alone: the pane not read
)

// staysDoneWithin is staysDone with the goal of the mode.
func (s *scen) staysDoneWithin(what string, end time.Time, goal time.Duration) {
	s.t.Helper()
	s.expect(what+" → done", end, goal, stateIs(session.Done))
	s.never(what+": never idle after it", end.Add(goal), end.Add(goal+settleAfter), func(sh session.Shown, listed bool) bool {
		return !listed || sh.State == session.Idle
	})
}

// freshIdle: before any turn the session is idle in both views (one-shot
// and the watcher), never working, done or waiting; unlisted passes where
// nothing can know of it yet.
func (s *scen) freshIdle(goal time.Duration, unlisted bool) {
	s.t.Helper()
	at := time.Now()
	if !unlisted {
		s.expect("a fresh pane → idle", at, goal, stateIs(session.Idle))
	}
	s.never("a fresh pane stays idle", at, at.Add(settleAfter), func(sh session.Shown, listed bool) bool {
		return listed && sh.State != session.Idle || !listed && !unlisted
	})
}

// killAgent sends SIGKILL to the pane's foreground job (the agent) and
// returns when.
func (s *scen) killAgent() time.Time {
	s.t.Helper()
	pane, err := s.r.Tmux.Pane()
	if err != nil {
		s.t.Fatal(err)
	}
	if err := syscall.Kill(pane.Pid, syscall.SIGKILL); err != nil {
		s.t.Fatal(err)
	}
	at := time.Now()
	s.r.TL.Addf(at, "key", "kill -9 %d (the agent)", pane.Pid)
	return at
}

func ampConform(t *testing.T, mode ampMode) {
	o := ampOpts{}
	goal := fast
	switch mode {
	case ampScreen:
		o, goal = ampOpts{noInstall: true, link: true}, screenOnly
	case ampHooks:
		o.unread = true
	}
	s := startAmp(t, o)
	// Amp's plugin reports nothing before the first prompt (session.start
	// comes with it): unread, Mew cannot list the session yet.
	s.freshIdle(screenOnly, mode == ampHooks)

	if mode != ampHooks {
		// The dialog is the screen's alone (Amp's plugin says nothing of
		// it): the screen's goal in every mode.
		shown := s.dialog(s.submit("please mew-bash now"))
		rejected := s.answer(ampDialog, shown.At, "Escape")
		s.expect("rejected → not waiting", rejected, screenOnly, listedAndNot(session.Waiting))
		s.expect("rejected, the turn went on → done", s.turnEnded(shown.At, ampRejected), goal, stateIs(session.Done))
		sent := s.submit("hello mew-plain")
		s.staysDoneWithin("the turn after the reject", s.turnEnded(sent, ampReply), goal)

		sent = s.submit("show me mew-quote")
		end := s.turnEnded(sent, ampQuoted)
		if !ampQuote.MatchString(s.r.Screen()) {
			t.Errorf("the quoted dialog is not on the screen: the check proves nothing")
		}
		s.expect("a reply quoting the dialog → done", end, goal, stateIs(session.Done))
		s.never("never waiting for a quoted dialog", sent, end.Add(settleAfter), shows(session.Waiting))
	} else {
		sent := s.submit("hello mew-plain")
		s.staysDoneWithin("a plain turn", s.turnEnded(sent, ampReply), goal)
	}

	sent := s.submit("take it mew-slow")
	if _, err := s.r.WaitScreen(sent, ampStreaming, turn); err != nil {
		t.Fatal(err)
	}
	s.expect("streaming → working", time.Now(), goal, stateIs(session.Working))
	esc := s.press("Escape")
	time.Sleep(300 * time.Millisecond)
	s.press("Escape")
	cancelled := s.serverSaw(esc, "cancel", turn)
	stopped := s.serverSaw(cancelled, "state idle", turn)
	if mode != ampHooks {
		idle, err := s.r.WaitScreen(cancelled, ampIdleBox, turn)
		if err != nil {
			t.Fatal(err)
		}
		stopped = idle.At
	}
	s.expect("Esc Esc while streaming → idle", stopped, goal, stateIs(session.Idle))
	s.never("no done on the way to idle", esc, stopped.Add(settleAfter), shows(session.Done))
	sent = s.submit("hello again mew-plain")
	s.staysDoneWithin("the turn after the Esc", s.turnEnded(sent, ampReply), goal)

	if mode != ampScreen {
		// The stand-in fails the turn (agent.end "error"); the CLI draws
		// nothing of it, so only the plugin can say failed.
		sent = s.submit("please mew-error")
		started := s.serverSaw(sent, "state working", turn)
		failed := s.serverSaw(started, "failed", turn)
		ended := s.serverSaw(failed, "state idle", turn)
		s.expect("a failed turn → failed", ended, goal, stateIs(session.Failed))
		// From the turn's start on: the turn before's done shows until then.
		s.never("no done on the way to failed", started.Add(goal), ended.Add(settleAfter), shows(session.Done))
	}

	if mode == ampHooks {
		s.press("C-c")
		time.Sleep(400 * time.Millisecond)
		s.press("C-c")
		snap, err := s.r.WaitScreen(esc, ampExited, 15*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		s.expect("exit → exited", snap.At, exit, exitedOrGone)
		return
	}
	s.dialog(s.submit("please mew-bash again"))
	killed := s.killAgent()
	s.expect("kill -9 while waiting → exited", killed, exit, exitedOrGone)
	s.never("no waiting after the kill", killed.Add(exit), killed.Add(exit+settleAfter), shows(session.Waiting))
}

func TestAmpConformHooksAndPane(t *testing.T) { ampConform(t, ampHooksPane) }

// Started by an npm global install's link, under `env VAR=…`.
func TestAmpConformScreen(t *testing.T) { ampConform(t, ampScreen) }

func TestAmpConformHooksOnly(t *testing.T) { ampConform(t, ampHooks) }

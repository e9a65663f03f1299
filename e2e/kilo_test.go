package e2e

// The real Kilo CLI (driver.KiloVersion), an OpenCode fork, against the
// scripted chat completions API as a custom OpenAI-compatible provider,
// with Mew's plugin installed (`mew install --agent kilo`: OpenCode's
// plugin in ~/.config/kilo/plugins) and its tmux server as the screen
// source; the same scenarios as OpenCode's.

import (
	"regexp"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakellm"
	"github.com/mew-dev/mew/session"
)

var kiloCLI = agentCLI{
	name: driver.AgentKilo, version: driver.KiloVersion, find: driver.FindKilo,
	apiURL:      func(s *fakellm.Server) string { return s.OpenAIURL },
	dialog:      regexp.MustCompile(`△ Permission required`),
	apiError:    regexp.MustCompile(`scripted bad request`),
	stopped:     regexp.MustCompile(`· interrupted`),
	stop:        []string{"Escape", "Escape"},
	turnStart:   func(h driver.HookSeen) bool { return h.Event == "session.status" && h.Kind == "busy" },
	turnEnd:     func(h driver.HookSeen) bool { return h.Event == "session.status" && h.Kind == "idle" },
	dialogEvent: func(h driver.HookSeen) bool { return h.Event == "permission.asked" },
	quit:        []string{"C-c", "C-c"},
	startup:     4 * time.Minute,
	stopHint:    escAgain,
	rejectBox:   kiloRejectBox,
	denyEnd:     func(h driver.HookSeen) bool { return h.Event == "session.status" && h.Kind == "idle" },
	denyRuns:    true,
	errorEvent:  func(h driver.HookSeen) bool { return h.Event == "session.error" },
	// OpenCode's question dialog and events.
	questionDialog: openCodeQuestion, questionEvent: openCodeAsked, questionOver: openCodeAnswered,
	questionApart: true, questionQuote: fakellm.QuoteAsk, dismissIdle: true,
}

// The dialog denied → not waiting: Esc on Kilo's dialog asks what to do
// instead ("△ Reject permission", the permission still open: Mew shows it
// waiting), Enter there rejects. Then an API error → failed, and Esc Esc
// while working → idle.
func TestKiloDenyAndError(t *testing.T) {
	c := kiloCLI
	s := startCLI(t, c)
	shown := s.dialogShown(fakellm.Shell)
	if _, err := s.r.Answer(c.dialog, shown.At, "Escape"); err != nil {
		t.Fatal(err)
	}
	box, err := s.r.WaitScreen(shown.At, kiloRejectBox, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	s.expect("Esc → still waiting (the reject box)", box.At, fast, waitingFor(session.ReasonPermission))
	a, err := s.r.Answer(kiloRejectBox, box.At, "Enter")
	if err != nil {
		t.Fatal(err)
	}
	s.expect("rejected → not waiting", a.Gone, fast, listedAndNot(session.Waiting))
	s.observed(a.Pressed, "idle after the reject", c.turnEnd)

	sent := s.prompt(fakellm.Prompt(fakellm.Error))
	snap, err := s.r.WaitScreen(sent, c.apiError, cliTurn)
	if err != nil {
		t.Fatal(err)
	}
	ref := snap.At
	if e := s.observed(sent, "session.error", func(h driver.HookSeen) bool { return h.Event == "session.error" }); e.Before(ref) {
		ref = e
	}
	s.expect("API error → failed", ref, fast, stateIs(session.Failed))

	sent = s.prompt(fakellm.Prompt(fakellm.Slow))
	if _, err := s.r.WaitScreen(sent, streaming, cliTurn); err != nil {
		t.Fatal(err)
	}
	stopped := s.interruptTwice(c.stopped, escAgain)
	s.expect("Esc while working → idle", stopped.At, time.Second, stateIs(session.Idle))
}

var kiloRejectBox = regexp.MustCompile(`△ Reject permission`)

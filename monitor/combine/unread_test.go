package combine

import (
	"testing"

	"github.com/mew-dev/mew/session"
)

// Claude Code without Mew's hooks: its registry alone says a turn ended
// (idle after busy: done), and the screen, read before that report, has not
// seen how. A refused request ends a turn in ~70 ms, too fast for a read to
// see it run: the watcher showed done for a sample before the next read
// showed the error (issue 35, e2e TestClaudeConformScreen). The screen
// decides before done is shown: working until a read after the report.
func TestRegistryDoneWaitsForAScreenReadAfterIt(t *testing.T) {
	ended := reg("idle", "", 5)
	ended.TurnSeen = true
	claudeScreen := func(state string, read float64, rule string) *session.ScreenState {
		return &session.ScreenState{Agent: "claude", State: state, Since: at(1), At: at(read), Via: "tmux", Pane: "%1", Rule: rule}
	}
	before := claudeScreen(session.ScreenIdle, 4.9, "claude/idle#2")
	before.TurnEnded = true // the previous turn's line
	after := claudeScreen(session.ScreenFailed, 5.1, "claude/failed#1")
	after.Since = at(5.05)
	afterIdle := claudeScreen(session.ScreenIdle, 5.1, "claude/idle#2")
	afterIdle.TurnEnded = true
	// The next prompt submitted: the error row is no longer the last thing
	// above the input box, the spinner runs, the registry's busy lags.
	nextTurn := claudeScreen(session.ScreenWorking, 5.6, "claude/working#1")
	nextTurn.Since = at(5.5)
	notTmux := claudeScreen(session.ScreenIdle, 4.9, "claude/idle#2")
	notTmux.Via = "run"

	cases := []struct {
		name string
		h    *session.HookState
		sc   *session.ScreenState
		want session.State
	}{
		{"read before the report: not done yet", nil, before, session.Working},
		{"read after it shows the error: failed", nil, after, session.Failed},
		{"read after it shows the prompt: done", nil, afterIdle, session.Done},
		{"no screen: the registry decides", nil, nil, session.Done},
		{"a turn the screen saw start since: working", nil, nextTurn, session.Working},
		{"a screen Mew is not sent reads of: the registry decides", nil, notTmux, session.Done},
	}
	for _, c := range cases {
		got := Combine(session.Record{ID: "s", Agent: session.AgentClaude, Registry: ended, Hook: c.h, Screen: c.sc}, Alive)
		if got.State != c.want {
			t.Errorf("%s: got %s (%s), want %s", c.name, got.State, got.Source, c.want)
		}
	}
}

// Registry only: a turn so short that Claude Code never wrote busy for it
// (source/registry saw its reply in the transcript, after the idle): done,
// since the reply, not since the idle before the turn.
func TestRegistryDoneForATurnOnlyTheTranscriptSaw(t *testing.T) {
	quick := reg("idle", "", 5)
	quick.TurnSeen, quick.LastTurnAt = true, at(8)
	got := Combine(session.Record{ID: "s1", Registry: quick}, Alive)
	if got.State != session.Done || !got.Since.Equal(at(8)) || got.Source != "registry:idle" {
		t.Errorf("got %s since %v by %s, want done since %v", got.State, got.Since, got.Source, at(8))
	}
	seen := reg("idle", "", 5)
	seen.TurnSeen, seen.LastTurnAt = true, at(4) // busy's time, before the idle
	if got := Combine(session.Record{ID: "s1", Registry: seen}, Alive); !got.Since.Equal(at(5)) {
		t.Errorf("a turn the registry saw: since %v, want the idle's %v", got.Since, at(5))
	}
}

package combine

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

func scr(state string, t float64) *session.ScreenState {
	s := &session.ScreenState{Agent: "gemini", State: state, Since: at(t), At: at(t + 0.7), Via: "tmux", Pane: "%3", Rule: "gemini/" + state + "#1"}
	if state == session.ScreenBlocked {
		s.Reason = session.ReasonPermission
	}
	return s
}

func logState(state session.State, t float64, source string) *session.LogState {
	return &session.LogState{State: state, Since: at(t), At: at(t), Source: source, Cwd: "/p/log"}
}

func TestCombineWithScreenAndLog(t *testing.T) {
	stopped := hook(session.Done, "", 5)
	stopped.StopSeen = true
	idleScreen := func(t float64, ended bool) *session.ScreenState {
		s := scr(session.ScreenIdle, t)
		s.TurnEnded = ended
		return s
	}
	unblocked := scr(session.ScreenIdle, 6)
	unblocked.Unblocked = at(6)
	unblockedEarly := scr(session.ScreenWorking, 6)
	unblockedEarly.Unblocked = at(4)
	background := idleScreen(8, true)
	background.Background = true
	backgroundBusy := scr(session.ScreenWorking, 8)
	backgroundBusy.Background = true
	cancelled := idleScreen(5.4, false)
	cancelled.Interrupted = true
	cancelledBefore := idleScreen(1, false)
	cancelledBefore.Interrupted = true
	permHook := hook(session.Waiting, session.ReasonPermission, 5)
	permHook.Tool, permHook.ToolDetail = "Bash", "touch x"

	cases := []struct {
		name   string
		h      *session.HookState
		r      *session.RegistryState
		lg     *session.LogState
		sc     *session.ScreenState
		live   Liveness
		state  session.State
		reason session.Reason
		source string
	}{
		{"a prompt on screen beats a working report", hook(session.Working, "", 5), nil, nil, scr(session.ScreenBlocked, 5.5), Alive, session.Waiting, session.ReasonPermission, "screen:gemini/blocked#1"},
		{"a prompt on screen beats a newer busy registry", nil, reg("busy", "", 9), nil, scr(session.ScreenBlocked, 5.5), Alive, session.Waiting, session.ReasonPermission, "screen:gemini/blocked#1"},
		{"but not a dead process", hook(session.Working, "", 5), nil, nil, scr(session.ScreenBlocked, 5.5), Dead, session.Exited, "", "process:gone"},
		{"nor a SessionEnd", hook(session.Exited, "", 6), nil, nil, scr(session.ScreenBlocked, 5.5), Alive, session.Exited, "", "hook:X"},
		{"hooks waiting keep their reason under a screen prompt", hook(session.Waiting, session.ReasonQuestion, 5), nil, nil, scr(session.ScreenBlocked, 5.5), Alive, session.Waiting, session.ReasonQuestion, "screen:gemini/blocked#1"},
		{"a report beats other screen states", hook(session.Working, "", 5), nil, nil, idleScreen(6, false), Alive, session.Working, "", "hook:X"},
		{"a wait whose prompt went away is over (Esc fires no hook)", permHook, nil, nil, unblocked, Alive, session.Idle, "", "screen:gemini/idle#1"},
		{"a prompt that went away before the wait began changes nothing", permHook, nil, nil, unblockedEarly, Alive, session.Waiting, session.ReasonPermission, "hook:X"},
		{"an error on screen after the turn ended: failed", stopped, nil, nil, scr(session.ScreenFailed, 5.6), Alive, session.Failed, "", "screen:gemini/failed#1"},
		{"an error line older than the turn's end changes nothing", stopped, nil, nil, scr(session.ScreenFailed, 1), Alive, session.Done, "", "hook:X"},
		{"a turn the screen says the person stopped: idle, not done", stopped, nil, nil, cancelled, Alive, session.Idle, "", "screen:gemini/idle#1"},
		{"a stop older than the turn's end changes nothing", stopped, nil, nil, cancelledBefore, Alive, session.Done, "", "hook:X"},
		{"shell back after the turn ended: exited", stopped, nil, nil, background, Alive, session.Exited, "", "screen:background"},
		{"the screen says it exited", stopped, nil, nil, scr(session.ScreenExited, 7), Alive, session.Exited, "", "screen:gemini/exited#1"},
		{"daemon rule: a running turn outlives its terminal UI", hook(session.Working, "", 5), nil, nil, backgroundBusy, Alive, session.Working, "", "hook:X"},
		{"the log's newer task_complete with an error: failed (no hook fires)", hook(session.Working, "", 5), nil, logState(session.Failed, 6, "rollout:task_complete"), nil, Alive, session.Failed, "", "rollout:task_complete"},
		{"a newer hook beats an older log line", hook(session.Waiting, session.ReasonPermission, 7), nil, logState(session.Working, 6, "rollout:task_started"), nil, Alive, session.Waiting, session.ReasonPermission, "hook:X"},
		{"a log alone decides", nil, nil, logState(session.Done, 6, "rollout:task_complete"), nil, Alive, session.Done, "", "rollout:task_complete"},
		{"screen alone: working", nil, nil, nil, scr(session.ScreenWorking, 3), Alive, session.Working, "", "screen:gemini/working#1"},
		{"screen alone: idle after a turn is done", nil, nil, nil, idleScreen(3, true), Alive, session.Done, "", "screen:gemini/idle#1"},
		{"screen alone: fresh idle", nil, nil, nil, idleScreen(3, false), Alive, session.Idle, "", "screen:gemini/idle#1"},
		{"screen alone: background means exited", nil, nil, nil, background, Alive, session.Exited, "", "screen:background"},
		{"screen alone: blocked without a reason waits for input", nil, nil, nil, &session.ScreenState{Agent: "x", State: session.ScreenBlocked, Rule: "x/blocked#2"}, Alive, session.Waiting, session.ReasonInput, "screen:x/blocked#2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := session.Record{ID: "s1", Agent: "gemini", Hook: c.h, Registry: c.r, Log: c.lg, Screen: c.sc}
			got := Combine(rec, c.live)
			if got.State != c.state || got.Reason != c.reason || got.Source != c.source {
				t.Fatalf("got %s(%s) by %s, want %s(%s) by %s", got.State, got.Reason, got.Source, c.state, c.reason, c.source)
			}
		})
	}
}

func TestCombineScreenDetails(t *testing.T) {
	h := hook(session.Waiting, session.ReasonPermission, 5)
	h.Tool, h.ToolDetail = "Bash", "touch x"
	sc := scr(session.ScreenBlocked, 5.5)
	sc.Tty, sc.Pid = "/dev/pts/3", 77
	got := Combine(session.Record{ID: "s1", Hook: h, Screen: sc}, Alive)
	if got.Tool != "Bash" || got.ToolDetail != "touch x" || got.Tmux != "%3" || got.Tty != "/dev/pts/3" || got.Pid != 77 || !got.Since.Equal(at(5)) { // the wait's own start
		t.Errorf("details: %+v", got)
	}
	got = Combine(session.Record{ID: "s2", Log: logState(session.Done, 6, "rollout:task_complete")}, Alive)
	if got.Cwd != "/p/log" || got.Agent != "claude" {
		t.Errorf("log details: %+v", got)
	}
}

// A turn the hooks report over with no reply (idle: Gemini CLI's AfterAgent
// with "[no response text]") whose screen shows an error since is failed;
// an error from long before it is not this turn's.
func TestIdleTurnWithAnErrorOnScreenFailed(t *testing.T) {
	ended := hook(session.Idle, "", 5)
	ended.Source = "hook:TurnNoReply"
	// A turn the person stopped (idle from its hooks) whose screen still
	// shows an earlier error is not failed (Qwen Code: Esc after an API
	// error, its idle_prompt).
	stopped := hook(session.Idle, "", 5)
	stopped.Source = "hook:Notification:input_idle"
	for _, c := range []struct {
		name string
		h    *session.HookState
		sc   *session.ScreenState
		want session.State
	}{
		{"the error drawn with the turn's end", ended, scr(session.ScreenFailed, 4.9), session.Failed},
		{"the error drawn after it", ended, scr(session.ScreenFailed, 5.3), session.Failed},
		{"an error from long before", ended, scr(session.ScreenFailed, 1), session.Idle},
		{"an idle screen", ended, scr(session.ScreenIdle, 5.3), session.Idle},
		{"an error on screen after an Esc", stopped, scr(session.ScreenFailed, 5.3), session.Idle},
	} {
		got := Combine(session.Record{ID: "g", Agent: "gemini", Hook: c.h, Screen: c.sc}, Alive)
		if got.State != c.want {
			t.Errorf("%s: %s by %s, want %s", c.name, got.State, got.Source, c.want)
		}
	}
}

// A dialog only the screen sees says what waits, in its own words: Codex's
// start-up "Hooks need review" is a wait for that, not a bare wait (issue
// 40, item 6). The hooks' own detail, when they report the wait, wins.
func TestScreenDialogNamesWhatWaits(t *testing.T) {
	now := time.Now()
	sc := &session.ScreenState{Agent: "codex", State: session.ScreenBlocked, Via: "tmux", Pane: "%3", Since: now, At: now,
		Prompt: "\n  Hooks need review\n  10 hooks are new or changed.\n› 1. Review hooks"}
	got := Combine(session.Record{ID: "tmux:%3", Agent: "codex", Screen: sc}, Alive)
	if got.State != session.Waiting || got.Reason != session.ReasonInput || got.ToolDetail != "Hooks need review" {
		t.Errorf("got %s(%s) %q, want waiting(input) \"Hooks need review\"", got.State, got.Reason, got.ToolDetail)
	}
}

// A dialog's detail from the screen is what it asks, not its border:
// OpenCode draws its question beside a gutter ("┃  Which framework?"),
// others in a box.
func TestScreenDetailLeavesTheBorderOut(t *testing.T) {
	for prompt, want := range map[string]string{
		"   ┃  Which framework?\n   ┃  1. React": "Which framework?",
		"│ Ready to start implementation? │":     "Ready to start implementation?",
		"╭────╮\n│ Allow x? │":                   "Allow x?",
		"  Do you want to proceed?":              "Do you want to proceed?",
	} {
		sc := &session.ScreenState{Agent: "opencode", State: session.ScreenBlocked, Reason: session.ReasonQuestion, Prompt: prompt, Via: "tmux"}
		if got := Combine(session.Record{ID: "s1", Agent: "opencode", Screen: sc}, Alive); got.ToolDetail != want {
			t.Errorf("%q: detail %q, want %q", prompt, got.ToolDetail, want)
		}
	}
}

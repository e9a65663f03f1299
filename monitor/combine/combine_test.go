package combine

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

var base = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func at(s float64) time.Time { return base.Add(time.Duration(s * float64(time.Second))) }

func hook(state session.State, reason session.Reason, t float64) *session.HookState {
	return &session.HookState{State: state, Reason: reason, Since: at(t), At: at(t), Source: "hook:X", Cwd: "/p/proj", Title: "fix it"}
}

func reg(status, waitingFor string, t float64) *session.RegistryState {
	return &session.RegistryState{Status: status, WaitingFor: waitingFor, At: at(t), Pid: 42, Cwd: "/p/reg", Name: "proj-ab"}
}

func TestCombineRules(t *testing.T) {
	stopped := hook(session.Done, "", 5)
	stopped.StopSeen = true
	failed := hook(session.Failed, "", 5)
	failed.Failure = "rate_limit"
	askWait := hook(session.Waiting, session.ReasonQuestion, 4)
	askWait.Tool = "AskUserQuestion"

	cases := []struct {
		name   string
		h      *session.HookState
		r      *session.RegistryState
		live   Liveness
		state  session.State
		reason session.Reason
		source string
	}{
		{"dead process → exited", hook(session.Waiting, session.ReasonPermission, 5), reg("waiting", "permission prompt", 6), Dead, session.Exited, "", "process:gone"},
		{"SessionEnd → exited even with a busy registry", hook(session.Exited, "", 6), reg("busy", "", 6.1), Alive, session.Exited, "", "hook:X"},
		{"no registry: hooks decide", hook(session.Waiting, session.ReasonPermission, 5), nil, Alive, session.Waiting, session.ReasonPermission, "hook:X"},
		{"registry file gone: hooks decide", hook(session.Working, "", 5), &session.RegistryState{Status: "busy", Gone: true, At: at(9)}, Alive, session.Working, "", "hook:X"},
		{"registry without a status yet: hooks decide", hook(session.Working, "", 5), reg("", "", 9), Alive, session.Working, "", "hook:X"},
		{"registry only: busy → working", nil, reg("busy", "", 5), Alive, session.Working, "", "registry:busy"},
		{"registry only: waiting → permission from waitingFor", nil, reg("waiting", "permission prompt", 5), Alive, session.Waiting, session.ReasonPermission, "registry:waiting"},
		{"registry only: waiting for input", nil, reg("waiting", "input needed", 5), Alive, session.Waiting, session.ReasonInput, "registry:waiting"},
		{"registry only: fresh idle → idle", nil, reg("idle", "", 5), Alive, session.Idle, "", "registry:idle"},
		{"registry only: gone → exited", nil, &session.RegistryState{Gone: true, At: at(5)}, Unknown, session.Exited, "", "registry:gone"},
		{"registry waiting shows at once over an older hook", hook(session.Working, "", 5), reg("waiting", "permission prompt", 5.2), Alive, session.Waiting, session.ReasonPermission, "registry:waiting"},
		{"hooks know the reason better (question)", askWait, reg("waiting", "input needed", 4.3), Alive, session.Waiting, session.ReasonQuestion, "hook:X"},
		{"a newer hook event beats an older registry waiting", hook(session.Working, "", 6), reg("waiting", "permission prompt", 5.2), Alive, session.Working, "", "hook:X"},
		{"a newer registry busy beats an older hook waiting (answered)", hook(session.Waiting, session.ReasonPermission, 5), reg("busy", "", 6), Alive, session.Working, "", "registry:busy"},
		{"a newer hook waiting beats an older registry busy", hook(session.Waiting, session.ReasonPermission, 6), reg("busy", "", 5), Alive, session.Waiting, session.ReasonPermission, "hook:X"},
		{"busy beats a newer hook-derived done", stopped, reg("busy", "", 4), Alive, session.Working, "", "registry:busy"},
		{"registry idle after a Stop → done", stopped, reg("idle", "", 5.1), Alive, session.Done, "", "registry:idle"},
		{"registry idle after a StopFailure → failed", failed, reg("idle", "", 5.1), Alive, session.Failed, "", "registry:idle"},
		{"registry idle with no Stop (Esc) → idle", hook(session.Working, "", 3), reg("idle", "", 4), Alive, session.Idle, "", "registry:idle"},
		{"registry idle on a prompt (Esc on the prompt) → idle", hook(session.Waiting, session.ReasonPermission, 3), reg("idle", "", 4), Alive, session.Idle, "", "registry:idle"},
		{"an older registry idle loses to a new prompt", hook(session.Working, "", 5), reg("idle", "", 4), Alive, session.Working, "", "hook:X"},
		{"a tie goes to the hooks", hook(session.Waiting, session.ReasonPlan, 5), reg("busy", "", 5), Alive, session.Waiting, session.ReasonPlan, "hook:X"},
		{"an unknown registry status leaves the hooks in charge", hook(session.Working, "", 3), reg("compacting", "", 9), Alive, session.Working, "", "hook:X"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := session.Record{ID: "s1", Hook: c.h, Registry: c.r}
			got := Combine(rec, c.live)
			if got.State != c.state || got.Reason != c.reason || got.Source != c.source {
				t.Fatalf("got %s(%s) by %s, want %s(%s) by %s", got.State, got.Reason, got.Source, c.state, c.reason, c.source)
			}
			if got.State != session.Waiting && (got.Tool != "" || got.Reason != "") {
				t.Fatalf("tool/reason shown outside waiting: %+v", got)
			}
		})
	}
}

func TestCombineDetails(t *testing.T) {
	h := hook(session.Waiting, session.ReasonPermission, 5)
	h.Tool, h.ToolDetail, h.LastMessage = "Bash", "rm -rf build", "prev"
	rec := session.Record{ID: "s1", Hook: h, Registry: reg("waiting", "permission prompt", 5.2),
		Process: &session.Process{Pid: 7, Tty: "/dev/ttys003", Tmux: &session.Tmux{Pane: "%3"}}}
	got := Combine(rec, Alive)
	if got.Cwd != "/p/proj" || got.Title != "fix it" || got.Pid != 7 || got.Tty != "/dev/ttys003" || got.Tmux != "%3" {
		t.Fatalf("details: %+v", got)
	}
	if got.Tool != "Bash" || got.ToolDetail != "rm -rf build" || !got.HooksSeen || !got.Registry || got.Agent != "claude" {
		t.Fatalf("details: %+v", got)
	}
	if !got.Since.Equal(at(5)) {
		t.Fatalf("since = %v, want the hook's earlier start of the same wait", got.Since)
	}
	// Registry-only sessions borrow the registry's cwd and name.
	got = Combine(session.Record{ID: "s2", Registry: reg("busy", "", 1)}, Alive)
	if got.Cwd != "/p/reg" || got.Title != "proj-ab" || got.Pid != 42 || got.HooksSeen {
		t.Fatalf("registry-only details: %+v", got)
	}
}

func TestProject(t *testing.T) {
	for in, want := range map[string]string{"/Users/dev/proj": "proj", "": "?", "/": "/", "/a/b/": "b"} {
		if got := Project(in); got != want {
			t.Errorf("Project(%q) = %q, want %q", in, got, want)
		}
	}
}

// Claude's registry names its pane `session:@window.%pane`: the server is
// still the process's, so two servers' %7 read differently.
func TestTmuxServerOfClaudeRegistryPane(t *testing.T) {
	rec := func(socket string) session.Record {
		r := reg("busy", "", 5)
		r.Tmux = "work:@7.%7"
		return session.Record{ID: "s", Registry: r, Process: &session.Process{Pid: 42, Tmux: &session.Tmux{Socket: socket, Pane: "%7"}}}
	}
	a, b := Combine(rec("/tmp/tmux-1000/default"), Alive), Combine(rec("/tmp/tmux-1000/work"), Alive)
	if a.TmuxServer != "/tmp/tmux-1000/default" || b.TmuxServer != "/tmp/tmux-1000/work" {
		t.Errorf("tmux servers %q and %q", a.TmuxServer, b.TmuxServer)
	}
	// Another pane of the same name elsewhere (%17) is not this one.
	r := rec("/tmp/tmux-1000/work")
	r.Process.Tmux.Pane = "%17"
	if got := Combine(r, Alive).TmuxServer; got != "" {
		t.Errorf("server %q for another pane", got)
	}
}

// A watcher started while a session waits first sees the dialog now: the
// wait's age is still the hooks' (its own start), not the watcher's.
func TestWaitAgeIsTheWaitsOwnStart(t *testing.T) {
	h := hook(session.Waiting, session.ReasonPermission, 5)
	sc := &session.ScreenState{State: session.ScreenBlocked, Via: "tmux", Agent: "claude", Since: at(120), At: at(120)}
	out := Combine(session.Record{ID: "w", Hook: h, Screen: sc}, Alive)
	if out.State != session.Waiting || !out.Since.Equal(at(5)) {
		t.Errorf("state %s since %v, want waiting since %v", out.State, out.Since, at(5))
	}
	// A prompt went away after the hooks' wait began: this is another one.
	sc.Unblocked = at(60)
	if out := Combine(session.Record{ID: "w", Hook: h, Screen: sc}, Alive); !out.Since.Equal(at(120)) {
		t.Errorf("since %v, want the screen's %v", out.Since, at(120))
	}
}

package monitor_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
)

// hookDuringScan is a tmux source whose read of the pane happens after the
// agent's hook reported: its Scan first lets the hook write (Cline runs
// its PreToolUse hook for ask_question, then draws the dialog), then
// returns the dialog it "read".
type hookDuringScan struct {
	hook   func()
	screen monitor.Observation
}

func (s hookDuringScan) Name() string { return "tmux" }
func (s hookDuringScan) Scan(context.Context) ([]monitor.Observation, error) {
	s.hook()
	return []monitor.Observation{s.screen}, nil
}
func (s hookDuringScan) Watch(ctx context.Context, _ chan<- []monitor.Observation) error {
	<-ctx.Done()
	return nil
}

// A one-shot `mew status` whose screen read shows a question its hooks
// reported before it was drawn shows the hooks' question, not the
// dialog's header: the store is read after the screens, so a hook written
// while the panes were read is known (TestClineQuestion once showed
// "Cline is asking a question": the store had been read before the hook).
func TestSnapshotReadsHooksAfterTheScreen(t *testing.T) {
	e := newEnv(t)
	st := e.opts.Store
	proc := session.Process{Pid: e.self.Pid, StartMs: e.self.StartMs, Tmux: &session.Tmux{Pane: "%7"}}
	since := time.Now().Add(-time.Second)
	put := func(h session.HookState) func() {
		return func() {
			_, err := st.Update("cline-1", time.Second, func(rec *session.Record, _ bool) bool {
				rec.Agent = session.AgentCline
				rec.Hook = &h
				p := proc
				rec.Process = &p
				return true
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	put(session.HookState{State: session.Working, Since: since, At: since, Source: "hook:UserPromptSubmit"})()
	asked := time.Now()
	now := asked.Add(100 * time.Millisecond)
	scr := monitor.Observation{Fallback: "tmux:%7", Agent: session.AgentCline, Process: proc, Screen: &session.ScreenState{
		Agent: session.AgentCline, State: session.ScreenBlocked, Reason: session.ReasonQuestion, Rule: "cline/blocked#3",
		Prompt: "Cline is asking a question\nWhich framework?\n> React\nVue", Since: now, At: now,
		Via: "tmux", Pane: "%7", Pid: proc.Pid, StartMs: proc.StartMs,
	}}
	e.opts.Sources = []monitor.Source{hookDuringScan{screen: scr, hook: put(session.HookState{
		State: session.Waiting, Reason: session.ReasonQuestion, Since: asked, At: asked, Source: "hook:PreToolUse",
		Tool: "AskUserQuestion", ToolDetail: "Which framework?",
	})}}
	shown, errs := monitor.Snapshot(e.opts)
	if len(errs) > 0 || len(shown) != 1 {
		t.Fatalf("%d shown, errors %v: %+v", len(shown), errs, shown)
	}
	if s := shown[0]; s.ID != "cline-1" || s.State != session.Waiting || s.Reason != session.ReasonQuestion || s.ToolDetail != "Which framework?" {
		t.Errorf("shown %s %s(%s) %q by %s, want cline-1 waiting(question) \"Which framework?\"", s.ID, s.State, s.Reason, s.ToolDetail, s.Source)
	}
}

// pushSource sends the reports it is given.
type pushSource struct{ sets chan []monitor.Observation }

func (s pushSource) Name() string                                        { return "tmux" }
func (s pushSource) Scan(context.Context) ([]monitor.Observation, error) { return nil, nil }
func (s pushSource) Watch(ctx context.Context, out chan<- []monitor.Observation) error {
	for {
		select {
		case obs := <-s.sets:
			select {
			case out <- obs:
			case <-ctx.Done():
				return nil
			}
		case <-ctx.Done():
			return nil
		}
	}
}

// The long-running monitor too: a dialog its screen source reports the
// moment after the hook that asked it was written (its file event not
// yet taken in) shows the hooks' question from its first update on. A
// race on the old code (the report and the file event were taken in
// either order): ten questions, each must show its own from the start.
func TestWatchReadsHooksBeforeADialog(t *testing.T) {
	e := newEnv(t)
	st := e.opts.Store
	proc := session.Process{Pid: e.self.Pid, StartMs: e.self.StartMs, Tmux: &session.Tmux{Pane: "%7"}}
	put := func(h session.HookState) {
		t.Helper()
		_, err := st.Update("cline-1", time.Second, func(rec *session.Record, _ bool) bool {
			rec.Agent = session.AgentCline
			rec.Hook = &h
			p := proc
			rec.Process = &p
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	screen := func(state, prompt string) []monitor.Observation {
		now := time.Now()
		sc := &session.ScreenState{Agent: session.AgentCline, State: state, Prompt: prompt, Since: now, At: now,
			Via: "tmux", Pane: "%7", Pid: proc.Pid, StartMs: proc.StartMs}
		if state == session.ScreenBlocked {
			sc.Reason = session.ReasonQuestion
		}
		return []monitor.Observation{{Fallback: "tmux:%7", Agent: session.AgentCline, Process: proc, Screen: sc}}
	}
	put(session.HookState{State: session.Working, Since: time.Now(), At: time.Now(), Source: "hook:UserPromptSubmit"})
	src := pushSource{sets: make(chan []monitor.Observation)}
	e.opts.Sources = []monitor.Source{src}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates, err := monitor.Watch(ctx, e.opts)
	if err != nil {
		t.Fatal(err)
	}
	first := func(ok func(session.Shown) bool) session.Shown {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			select {
			case u := <-updates:
				if len(u.Sessions) == 1 && ok(*u.Sessions[0]) {
					return *u.Sessions[0]
				}
			case <-deadline:
				t.Fatal("never shown")
			}
		}
	}
	for i := range 10 {
		at := time.Now()
		put(session.HookState{State: session.Working, Since: at, At: at, Source: "hook:PostToolUse"})
		src.sets <- screen(session.ScreenWorking, "")
		first(func(s session.Shown) bool {
			return s.State == session.Working && s.Source == "hook:PostToolUse" && !s.Since.Before(at)
		})
		q := fmt.Sprintf("Question %d?", i)
		at = time.Now()
		put(session.HookState{State: session.Waiting, Reason: session.ReasonQuestion, Since: at, At: at,
			Source: "hook:PreToolUse", Tool: "AskUserQuestion", ToolDetail: q})
		src.sets <- screen(session.ScreenBlocked, "Cline is asking a question\n"+q)
		if s := first(func(s session.Shown) bool { return s.State == session.Waiting }); s.ToolDetail != q {
			t.Errorf("question %d first shown as %q by %s, want %q", i, s.ToolDetail, s.Source, q)
		}
	}
}

package monitor_test

import (
	"context"
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

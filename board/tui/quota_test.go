package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

func TestQuotaBarOnTheBoard(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.Local)
	ctx := 34.0
	s := session.Shown{ID: "s1", Agent: session.AgentClaude, State: session.Working, Since: now, Cwd: "/p/app", Title: "t",
		Usage: &session.Usage{At: now, ContextPercent: &ctx, FiveHour: &session.Quota{UsedPercent: 70, ResetsAt: now.Add(2 * time.Hour)}, Weekly: &session.Quota{UsedPercent: 95}}}
	out := Render([]session.Shown{s}, board.DefaultConfig(), now, 100)
	for _, want := range []string{"ctx 34% · t", "claude           5h    ███████░░░  70%  resets 14:00", "claude           week  ██████████  95%", "claude week quota at 95%"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	s.Usage = nil
	if out := Render([]session.Shown{s}, board.DefaultConfig(), now, 100); strings.Contains(out, "░") || strings.Contains(out, "ctx") {
		t.Errorf("a bar with no reading:\n%s", out)
	}
}

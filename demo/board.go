// Package demo shows Mew without an agent: a fixed board for the README's
// picture and golden tests, and a scripted run of simulated sessions
// through the real mew-hook for `mew demo`.
package demo

import (
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

// BoardTime is the moment the fixed demo board shows.
var BoardTime = time.Date(2026, 1, 15, 9, 30, 0, 0, time.UTC)

// BoardTick is the simulation step the fixed demo board shows.
const BoardTick = 5

// Board returns the fixed demo board's sessions: one of every state the
// panel lists, with fixed ids (so fixed cats) and times relative to
// BoardTime. With quiet, an idle and an exited session are added.
func Board(quiet bool) []session.Shown {
	ago := func(d time.Duration) time.Time { return BoardTime.Add(-d) }
	s := []session.Shown{
		{
			ID: "9b1f6c1e-5a0e-4a37-9f6d-1c2a7e0b4d11", State: session.Waiting, Reason: session.ReasonPermission,
			Since: ago(2*time.Minute + 14*time.Second), Cwd: "/Users/dev/src/checkout-api",
			Tool: "Bash", ToolDetail: "npm test -- --watch=false", Title: "make the tests pass",
		},
		{
			ID: "3c5d7e2a-8b41-4f0e-a2c6-5e9d1b7f3a20", State: session.Waiting, Reason: session.ReasonQuestion,
			Since: ago(41 * time.Second), Cwd: "/Users/dev/src/web-app",
			Tool: "AskUserQuestion", ToolDetail: "Which framework?", Title: "start the settings page",
		},
		{
			ID: "e4a2b9c0-1d3f-4e5a-b6c7-d8e9f0a1b2c3", State: session.Waiting, Reason: session.ReasonPlan,
			Since: ago(9 * time.Second), Cwd: "/Users/dev/src/infra",
			Tool: "ExitPlanMode", ToolDetail: "Move the job queue to SQS", Title: "plan the queue move",
		},
		{
			ID: "71c0d5e8-2f9a-4b6c-8d1e-3a5f7b9c0e12", State: session.Done,
			Since: ago(5*time.Minute + 3*time.Second), Cwd: "/Users/dev/src/docs-site",
			LastMessage: "Updated the install guide and fixed two broken links.",
		},
		{
			ID: "a8f3e1d2-6c4b-4a59-9e7d-0b2c4d6e8f05", State: session.Failed,
			Since: ago(3*time.Minute + 30*time.Second), Cwd: "/Users/dev/src/ml-pipeline",
			LastMessage: "API Error: 529 overloaded",
		},
		{
			ID: "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9", State: session.Working, Agent: session.AgentCodex,
			Since: ago(38 * time.Second), Cwd: "/Users/dev/src/mobile",
			Title: "fix the login flow on Android",
		},
		{
			ID: "0d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a", State: session.Working,
			Since: ago(12 * time.Minute), Cwd: "/Users/dev/src/search",
			Title: "add fuzzy matching to the search box",
		},
	}
	if quiet {
		s = append(s,
			session.Shown{
				ID: "c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f", State: session.Idle,
				Since: ago(20 * time.Minute), Cwd: "/Users/dev/src/dotfiles", Title: "tidy the zsh config",
			},
			session.Shown{
				ID: "f0e1d2c3-b4a5-4968-8776-5a4b3c2d1e0f", State: session.Exited,
				Since: ago(7 * time.Minute), Cwd: "/Users/dev/src/blog", Title: "draft the release post",
			},
		)
	}
	for i := range s {
		if s[i].Agent == "" {
			s[i].Agent = session.AgentClaude // one Codex among them: each row names its agent
		}
		s[i].Source = "demo"
		s[i].HooksSeen = true
	}
	return s
}

// BoardFrame draws the fixed demo board: the README's picture (without
// quiet sessions) and the golden images.
func BoardFrame(quiet bool) board.Frame {
	cfg := board.DefaultConfig()
	cfg.ShowQuiet = quiet
	return board.Draw(board.Arrange(Board(quiet), BoardTime, cfg), BoardTime, BoardTick)
}

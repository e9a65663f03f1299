// Package usage reads what agents report of their usage — Claude Code's
// statusline input, Codex's token_count lines — into session.Usage, and
// sums the readings up per account (Accounts). It never estimates: a figure
// an agent does not report stays unset. The statusline input is decoded
// with generated code (easyjson), as mew-hook runs it on every redraw.
package usage

import (
	"errors"
	"math"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// ClaudeStatus is the part of Claude Code's statusline input Mew reads
// (measured on 2.1.328: the CLI passes 57 keys; these are the usage ones).
type ClaudeStatus struct {
	SessionID string `json:"session_id"`
	Cwd       string `json:"cwd"`
	Model     struct {
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
	} `json:"model"`
	Cost struct {
		TotalCostUSD *float64 `json:"total_cost_usd"`
	} `json:"cost"`
	ContextWindow struct {
		TotalInputTokens  int64    `json:"total_input_tokens"`
		TotalOutputTokens int64    `json:"total_output_tokens"`
		ContextWindowSize int64    `json:"context_window_size"`
		UsedPercentage    *float64 `json:"used_percentage"`
		CurrentUsage      *struct {
			InputTokens              int64 `json:"input_tokens"`
			CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
			CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
		} `json:"current_usage"`
	} `json:"context_window"`
	RateLimits *struct {
		FiveHour *ClaudeWindow `json:"five_hour"`
		SevenDay *ClaudeWindow `json:"seven_day"`
	} `json:"rate_limits"`
}

// ClaudeWindow is one of Claude Code's rate-limit windows: the percentage
// used and when it resets (Unix seconds).
type ClaudeWindow struct {
	UsedPercentage *float64 `json:"used_percentage"`
	ResetsAt       *float64 `json:"resets_at"`
}

// ErrNoSession: the input names no session Mew could file it under.
var ErrNoSession = errors.New("statusline input has no valid session_id")

// FromClaude parses one statusline input, seen at now.
func FromClaude(data []byte, now time.Time) (id string, u session.Usage, err error) {
	var st ClaudeStatus
	if err := st.UnmarshalJSON(data); err != nil {
		return "", u, err
	}
	if !session.ValidID(st.SessionID) {
		return "", u, ErrNoSession
	}
	u = session.Usage{At: now, Source: "statusline", Model: text.OneLine(firstOf(st.Model.DisplayName, st.Model.ID), 64)}
	cw := st.ContextWindow
	if p, ok := percent(cw.UsedPercentage); ok {
		u.ContextPercent = &p
	}
	if cw.ContextWindowSize > 0 {
		u.ContextSize = cw.ContextWindowSize
	}
	if c := cw.CurrentUsage; c != nil {
		if used := c.InputTokens + c.CacheCreationInputTokens + c.CacheReadInputTokens; used > 0 {
			u.ContextUsed = used
		}
	}
	if t := cw.TotalInputTokens + cw.TotalOutputTokens; t > 0 {
		u.TotalTokens = t
	}
	if c := st.Cost.TotalCostUSD; c != nil && *c >= 0 && !math.IsInf(*c, 0) && !math.IsNaN(*c) {
		v := *c
		u.CostUSD = &v
	}
	if rl := st.RateLimits; rl != nil {
		u.FiveHour, u.Weekly = claudeQuota(rl.FiveHour), claudeQuota(rl.SevenDay)
	}
	return st.SessionID, u, nil
}

func claudeQuota(w *ClaudeWindow) *session.Quota {
	if w == nil {
		return nil
	}
	p, ok := percent(w.UsedPercentage)
	if !ok {
		return nil
	}
	return &session.Quota{UsedPercent: p, ResetsAt: unixTime(w.ResetsAt)}
}

// percent accepts a reported percentage as a percentage: finite, 0-100
// (above 100 is kept: an agent can report being over its limit).
func percent(p *float64) (float64, bool) {
	if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) || *p < 0 || *p > 1000 {
		return 0, false
	}
	return *p, true
}

// unixTime reads Unix seconds; zero for none or an absurd value.
func unixTime(s *float64) time.Time {
	if s == nil || math.IsNaN(*s) || *s <= 0 || *s > 1e11 {
		return time.Time{}
	}
	return time.Unix(int64(*s), 0).UTC()
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

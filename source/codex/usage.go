package codex

import (
	"encoding/json"
	"math"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// token_count, as Codex 0.169-0.171 writes it after each model reply:
// info.total_token_usage and info.model_context_window for the session,
// rate_limits.primary / secondary for the account (what the API's
// x-codex-primary-used-percent, -window-minutes, -reset-at headers said;
// null when it sent none, as with an API key).
type rawTokenCount struct {
	Info *struct {
		Total *struct {
			TotalTokens int64 `json:"total_tokens"`
		} `json:"total_token_usage"`
		Last *struct {
			InputTokens int64 `json:"input_tokens"`
			TotalTokens int64 `json:"total_tokens"`
		} `json:"last_token_usage"`
		ContextWindow int64 `json:"model_context_window"`
	} `json:"info"`
	RateLimits *struct {
		Primary   *rawWindow `json:"primary"`
		Secondary *rawWindow `json:"secondary"`
		PlanType  *string    `json:"plan_type"`
	} `json:"rate_limits"`
}

type rawWindow struct {
	UsedPercent   *float64 `json:"used_percent"`
	WindowMinutes *int64   `json:"window_minutes"`
	ResetsAt      *float64 `json:"resets_at"` // Unix seconds
}

// The windows Mew names: Codex's primary is 5 h and its secondary a week
// on the plans measured; a window of another length is left out rather
// than shown under the wrong name.
const (
	fiveHourMinutes = 300
	weekMinutes     = 7 * 24 * 60
)

// tokenCount reads a token_count payload; nil when it says nothing.
func tokenCount(payload []byte, at time.Time) *session.Usage {
	var p rawTokenCount
	if json.Unmarshal(payload, &p) != nil {
		return nil
	}
	u := session.Usage{At: at, Source: "rollout:token_count"}
	if i := p.Info; i != nil {
		if i.Total != nil && i.Total.TotalTokens > 0 {
			u.TotalTokens = i.Total.TotalTokens
		}
		if i.ContextWindow > 0 {
			u.ContextSize = i.ContextWindow
			if i.Last != nil && i.Last.TotalTokens > 0 {
				// The last request's tokens are what the context holds now.
				u.ContextUsed = i.Last.TotalTokens
				pct := math.Min(100*float64(u.ContextUsed)/float64(u.ContextSize), 100)
				u.ContextPercent = &pct
			}
		}
	}
	if rl := p.RateLimits; rl != nil {
		for _, w := range []*rawWindow{rl.Primary, rl.Secondary} {
			q, minutes := window(w)
			switch {
			case q == nil:
			case minutes == fiveHourMinutes:
				u.FiveHour = q
			case minutes == weekMinutes:
				u.Weekly = q
			}
		}
		if rl.PlanType != nil {
			u.Account = text.OneLine(*rl.PlanType, 32)
		}
	}
	if u.TotalTokens == 0 && u.ContextSize == 0 && u.FiveHour == nil && u.Weekly == nil {
		return nil
	}
	return &u
}

func window(w *rawWindow) (*session.Quota, int64) {
	if w == nil || w.UsedPercent == nil || w.WindowMinutes == nil {
		return nil, 0
	}
	p := *w.UsedPercent
	if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 || p > 1000 {
		return nil, 0
	}
	q := &session.Quota{UsedPercent: p}
	if r := w.ResetsAt; r != nil && *r > 0 && *r < 1e11 {
		q.ResetsAt = time.Unix(int64(*r), 0).UTC()
	}
	return q, *w.WindowMinutes
}

// foldUsage keeps the newest reading; the account's quota stays from an
// earlier line when a later one reports none (a reply without the
// headers says nothing about the quota).
func foldUsage(st *session.LogState, u *session.Usage) {
	if u == nil || (st.Usage != nil && st.Usage.At.After(u.At)) {
		return
	}
	n := *u
	if old := st.Usage; old != nil && n.FiveHour == nil && n.Weekly == nil {
		n.FiveHour, n.Weekly, n.Account = old.FiveHour, old.Weekly, old.Account
	}
	st.Usage = &n
}

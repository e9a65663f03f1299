package usage

import (
	"slices"
	"strings"
	"time"

	"github.com/mew-dev/mew/session"
)

// StaleAfter is when a reading is old enough to say its age: Claude Code
// redraws its statusline at least on every message, Codex writes a
// token_count after every model reply, so an older reading is from an
// agent that has been quiet since.
const StaleAfter = 5 * time.Minute

// Account is one account's quota of one agent, on one machine: the newest
// reading any of its sessions reported.
type Account struct {
	Host    string `json:"host,omitempty"` // "" for this machine
	Agent   string `json:"agent"`
	Account string `json:"account,omitempty"`
	// FiveHour and Weekly are nil when the agent did not report them.
	FiveHour *session.Quota `json:"five_hour,omitempty"`
	Weekly   *session.Quota `json:"weekly,omitempty"`
	At       time.Time      `json:"at"`      // when the agent reported it
	Session  string         `json:"session"` // the session that reported it
}

// Accounts gathers the quota readings of the shown sessions, the newest per
// host, agent and account, in the order of session.Agents. Sessions with no
// quota reading (OpenCode, Gemini CLI, an API-key Claude Code) add nothing.
func Accounts(shown []session.Shown) []Account {
	type key struct{ host, agent, account string }
	best := map[key]int{}
	var out []Account
	for _, s := range shown {
		u := s.Usage
		if u == nil || (u.FiveHour == nil && u.Weekly == nil) {
			continue
		}
		k := key{s.Host, s.Agent, u.Account}
		a := Account{Host: s.Host, Agent: s.Agent, Account: u.Account, FiveHour: u.FiveHour, Weekly: u.Weekly, At: u.At, Session: s.ID}
		if i, ok := best[k]; ok {
			if u.At.After(out[i].At) {
				out[i] = a
			}
			continue
		}
		best[k] = len(out)
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b Account) int {
		if c := strings.Compare(a.Host, b.Host); c != 0 {
			return c
		}
		if c := agentRank(a.Agent) - agentRank(b.Agent); c != 0 {
			return c
		}
		return strings.Compare(a.Account, b.Account)
	})
	return out
}

func agentRank(a string) int {
	if i := slices.Index(session.Agents, a); i >= 0 {
		return i
	}
	return len(session.Agents)
}

// Stale reports whether a reading taken at at is old enough, at now, to
// say how old it is.
func Stale(at, now time.Time) bool { return now.Sub(at) > StaleAfter }

// Reset reports whether q's window has reset since it was read: its
// percentage no longer says anything about now.
func Reset(q *session.Quota, now time.Time) bool {
	return q != nil && !q.ResetsAt.IsZero() && !now.Before(q.ResetsAt)
}

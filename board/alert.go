package board

import (
	"sort"
	"time"

	"github.com/mew-dev/mew/session"
)

// Alert is a sound due because a session newly needs the person.
type Alert struct {
	ID      string
	Project string
	State   session.State
	Reason  session.Reason
	Sound   string
}

// Sounds name the sound of each reason (macOS system sounds; the terminal
// board rings its bell for waiting alone). Done and failed are keyed by
// their state.
var Sounds = map[string]string{
	string(session.ReasonPermission): "Ping",
	string(session.ReasonQuestion):   "Purr",
	string(session.ReasonPlan):       "Glass",
	string(session.ReasonInput):      "Pop",
	string(session.Done):             "Hero",
	string(session.Failed):           "Basso",
}

// SoundFor returns the sound of a needs-you state, "" for the others.
func SoundFor(st session.State, r session.Reason) string {
	switch st {
	case session.Waiting:
		if s, ok := Sounds[string(r)]; ok {
			return s
		}
		return Sounds[string(session.ReasonInput)]
	case session.Done, session.Failed:
		return Sounds[string(st)]
	}
	return ""
}

type shownKey struct {
	state  session.State
	reason session.Reason
}

type cooldownKey struct {
	id    string
	state session.State
}

// alerter rings when a session's shown state becomes waiting, done or
// failed (or a wait changes reason), at most once per session and state
// per cooldown. The first update only learns: a Mew that starts while
// sessions already wait opens its panel without a chorus.
type alerter struct {
	cooldown time.Duration
	started  bool
	last     map[string]shownKey
	rang     map[cooldownKey]time.Time
}

func (a *alerter) update(rows []Row, now time.Time) []Alert {
	next := make(map[string]shownKey, len(rows))
	var out []Alert
	for _, r := range rows {
		k := shownKey{r.State, r.Reason}
		next[r.Session.ID] = k
		if !a.started || !r.NeedsYou() {
			continue
		}
		if prev, ok := a.last[r.Session.ID]; ok && prev == k {
			continue
		}
		ck := cooldownKey{r.Session.ID, r.State}
		if t, ok := a.rang[ck]; ok && now.Sub(t) < a.cooldown && !now.Before(t) {
			continue
		}
		if a.rang == nil {
			a.rang = map[cooldownKey]time.Time{}
		}
		a.rang[ck] = now
		out = append(out, Alert{
			ID: r.Session.ID, Project: r.Project, State: r.State, Reason: r.Reason,
			Sound: SoundFor(r.State, r.Reason),
		})
	}
	a.started = true
	a.last = next
	for k, t := range a.rang {
		if now.Sub(t) >= a.cooldown || now.Before(t) {
			delete(a.rang, k)
		}
	}
	// Rows are already ordered by urgency; keep that, waiting first.
	sort.SliceStable(out, func(i, j int) bool {
		return groupOf(out[i].State) < groupOf(out[j].State)
	})
	return out
}

// Verb says what the alert's session does, for a notification's title
// (the panel's banners and every notify sink say it alike).
func (a Alert) Verb() string {
	switch a.State {
	case session.Done:
		return "is done"
	case session.Failed:
		return "failed"
	}
	switch a.Reason {
	case session.ReasonPermission:
		return "needs your permission"
	case session.ReasonQuestion:
		return "has a question"
	case session.ReasonPlan:
		return "has a plan for you to review"
	}
	return "is waiting for you"
}

package app

import (
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

// alertSound is the one sound to play for the alerts of one update: the
// most urgent (they come ordered), so a burst rings once. "" for none.
func alertSound(alerts []board.Alert, s appSettings) string {
	if !s.Sounds {
		return ""
	}
	for _, a := range alerts {
		if a.Sound != "" {
			return a.Sound
		}
	}
	return ""
}

// notification is one macOS notification.
type notification struct {
	// ID identifies it to the notification center: one per session, so a
	// newer alert of the same session replaces the older one.
	ID    string
	Title string
	Body  string
}

const (
	notifyTitleRunes = 80
	notifyBodyRunes  = 240
)

// notifications are the notifications to post for alerts, given the rows
// of the same update (for the details). None when the setting is off or
// notifications cannot be used here.
func notifications(alerts []board.Alert, rows []board.Row, s appSettings, available bool) []notification {
	if !s.Notifications || !available {
		return nil
	}
	byID := make(map[string]board.Row, len(rows))
	for _, r := range rows {
		byID[r.Session.ID] = r
	}
	var out []notification
	for _, a := range alerts {
		if !session.ValidID(a.ID) {
			continue
		}
		project := a.Project
		if project == "" {
			project = "A session"
		}
		title := project + " " + a.Verb()
		var body string
		if r, ok := byID[a.ID]; ok {
			body = sessionTip(r)
		}
		out = append(out, notification{
			ID:    bundleID + ".session." + a.ID,
			Title: oneLine(title, notifyTitleRunes),
			Body:  oneLine(body, notifyBodyRunes),
		})
	}
	return out
}

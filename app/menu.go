package app

import (
	"fmt"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"

	"github.com/mew-dev/mew/internal/text"
)

// action is what choosing a menu item does.
type action int

const (
	actionNone                action = iota // a label
	actionJump                              // bring menuItem.SessionID's terminal forward
	actionShowPanel                         // the person opens the panel
	actionHidePanel                         // the person closes it
	actionInstallHooks                      // `mew install --plan`: the changes, listed in the message window
	actionConfirm                           // the person goes ahead with the pending confirmation (install)
	actionDoctor                            // `mew doctor`, result in a dialog
	actionShowLog                           // the end of $MEW_HOME/mew.log, in the message window
	actionToggleSounds                      // the Sounds setting
	actionToggleNotifications               // the notifications setting
	actionToggleLogin                       // Launch at login
	actionQuit
	actionToggleMute   // mute menuItem.SessionID's alerts, or unmute it
	actionToggleSnooze // snooze them for an hour, or end the snooze
	actionPairDevice   // start the web board (once) and show a pairing code
)

// menuItem is one line of the status item's menu. A zero menuItem with
// Separator set is a separator line.
type menuItem struct {
	Separator bool
	Title     string
	ToolTip   string
	Action    action
	SessionID string // for actionJump: a valid session id
	Enabled   bool
	Checked   bool
	Key       string // key equivalent, "" for none
}

// toggle is a setting's menu state.
type toggle struct {
	On bool
	// Unavailable says why the setting cannot be used here ("" when it
	// can); the item is then disabled and says so.
	Unavailable string
}

// menuState is everything the menu shows.
type menuState struct {
	Rows          []board.Row
	Problems      int // sources the monitor could not read
	PanelShown    bool
	Sounds        bool
	Notifications toggle
	Login         loginState
	// Confirm names the step a message is waiting for the person's
	// go-ahead on ("Install"); "" for none. The message window has no
	// buttons (it never takes the keyboard): the menu carries the choice.
	Confirm string
	// Muted and Snoozed are the person's per-session alert settings
	// (internal/alertprefs), Snoozed as the time each snooze ends.
	Muted   map[string]bool
	Snoozed map[string]time.Time
	Now     time.Time
}

// maxMuteItems bounds the Mute/Snooze lines: the sessions that need the
// person, most urgent first.
const maxMuteItems = 4

// muteItems are a Mute and a Snooze line for each session that needs the
// person (or is muted or snoozed now, so it can be undone).
func muteItems(st menuState) []menuItem {
	var items []menuItem
	n := 0
	for _, r := range st.Rows {
		id := r.Session.ID
		snoozed := st.Now.Before(st.Snoozed[id])
		if !session.ValidID(id) || !(r.NeedsYou() || st.Muted[id] || snoozed) {
			continue
		}
		if n == maxMuteItems {
			break
		}
		n++
		name := oneLine(r.Project, 30)
		snooze := menuItem{Title: "Snooze " + name + " for 1 Hour", Action: actionToggleSnooze, SessionID: id, Enabled: true,
			ToolTip: "No sound or notification for this session for an hour"}
		if snoozed {
			snooze.Title, snooze.Checked = "Snoozed "+name+" until "+st.Snoozed[id].Local().Format("15:04"), true
			snooze.ToolTip = "Choose again to end the snooze"
		}
		items = append(items,
			menuItem{Title: "Mute " + name, Action: actionToggleMute, SessionID: id, Enabled: true, Checked: st.Muted[id],
				ToolTip: "No sound or notification for this session until you unmute it"},
			snooze)
	}
	return items
}

// Menu limits.
const (
	// maxMenuSessions is how many sessions the menu lists; the panel
	// shows them all.
	maxMenuSessions = 12
	menuTitleRunes  = 60
	menuTipRunes    = 200
)

// buildMenu decides the menu's lines: the sessions (needs-you first, as
// the board orders them), the panel, the hooks, the settings, Quit.
func buildMenu(st menuState) []menuItem {
	sep := menuItem{Separator: true}
	var items []menuItem
	listed := 0
	for _, r := range st.Rows {
		if !session.ValidID(r.Session.ID) {
			continue // an id goes to the jump; the board drops these already
		}
		if listed == maxMenuSessions {
			items = append(items, menuItem{Title: fmt.Sprintf("%d more in the panel", len(st.Rows)-listed)})
			break
		}
		listed++
		items = append(items, menuItem{
			Title:     sessionTitle(r),
			ToolTip:   oneLine(sessionTip(r), menuTipRunes),
			Action:    actionJump,
			SessionID: r.Session.ID,
			Enabled:   true,
		})
	}
	if listed == 0 {
		items = append(items, menuItem{Title: "No sessions"})
	}
	if st.Problems > 0 {
		items = append(items, menuItem{
			Title:   fmt.Sprintf("%d session %s unreadable (see Doctor)", st.Problems, plural(st.Problems, "file", "files")),
			ToolTip: "Mew skipped sources it could not read; Doctor checks the setup.",
		})
	}
	if mutes := muteItems(st); len(mutes) > 0 {
		items = append(items, sep)
		items = append(items, mutes...)
	}
	items = append(items, sep)
	if st.PanelShown {
		items = append(items, menuItem{Title: "Hide Panel", Action: actionHidePanel, Enabled: true})
	} else {
		items = append(items, menuItem{Title: "Show Panel", Action: actionShowPanel, Enabled: true})
	}
	items = append(items, sep,
		menuItem{Title: "Install Hooks…", Action: actionInstallHooks, Enabled: true,
			ToolTip: "List what mew install would change, then ask (mew install --plan)"},
	)
	if st.Confirm != "" {
		items = append(items, menuItem{Title: "Install Hooks: " + st.Confirm + " the Listed Changes", Action: actionConfirm, Enabled: true,
			ToolTip: "Make the changes the message window lists (mew install --yes)"})
	}
	items = append(items,
		menuItem{Title: "Doctor…", Action: actionDoctor, Enabled: true,
			ToolTip: "Check that Mew can see your sessions (mew doctor)"},
		menuItem{Title: "Show Log", Action: actionShowLog, Enabled: true,
			ToolTip: "What Mew did last: jumps, answers, problems ($MEW_HOME/mew.log)"},
		menuItem{Title: "Pair a Phone or Browser…", Action: actionPairDevice, Enabled: true,
			ToolTip: "Serve the web board on 127.0.0.1:7733 and show a pairing code (mew serve)"},
		sep,
		menuItem{Title: "Sounds", Action: actionToggleSounds, Enabled: true, Checked: st.Sounds},
		toggleItem("Notifications", actionToggleNotifications, st.Notifications),
		loginItem(st.Login),
		sep,
		menuItem{Title: "Quit Mew", Action: actionQuit, Enabled: true, Key: "q"},
	)
	return items
}

func toggleItem(title string, a action, t toggle) menuItem {
	it := menuItem{Title: title, Action: a, Enabled: true, Checked: t.On}
	if t.Unavailable != "" {
		it.Title += " (" + t.Unavailable + ")"
		it.Enabled, it.Checked = false, false
	}
	return it
}

func loginItem(s loginState) menuItem {
	it := menuItem{Title: "Launch at Login", Action: actionToggleLogin, Enabled: true, Checked: s.On}
	switch {
	case s.Unavailable != "":
		it.Title += " (" + s.Unavailable + ")"
		it.Enabled, it.Checked = false, false
	case s.NeedsApproval:
		it.Title += " (approve in System Settings)"
		it.ToolTip = "macOS asks you to allow Mew in System Settings › General › Login Items."
	}
	return it
}

// sessionTitle is "project — waiting · permission · 12s".
func sessionTitle(r board.Row) string {
	project := r.Project
	if project == "" {
		project = r.Session.ID
	}
	state := string(r.State)
	if r.Reason != "" {
		state += " · " + string(r.Reason)
	}
	if r.Offline != "" {
		state += " · offline" // the host cannot be reached: the last state seen
	}
	tail := " — " + state + " · " + board.FormatAge(r.Age)
	return oneLine(project, menuTitleRunes-len([]rune(tail))) + tail
}

// sessionTip is what the person needs to recognise the moment.
func sessionTip(r board.Row) string {
	if r.Offline != "" {
		return r.Offline + ": " + sessionDetail(r)
	}
	return sessionDetail(r)
}

func sessionDetail(r board.Row) string {
	s := r.Session
	switch {
	case r.State == session.Waiting && s.Tool != "" && s.ToolDetail != "":
		return s.Tool + ": " + s.ToolDetail
	case r.State == session.Waiting && s.ToolDetail != "":
		return s.ToolDetail
	case r.NeedsYou() && s.LastMessage != "":
		return s.LastMessage
	case s.Title != "":
		return s.Title
	}
	return s.Cwd
}

// oneLine makes untrusted text one short line (see internal/text).
func oneLine(s string, n int) string { return text.OneLine(s, max(n, 1)) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

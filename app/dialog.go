package app

import (
	"fmt"
	"strings"
)

// The messages: what the menu's commands report (command.go), the log's
// tail (Show Log), and how they are shown. Never a modal alert: macOS 14+
// ignores activateIgnoringOtherApps: for an accessory app, so an alert
// opens behind the person's windows, and while it waits the panel's
// clicks and the menu do nothing. The darwin side shows messageList's
// window instead: a non-activating floating panel (message_darwin.go)
// that stays above other windows and leaves the keyboard where it is.

// dialog is one message for the person.
type dialog struct {
	Title string
	Text  string
	// Failed: shown as a warning.
	Failed bool
}

// maxMessages is how many messages the window keeps (the newest first).
const maxMessages = 5

// messageList is what the message window shows: the latest messages,
// newest first, until the person closes it. Main thread only.
type messageList struct {
	items []dialog // newest first
}

// Add puts d on top, dropping the oldest past maxMessages.
func (m *messageList) Add(d dialog) {
	m.items = append([]dialog{d}, m.items...)
	if len(m.items) > maxMessages {
		m.items = m.items[:maxMessages]
	}
}

// Clear forgets every message: the person closed the window.
func (m *messageList) Clear() { m.items = nil }

// messageWindow is the window's contents.
type messageWindow struct {
	Title string // the newest message's title, marked when it failed
	Text  string // every message, newest first, each under its title
}

// Window is what the window shows now; ok is false when there is nothing
// to show.
func (m *messageList) Window() (w messageWindow, ok bool) {
	if len(m.items) == 0 {
		return messageWindow{}, false
	}
	w.Title = windowTitle(m.items[0])
	var b strings.Builder
	for i, d := range m.items {
		if i > 0 {
			b.WriteString("\n\n────────\n\n")
		}
		if i > 0 || len(m.items) > 1 {
			fmt.Fprintf(&b, "%s\n\n", windowTitle(d))
		}
		b.WriteString(d.Text)
	}
	w.Text = b.String()
	return w, true
}

// windowTitle marks a failure so it does not read like the success
// messages.
func windowTitle(d dialog) string {
	if d.Failed {
		return "⚠ " + d.Title
	}
	return d.Title
}

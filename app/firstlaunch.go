package app

import "time"

// mainMenuItem is one item of the app's main menu: an Objective-C action
// sent to the key window's first responder (no target), with its key
// equivalent (⌘ + Key).
type mainMenuItem struct {
	Title, Action, Key string
}

// editMenu is the main menu's Edit submenu. Mew shows no menu bar (an
// accessory app), but AppKit still looks key equivalents up in the main
// menu: without one, ⌘C and ⌘A did nothing in the message window's
// text. The actions are NSText's (the text view answers them).
var editMenu = []mainMenuItem{
	{"Cut", "cut:", "x"},
	{"Copy", "copy:", "c"},
	{"Paste", "paste:", "v"},
	{"Select All", "selectAll:", "a"},
}

// appMenu is the main menu's application submenu: ⌘Q quits as from the
// status menu, ⌘W closes the key window (the message window).
var appMenu = []mainMenuItem{
	{"Close Window", "performClose:", "w"},
	{"Quit Mew", "terminate:", "q"},
}

// onReopen is opening Mew.app again while it runs (Finder, Spotlight, the
// Dock's Applications folder): the panel shows, as the menu's Show Panel,
// so the person sees that Mew runs even when no session needs them.
func onReopen(c *controller, now time.Time) effects { return c.ShowPanel(now) }

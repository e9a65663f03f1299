//go:build darwin && cgo

package app

import (
	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/objc"
)

// mainMenu is the app's main menu (editMenu, appMenu); made once, before
// the event loop, and kept for the app's life (darwinkit rule "retained
// globals for app-lifetime objects").
var mainMenu appkit.Menu

// setupMainMenu gives the app a main menu; main thread, inside a pool.
// The items have no target: AppKit sends their actions along the
// responder chain, to the key window's text view.
func setupMainMenu() {
	mainMenu = appkit.NewMenuWithTitle("Mew")
	objc.Retain(&mainMenu)
	sub := func(title string, items []mainMenuItem) {
		m := appkit.NewMenuWithTitle(title)
		for _, it := range items {
			m.AddItem(appkit.NewMenuItemWithTitleActionKeyEquivalent(it.Title, mainMenuAction(it.Action), it.Key))
		}
		holder := appkit.NewMenuItemWithTitleActionKeyEquivalent(title, objc.Selector{}, "")
		holder.SetSubmenu(m)
		mainMenu.AddItem(holder)
	}
	sub("Mew", appMenu)
	sub("Edit", editMenu)
	nsApp.SetMainMenu(mainMenu)
}

// mainMenuAction is the selector of a main menu item's action; each a
// literal, for the selector check (make check-selectors).
func mainMenuAction(action string) objc.Selector {
	switch action {
	case "cut:":
		return objc.Sel("cut:")
	case "copy:":
		return objc.Sel("copy:")
	case "paste:":
		return objc.Sel("paste:")
	case "selectAll:":
		return objc.Sel("selectAll:")
	case "performClose:":
		return objc.Sel("performClose:")
	case "terminate:":
		return objc.Sel("terminate:")
	}
	return objc.Selector{}
}

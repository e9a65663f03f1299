//go:build darwin && cgo

package app

import (
	"context"
	"time"

	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"

	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/internal/weblink"
)

// App-lifetime objects (darwinkit rule "retained globals"): package
// variables, each retained once with objc.Retain, so neither the event
// loop's autorelease pool nor Go's collector frees them. Main thread only.
var (
	statusItem    appkit.StatusItem
	statusMenu    appkit.Menu
	quietIcon     appkit.Image
	attentionIcon appkit.Image
	// menuDelegate: darwinkit keeps the wrapper alive once set; the global
	// keeps the Go value reachable too.
	menuDelegate *appkit.MenuDelegate
)

func setupStatusItem() {
	statusItem = appkit.StatusBar_SystemStatusBar().StatusItemWithLength(appkit.VariableStatusItemLength)
	objc.Retain(&statusItem)
	quietIcon = iconImage(iconImageFor(false))
	objc.Retain(&quietIcon)
	attentionIcon = iconImage(iconImageFor(true))
	objc.Retain(&attentionIcon)
	statusItem.Button().SetImagePosition(appkit.ImageLeft) // the count right of the cat

	statusMenu = appkit.NewMenuWithTitle("Mew")
	objc.Retain(&statusMenu)
	statusMenu.SetAutoenablesItems(false) // buildMenu decides what is enabled
	menuDelegate = &appkit.MenuDelegate{}
	// The session list and ages change all the time: rebuild on opening.
	menuDelegate.SetMenuNeedsUpdate(func(menu appkit.Menu) { fillMenu(menu) })
	statusMenu.SetDelegate(menuDelegate)
	statusItem.SetMenu(statusMenu)
}

func iconImage(ic iconBitmap) appkit.Image {
	img := appkit.NewImageWithData(ic.PNG)
	img.SetSize(foundation.Size{Width: ic.W, Height: ic.H})
	img.SetTemplate(ic.Template)
	return img
}

// setStatusIcon shows iconFor's decision.
func setStatusIcon(icon statusIcon) {
	b := statusItem.Button()
	if icon.Attention {
		b.SetImage(attentionIcon)
	} else {
		b.SetImage(quietIcon)
	}
	b.SetTitle(icon.Title)
	b.SetToolTip(icon.ToolTip)
}

// fillMenu replaces the menu's items with buildMenu's; main thread (the
// menu delegate).
func fillMenu(menu appkit.Menu) {
	apply(ctrl.Recheck(time.Now())) // ages as of now
	prefs, err := alertPrefs.Load()
	if err != nil {
		logger.Printf("alerts: %s: %v", alertprefs.Name, err)
	}
	items := buildMenu(menuState{
		Rows:          ctrl.Rows(),
		Problems:      ctrl.Problems(),
		PanelShown:    ctrl.PanelShown(),
		Sounds:        settings.Sounds,
		Notifications: notifyState().Toggle,
		Login:         loginStatus(),
		Confirm:       pendingConfirm.Confirm,
		Muted:         prefs.Muted,
		Snoozed:       prefs.Snoozed,
		Now:           time.Now(),
	})
	menu.RemoveAllItems()
	for _, it := range items {
		if it.Separator {
			menu.AddItem(appkit.MenuItem_SeparatorItem())
			continue
		}
		item := it // each handler keeps its own item
		mi := appkit.NewMenuItemWithAction(it.Title, it.Key, func(objc.Object) { menuAction(item) })
		mi.SetEnabled(it.Enabled)
		if it.Checked {
			mi.SetState(appkit.ControlStateValueOn)
		}
		if it.ToolTip != "" {
			mi.SetToolTip(it.ToolTip)
		}
		menu.AddItem(mi)
	}
}

// menuAction carries out a chosen item; main thread (the item's action).
func menuAction(it menuItem) {
	now := time.Now()
	switch it.Action {
	case actionJump:
		jumpTo(it.SessionID)
	case actionShowPanel:
		apply(ctrl.ShowPanel(now))
	case actionHidePanel:
		apply(ctrl.HidePanel(now))
	case actionInstallHooks:
		askInstallInBackground()
	case actionConfirm:
		if run := pendingConfirm.OnConfirm; run != nil {
			pendingConfirm = dialog{}
			run()
		}
	case actionDoctor:
		runSelfInBackground(doctorCommand)
	case actionShowLog:
		showDialog(readLogDialog(mewHome))
	case actionToggleSounds:
		settings.Sounds = !settings.Sounds
		saveSettings()
	case actionToggleNotifications:
		settings.Notifications = !settings.Notifications
		saveSettings()
		refreshNotifyAuth()
	case actionToggleLogin:
		toggleLogin()
	case actionQuit:
		quit()
	case actionToggleMute:
		if _, err := alertPrefs.ToggleMute(it.SessionID); err != nil {
			logger.Printf("mute %s: %v", it.SessionID, err)
		}
	case actionToggleSnooze:
		if _, err := alertPrefs.ToggleSnooze(it.SessionID, now, time.Hour); err != nil {
			logger.Printf("snooze %s: %v", it.SessionID, err)
		}
	case actionPairDevice:
		// Listening and the devices file are I/O: off the main thread,
		// the message back on it.
		go func() {
			srv, base, err := webServer.start(context.Background(), webListen, mewHome, sessions, answers, logger.Printf)
			var d dialog
			if err != nil {
				d = pairingDialog("", "", "", now, false, err)
			} else {
				code, exp, open := srv.PairCode()
				d = pairingDialog(base, weblink.Load(mewHome), code, exp, open, nil)
			}
			mainAsync(func() { showDialog(d) })
		}()
	}
}

func saveSettings() {
	if err := writeSettings(mewHome, settings); err != nil {
		showDialog(dialog{Title: "Mew could not save its settings", Text: err.Error(), Failed: true})
	}
}

// askInstallInBackground lists what `mew install` would change (off the
// main thread) and asks; Install runs it.
func askInstallInBackground() {
	exe := exePath
	go func() {
		d := consentDialog(runSelf(context.Background(), exe, planCommand), func() { runSelfInBackground(installCommand) })
		mainAsync(func() { showDialog(d) })
	}()
}

// runSelfInBackground runs `mew install` or `mew doctor` on a goroutine
// (they read files and may ask `claude --version`: never on the main
// thread) and shows the result from the main thread.
func runSelfInBackground(c selfCommand) {
	exe := exePath
	go func() {
		d := runSelf(context.Background(), exe, c)
		mainAsync(func() { showDialog(d) })
	}()
}

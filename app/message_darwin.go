//go:build darwin && cgo

package app

import (
	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"
)

// The message window (dialog.go says why it is not an alert): one
// non-activating floating panel, made once and retained (darwinkit rule
// "retained globals"), hidden with orderOut and never released. Its text
// is messages' Window. No block or timer is made per message: showing one
// is a few property sets on the main thread. Main thread only.
var (
	messages        messageList
	messagePanel    appkit.Panel
	messageText     appkit.TextView
	messageScroll   appkit.ScrollView
	messageDelegate *appkit.WindowDelegate
	messageMade     bool
)

// Message window size, in points.
const (
	messageW = 560
	messageH = 360
)

func makeMessageWindow() {
	messageMade = true
	frame := foundation.Rect{Size: foundation.Size{Width: messageW, Height: messageH}}
	// Non-activating from the start (changing the style later is
	// unreliable): the person's app keeps the keyboard, and an accessory
	// app needs no activation for the window to be seen.
	messagePanel = appkit.NewPanelWithContentRectStyleMaskBackingDefer(frame,
		appkit.WindowStyleMaskTitled|appkit.WindowStyleMaskClosable|appkit.WindowStyleMaskResizable|
			appkit.WindowStyleMaskUtilityWindow|appkit.WindowStyleMaskNonactivatingPanel,
		appkit.BackingStoreBuffered, false)
	objc.Retain(&messagePanel)
	messagePanel.SetReleasedWhenClosed(false) // closed by the person: kept for the next message
	// Floating: above the person's windows, so it cannot open behind them.
	messagePanel.SetLevel(appkit.FloatingWindowLevel)
	messagePanel.SetFloatingPanel(true)
	messagePanel.SetHidesOnDeactivate(false) // an accessory app is never active
	messagePanel.SetBecomesKeyOnlyIfNeeded(true)
	messagePanel.SetCollectionBehavior(appkit.WindowCollectionBehaviorCanJoinAllSpaces |
		appkit.WindowCollectionBehaviorFullScreenAuxiliary)
	messagePanel.SetMinSize(foundation.Size{Width: 320, Height: 160})

	messageScroll = appkit.NewScrollViewWithFrame(frame)
	objc.Retain(&messageScroll)
	messageScroll.SetHasVerticalScroller(true)
	messageScroll.SetAutohidesScrollers(true)
	messageScroll.SetAutoresizingMask(appkit.ViewWidthSizable | appkit.ViewHeightSizable)
	messageText = appkit.NewTextViewWithFrame(foundation.Rect{Size: messageScroll.ContentSize()})
	objc.Retain(&messageText)
	messageText.SetEditable(false)
	messageText.SetSelectable(true) // a path or a command can be copied
	messageText.SetFont(appkit.Font_MonospacedSystemFontOfSizeWeight(12, appkit.FontWeightRegular))
	messageText.SetTextContainerInset(foundation.Size{Width: 8, Height: 8})
	messageText.SetVerticallyResizable(true)
	messageText.SetHorizontallyResizable(false)
	messageText.SetAutoresizingMask(appkit.ViewWidthSizable)
	messageText.TextContainer().SetWidthTracksTextView(true)
	messageScroll.SetDocumentView(messageText)
	messagePanel.SetContentView(messageScroll)

	messageDelegate = &appkit.WindowDelegate{}
	// Closed: the messages were read.
	messageDelegate.SetWindowWillClose(func(foundation.Notification) { messages.Clear() })
	messagePanel.SetDelegate(messageDelegate)
	messagePanel.Center()
}

// showDialog adds d to the message window and puts the window in front of
// every other, without activating Mew; main thread. Safe inside a
// main-queue block: nothing here waits.
func showDialog(d dialog) {
	logger.Printf("%s: %s", d.Title, oneLine(d.Text, 300)) // the log keeps every message; the window the latest
	messages.Add(d)
	w, ok := messages.Window()
	if !ok {
		return
	}
	if !messageMade {
		makeMessageWindow()
	}
	messagePanel.SetTitle(w.Title)
	messageText.SetString(w.Text)
	messageText.ScrollPoint(foundation.Point{}) // the newest message is at the top
	messagePanel.OrderFrontRegardless()
}

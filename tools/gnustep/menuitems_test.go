package gnustep_test

import (
	"context"
	"encoding/json"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// menuRowY is the y of the middle of row i of the status menu GNUstep
// pops up (rows are 20 pixels; row 0 is the one under the pointer when
// the menu opened, so buildMenu's item n is row n+1, a separator being a
// row of its own).
func menuRowY(menu window, i int) int { return menu.y + i*20 + 10 }

// chooseMenuRow chooses row i of the open status menu with a click.
// GNUstep's menu tracking (NSMenuView _trackWithEvent:) does not look at
// where a click is: it polls the pointer every 10 ms and the button's
// release chooses the row it highlighted last. A click sent right after
// the pointer moved could come before that poll and choose the row the
// pointer left (the row under it when the menu opened: Quit Mew). So the
// click goes once GNUstep has drawn row i highlighted.
func (h *harness) chooseMenuRow(menu window, i int) {
	h.t.Helper()
	y := menuRowY(menu, i)
	h.xdo("mousemove", "--sync", itoa(menu.x+40), itoa(y))
	h.waitFor("row "+itoa(i)+" of the menu to be highlighted", func() bool {
		return highlighted(h.screenshot(), menu, y)
	})
	h.xdo("click", "1")
}

// highlighted tells whether the menu row through y is drawn highlighted:
// GNUstep draws that row's background white, the others grey (170).
func highlighted(shot *image.RGBA, menu window, y int) bool {
	white, n := 0, 0
	for x := menu.x + 2; x < menu.x+menu.w-2; x++ {
		c := shot.RGBAAt(x, y)
		n++
		if c.R > 240 && c.G > 240 && c.B > 240 {
			white++
		}
	}
	return n > 0 && white > n/2
}

// openStatusMenu clicks the status item's stand-in once and returns the
// menu that opens. GNUstep pops a context menu up with its first row
// under the pointer, so a click on the stand-in's place while a menu is
// open chooses that row (it was Quit Mew): the one click goes only when
// the window under the pointer is the stand-in itself, and no second click
// is ever sent. The menu is the window under the pointer afterwards, once
// Mew's menuNeedsUpdate: has added the items (it runs before the pop-up).
// GNUstep has no removeAllItems (gnustep-gaps.txt): a menu opened again
// keeps the items it had, the new ones below them; the old ones still act.
func (h *harness) openStatusMenu(name string) window {
	h.t.Helper()
	item := h.statusItemWindow()
	h.xdo("mousemove", "--sync", itoa(item.x+item.w/2), itoa(item.y+item.h/2))
	h.waitFor("the pointer to be on the status item with nothing over it (a menu closed)", func() bool {
		return h.pointerWindow() == item.id
	})
	before := h.sent("NSMenu addItem:")
	h.xdo("click", "1")
	h.waitFor("Mew's menuNeedsUpdate: to fill the menu", func() bool {
		return h.sent("NSMenu addItem:") > before
	})
	var menu window
	h.waitFor("the menu to open under the pointer", func() bool {
		id := h.pointerWindow()
		if id == item.id || id == "" {
			return false
		}
		w, ok := h.geometry(id)
		if !ok || w.w >= 1280 { // the root window: nothing under the pointer
			return false
		}
		menu = w
		return true
	})
	h.t.Logf("%s: the status item at %+v, the menu at %+v", name, item, menu)
	shot := h.screenshot()
	writePNG(h.t, filepath.Join(h.out, name+".png"), shot.SubImage(image.Rect(menu.x, menu.y, menu.x+menu.w, menu.y+menu.h)))
	return menu
}

// statusItemWindow waits until the status item's stand-in window is
// mapped (the shim titles it "Mew status item") and returns it.
func (h *harness) statusItemWindow() window {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xdotool", "search", "--sync", "--onlyvisible", "--name", "^Mew status item$")
	cmd.Env = h.env
	out, err := cmd.Output()
	ids := strings.Fields(string(out))
	if err != nil || len(ids) != 1 {
		h.alive()
		h.t.Fatalf("the status item's window: %v, found %q", err, ids)
	}
	w, ok := h.geometry(ids[0])
	if !ok {
		h.t.Fatalf("the status item's window %s has no geometry", ids[0])
	}
	return w
}

// pointerWindow is the top-level X window under the pointer (decimal, as
// xdotool search prints ids): the one a click goes to.
func (h *harness) pointerWindow() string {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xdotool", "getmouselocation", "--shell")
	cmd.Env = h.env
	out, err := cmd.Output()
	if err != nil {
		h.t.Fatalf("xdotool getmouselocation: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "WINDOW="); ok {
			return v
		}
	}
	return ""
}

// The message window's size (app/message_darwin.go's messageW, messageH).
const messageWinW, messageWinH = 560, 360

// settingsFile is $MEW_HOME/app.json as the app last wrote it.
func (h *harness) settingsFile() map[string]any {
	b, err := os.ReadFile(filepath.Join(h.mewHome, "app.json"))
	if err != nil {
		return nil
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

// TestGNUstepMenuItems chooses two more items of the status menu (with no
// sessions: No sessions, -, Show Panel, -, Install Hooks…, Doctor…,
// Show Log, Pair…, -, Sounds, …) and checks each acts: Sounds turns the
// sounds on in $MEW_HOME/app.json, Show Log opens the message window with
// the log's lines.
func TestGNUstepMenuItems(t *testing.T) {
	h := newHarness(t)
	h.start()
	if s := h.settingsFile(); s["sounds"] != false {
		t.Fatalf("app.json before: %v, want sounds off", s)
	}
	menu := h.openStatusMenu("menu-1")
	h.chooseMenuRow(menu, 10)
	h.waitFor("Sounds to turn the sounds on in app.json", func() bool {
		return h.settingsFile()["sounds"] == true
	})
	if s := h.settingsFile(); s["notifications"] != false {
		t.Errorf("Sounds changed the other settings: %v", s)
	}

	// The log's last line before Show Log (which logs what it shows).
	log, err := os.ReadFile(filepath.Join(h.mewHome, "mew.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	last := lines[len(lines)-1]
	menu = h.openStatusMenu("menu-2")
	h.chooseMenuRow(menu, 7)
	var msg window
	h.waitFor("Show Log to open the message window", func() bool {
		for _, w := range h.visible(messageWinW, messageWinH) {
			if w.w == messageWinW {
				msg = w
				return true
			}
		}
		return false
	})
	writePNG(t, filepath.Join(h.out, "message.png"), h.screenshot().SubImage(image.Rect(msg.x, msg.y, msg.x+msg.w, msg.y+msg.h)))

	// ⌘A ⌘C in the message window copy its text: the main menu's Edit
	// items (app/mainmenu_darwin.go) are how AppKit finds the key
	// equivalents. GNUstep's Command key is Alt_L by default
	// (GSFirstCommandKey); a click in the text makes the window key.
	h.xdo("mousemove", "--sync", itoa(msg.x+msg.w/2), itoa(msg.y+msg.h/2))
	h.xdo("click", "1")
	h.xdo("key", "alt+a")
	h.xdo("key", "alt+c")
	var clip string
	h.waitFor("⌘C to copy the message window's text", func() bool {
		clip = h.clipboard()
		return clip != ""
	})
	if !strings.HasPrefix(clip, "The last ") || !strings.Contains(clip, last) {
		t.Errorf("the clipboard has %q, want the message window's text: the log's lines, the last %q", clip, last)
	}
	checkQuiet(t, h)
}

// clipboard is the X clipboard's text (xsel), "" when empty.
func (h *harness) clipboard() string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xsel", "--clipboard", "--output")
	cmd.Env = h.env
	out, _ := cmd.Output()
	return string(out)
}

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

// menuRow is the y of row i of the status menu GNUstep pops up (rows are
// 20 pixels; row 0 is the menu's title, so buildMenu's item n is row
// n+1, a separator being a row of its own).
func menuRow(menu window, i int) string { return itoa(menu.y + i*20 + 10) }

// openStatusMenu opens the status item's menu and returns its window.
// A click on the stand-in's button sometimes only makes its window key
// (GNUstep eats that first mouse) and sometimes opens the menu; a second
// click sent while the menu is opening would land on the menu's row under
// the pointer (Quit Mew). So a second click goes only when, 5 s after the
// first, neither Mew's menuNeedsUpdate: (Mew adds the items before the
// menu pops up) nor a menu window has come: on a busy machine the first
// click's menu came over a second late. GNUstep has no removeAllItems
// (gnustep-gaps.txt): a menu opened again keeps the items it had, the new
// ones below them; the old ones still act.
func (h *harness) openStatusMenu(name string) window {
	h.t.Helper()
	before := h.sent("NSMenu addItem:")
	h.xdo("mousemove", "--sync", "20", "11")
	h.xdo("click", "1")
	filled := func() bool { return h.sent("NSMenu addItem:") > before }
	var menu window
	shown := func() bool {
		for _, w := range h.visible(200, 200) {
			if w.w < 1280 && w.w != messageWinW { // not the root window nor the message window
				menu = w
				return true
			}
		}
		return false
	}
	for deadline := time.Now().Add(5 * time.Second); !filled() && !shown() && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	if !filled() && !shown() {
		h.xdo("click", "1")
	}
	h.waitFor("the menu to be filled", filled)
	h.waitFor("the menu to show", shown)
	shot := h.screenshot()
	writePNG(h.t, filepath.Join(h.out, name+".png"), shot.SubImage(image.Rect(menu.x, menu.y, menu.x+menu.w, menu.y+menu.h)))
	return menu
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
	h.xdo("mousemove", "--sync", itoa(menu.x+40), menuRow(menu, 10))
	h.xdo("click", "1")
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
	h.xdo("mousemove", "--sync", itoa(menu.x+40), menuRow(menu, 7))
	h.xdo("click", "1")
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

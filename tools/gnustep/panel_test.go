package gnustep_test

import (
	"encoding/json"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
)

// The panel's width on a 1× screen: two points per board pixel
// (app.pointsPerPixelFor(1)), and Xvfb is 1×.
const panelW = 2 * board.Width

// panelWindow is the app's visible window as wide as the panel, if any.
func (h *harness) panelWindow() (window, bool) {
	for _, w := range h.visible(panelW, 20) {
		if w.w == panelW {
			return w, true
		}
	}
	return window{}, false
}

// TestGNUstepPanel runs the real app code (app/*_darwin.go) on GNUstep and
// drives its panel like a person: sessions that need the person show it,
// its pixels match the board's PNG, a click on a row jumps to that
// session, the redraw timer runs while it shows, and it hides when they
// clear.
func TestGNUstepPanel(t *testing.T) {
	h := newHarness(t)
	h.start()
	if _, ok := h.panelWindow(); ok {
		t.Fatal("the panel shows with no sessions")
	}

	// A session that asks for permission: the panel shows.
	h.events("gs-1", "/src/deploy-bot", "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest")
	var pw window
	h.waitFor("the panel to show", func() bool {
		var ok bool
		pw, ok = h.panelWindow()
		return ok
	})
	t.Logf("panel window %s at %d,%d %d×%d", pw.id, pw.x, pw.y, pw.w, pw.h)
	if pw.x+pw.w > 1280 || pw.y < 0 || pw.x < 1280/2 {
		t.Errorf("the panel is at %d,%d %d×%d, want the top right of the 1280×800 screen", pw.x, pw.y, pw.w, pw.h)
	}

	// The redraw timer runs while the panel shows: with nothing new from
	// the hooks, the view is redrawn again and again (the age, the cats).
	// Without the timer nothing redraws it (measured: 0–1 times in 3 s).
	before := h.sent("mewPanelView setNeedsDisplay:")
	h.waitFor("the timer to redraw the panel 4 more times", func() bool {
		return h.sent("mewPanelView setNeedsDisplay:") >= before+4
	})

	// What GNUstep drew against the board's own PNG of the same sessions.
	comparePanel(t, h, pw)

	// A click on the session's row (its cat) jumps there: the plan is for
	// this session.
	plans := h.clickFirstCat(pw)
	if len(plans) != 1 || plans[0]["session_id"] != "gs-1" {
		t.Errorf("a click on gs-1's row planned %v, want one jump to gs-1", plans)
	}

	// The session finishes: nothing needs the person, the panel hides.
	h.events("gs-1", "/src/deploy-bot", "PostToolUse", "Stop", "SessionEnd")
	h.waitFor("the panel to hide", func() bool {
		_, ok := h.panelWindow()
		return !ok
	})
	// Hidden, the timer stops: no redraw over the next second.
	stopped := h.sent("mewPanelView setNeedsDisplay:")
	time.Sleep(time.Second)
	if n := h.sent("mewPanelView setNeedsDisplay:"); n > stopped+1 {
		t.Errorf("the hidden panel was redrawn %d times in a second: the timer did not stop", n-stopped)
	}

	checkQuiet(t, h)
	checkGolden(t, h)
}

func itoa(n int) string { return strconv.Itoa(n) }

// clickFirstCat clicks the cat of the panel's first session row (below
// the header: 16 + 14 board pixels, 2 points each) and returns the jump
// plans recorded once there is one.
func (h *harness) clickFirstCat(pw window) []map[string]any {
	h.t.Helper()
	h.xdo("mousemove", "--sync", itoa(pw.x+40), itoa(pw.y+2*(16+14)))
	h.xdo("click", "1")
	var plans []map[string]any
	h.waitFor("the click's jump plan", func() bool {
		plans = readPlans(h.jumpLog)
		return len(plans) > 0
	})
	return plans
}

func readPlans(path string) []map[string]any {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var plans []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var p map[string]any
		if json.Unmarshal([]byte(line), &p) == nil {
			plans = append(plans, p)
		}
	}
	return plans
}

// comparePanel saves the panel as GNUstep drew it and the board's PNG at
// the panel's scale, and compares them. The two are drawn at different
// instants: the age text ("0s" against "3s") and the cats' animation
// frame may differ; the layout, rows, text and colours may not. Measured:
// 0.1–0.5% of the pixels differ (the age's glyphs); 2% allows a cat's
// frame too, while a wrong row, colour, scale or offset changes far more.
func comparePanel(t *testing.T, h *harness, pw window) {
	t.Helper()
	shot := h.screenshot()
	writePNG(t, filepath.Join(h.out, "screen.png"), shot)
	panel := shot.SubImage(image.Rect(pw.x, pw.y, pw.x+pw.w, pw.y+pw.h))
	writePNG(t, filepath.Join(h.out, "panel-gnustep.png"), panel)
	want := h.snapshot(2)
	share, err := pixelDiff(panel, want)
	if err != nil {
		t.Fatalf("the panel (%v) and the board's PNG (%v): %v", panel.Bounds().Size(), want.Bounds().Size(), err)
	}
	t.Logf("panel vs board PNG: %.2f%% of the pixels differ (artifacts in %s)", 100*share, h.out)
	if share > 0.02 {
		t.Errorf("%.1f%% of the panel's pixels differ from the board's PNG (panel-gnustep.png, snapshot-2.png in %s)", 100*share, h.out)
	}
}

// checkQuiet fails on the warnings a sound app never prints: a message
// nothing answers that is not a known GNUstep gap, an object autoreleased
// with no pool, an uncaught exception.
func checkQuiet(t *testing.T, h *harness) {
	t.Helper()
	out := h.stderr.String()
	for _, bad := range []string{"autorelease called without pool", "uncaught exception", "AppKit message off the main thread"} {
		if strings.Contains(out, bad) {
			t.Errorf("the app printed %q:\n%s", bad, tail(out, 4000))
		}
	}
	known := readLines(t, "gnustep-gaps.txt")
	for _, line := range strings.Split(out, "\n") {
		_, key, ok := strings.Cut(line, "mew-gnustep: nothing responds: ")
		if ok && !known[key] {
			t.Errorf("nothing responds to %q and it is not a known GNUstep gap (tools/gnustep/gnustep-gaps.txt)", key)
		}
	}
}

// checkGolden compares the classes and selectors the app sent with
// golden-selectors.txt: a change in what Mew asks of AppKit shows in
// review. MEW_GNUSTEP_UPDATE_GOLDEN=1 rewrites the file.
func checkGolden(t *testing.T, h *harness) {
	t.Helper()
	b, err := os.ReadFile(h.trace)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			got[l] = true
		}
	}
	if os.Getenv("MEW_GNUSTEP_UPDATE_GOLDEN") != "" {
		keys := sortedKeys(got)
		os.WriteFile("golden-selectors.txt", []byte("# Classes and selectors the app sends during start, panel show, redraw,\n# click and hide on GNUstep (make gnustep-ui; MEW_GNUSTEP_UPDATE_GOLDEN=1 rewrites).\n"+strings.Join(keys, "\n")+"\n"), 0o644)
		return
	}
	want := readLines(t, "golden-selectors.txt")
	for _, k := range sortedKeys(got) {
		if !want[k] {
			t.Errorf("the app sent %q, not in golden-selectors.txt", k)
		}
	}
	for _, k := range sortedKeys(want) {
		if !got[k] {
			t.Errorf("the app no longer sent %q (golden-selectors.txt)", k)
		}
	}
}

func readLines(t *testing.T, name string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		key, _, _ := strings.Cut(l, "  #") // a line may end with a comment
		m[strings.TrimSpace(key)] = true
	}
	return m
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestGNUstepSoak changes sessions for 60 s (three agents asking, working
// and finishing in turn) while the real panel shows, hides and redraws:
// the app must stay up, answer every change, and never print an
// autorelease without a pool, an exception or an off-main-thread AppKit
// message.
func TestGNUstepSoak(t *testing.T) {
	h := newHarness(t)
	h.start()
	ids := []string{"soak-a", "soak-b", "soak-c"}
	end := time.Now().Add(60 * time.Second)
	shows := 0
	for round := 0; time.Now().Before(end); round++ {
		id := ids[round%len(ids)]
		h.events(id, "/src/"+id, "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest")
		h.waitFor("the panel to show for "+id, func() bool {
			_, ok := h.panelWindow()
			return ok
		})
		shows++
		h.events(id, "/src/"+id, "PostToolUse", "Stop", "SessionEnd")
		h.alive()
	}
	for _, id := range ids {
		h.events(id, "/src/"+id, "SessionEnd")
	}
	h.waitFor("the panel to hide at the end", func() bool {
		_, ok := h.panelWindow()
		return !ok
	})
	t.Logf("%d rounds of ask/finish in 60 s; redraws: %d", shows, h.sent("mewPanelView setNeedsDisplay:"))
	checkQuiet(t, h)
}

// TestGNUstepAnswer clicks a choice button on the real panel: the answer
// is typed with that choice. The session asks a question with two options
// from a tmux pane (the hooks' environment says which), so the board
// draws its buttons; the typing itself fails here (no such tmux server),
// and the app's log says what it was asked to type.
func TestGNUstepAnswer(t *testing.T) {
	h := newHarness(t)
	h.start()
	const id = "gs-q"
	ask := `"tool_name":"AskUserQuestion","tool_input":{"questions":[{"question":"Which framework?","header":"Framework","options":[{"label":"React","description":"A"},{"label":"Vue","description":"B"}],"multiSelect":false}]},"tool_use_id":"q1"`
	pre := fmt.Sprintf(`{"session_id":%q,"cwd":"/src/web","hook_event_name":`, id)
	tmux := []string{"TMUX=/tmp/mew-gnustep-none.sock,1,0", "TMUX_PANE=%7"}
	h.hookRun(tmux, "SessionStart", pre+`"SessionStart"}`)
	h.hookRun(nil, "UserPromptSubmit", pre+`"UserPromptSubmit","prompt":"pick one"}`)
	h.hookRun(nil, "PreToolUse", pre+`"PreToolUse",`+ask+`}`)
	h.hookRun(nil, "PermissionRequest", pre+`"PermissionRequest",`+ask+`}`)
	var pw window
	h.waitFor("the panel to show the question", func() bool {
		var ok bool
		pw, ok = h.panelWindow()
		return ok && pw.h > 2*board.Height(1) // the row and its strip of buttons
	})
	var vue *board.Hit
	f := h.frame()
	for i, b := range f.Hits {
		if b.ID == id && b.Choice == 2 {
			vue = &f.Hits[i]
		}
	}
	if vue == nil {
		t.Fatalf("the board has no button for choice 2: %+v", f.Hits)
	}
	h.xdo("mousemove", "--sync", itoa(pw.x+2*(vue.X+vue.W/2)), itoa(pw.y+2*(vue.Y+vue.H/2)))
	h.xdo("click", "1")
	h.waitFor("the answer to be typed", func() bool {
		return strings.Contains(h.stderr.String(), `answer gs-q 2 "Vue"`)
	})
	if plans := readPlans(h.jumpLog); len(plans) != 0 {
		t.Errorf("a click on a choice button jumped: %v", plans)
	}
	checkQuiet(t, h)
}

// TestGNUstepMenu opens the status item's menu with a click and chooses
// Show Panel: the menu is built by Mew's fillMenu (the delegate's
// menuNeedsUpdate:) and the item acts: the panel shows with no sessions.
// The menu pops up under the pointer; its rows are 20 pixels tall and
// Show Panel is row 3 (menuRowY).
func TestGNUstepMenu(t *testing.T) {
	h := newHarness(t)
	h.start()
	before := h.sent("NSMenu addItem:") // the main menu's
	menu := h.openStatusMenu("menu")
	if h.sent("NSMenu addItem:") <= before {
		t.Fatal("the menu opened with no items added by Mew (menuNeedsUpdate:)")
	}
	h.chooseMenuRow(menu, 3)
	h.waitFor("Show Panel to show the panel", func() bool {
		_, ok := h.panelWindow()
		return ok
	})
	checkQuiet(t, h)
}

// TestGNUstepMainThreadCheck shows the guard's main-thread check works:
// an AppKit message sent from a goroutine (the harness's probe, never
// Mew's code) ends the app with exit 70 and says which message.
func TestGNUstepMainThreadCheck(t *testing.T) {
	h := newHarness(t)
	h.env = append(h.env, "MEW_GNUSTEP_OFFMAIN_PROBE=1")
	h.launch()
	select {
	case <-h.exited:
	case <-time.After(waitTimeout):
		t.Fatal("the app kept running after an AppKit message off the main thread")
	}
	out := h.stderr.String()
	if !strings.Contains(out, "mew-gnustep: AppKit message off the main thread: NSScreen +mainScreen") {
		t.Errorf("no off-main-thread report:\n%s", tail(out, 2000))
	}
	if code := h.app.ProcessState.ExitCode(); code != 70 {
		t.Errorf("exit code %d, want 70", code)
	}
}

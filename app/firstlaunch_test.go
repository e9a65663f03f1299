package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
)

// darwinFunc is the source of func name in file (a darwin file: it cannot
// run here, so its order of steps is checked on its text).
func darwinFunc(t *testing.T, file, name string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	i := strings.Index(src, "\nfunc "+name+"(")
	if i < 0 {
		t.Fatalf("%s: no func %s", file, name)
	}
	body := src[i+1:]
	if j := strings.Index(body, "\n}\n"); j >= 0 {
		body = body[:j]
	}
	return body
}

// A second launch says "already running" at once: the instance lock comes
// before anything that may ask the login shell (up to 3 s of the person's
// profile): LoginTmuxTmpdir, and the options giving the sources.
func TestInstanceLockBeforeTheLoginShell(t *testing.T) {
	run := darwinFunc(t, "app_darwin.go", "Run")
	lock := strings.Index(run, "acquireInstance(")
	if lock < 0 {
		t.Fatal("Run takes no instance lock")
	}
	for _, later := range []string{"LoginTmuxTmpdir(", "options(", "LookPath("} {
		if i := strings.Index(run, later); i >= 0 && i < lock {
			t.Errorf("Run calls %s before the instance lock", later)
		}
	}
}

// ⌘C and ⌘A in the message window: the app has a main menu with an Edit
// submenu (AppKit looks key equivalents up there, menu bar shown or not),
// each action a literal selector the darwin side sends, and Run sets it.
func TestMainMenuHasAnEditSubmenu(t *testing.T) {
	want := map[string]string{"copy:": "c", "selectAll:": "a", "paste:": "v", "cut:": "x"}
	for _, it := range editMenu {
		if want[it.Action] == it.Key {
			delete(want, it.Action)
		}
	}
	if len(want) > 0 {
		t.Errorf("the Edit menu lacks %v", want)
	}
	menu, err := os.ReadFile("mainmenu_darwin.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range append(append([]mainMenuItem{}, editMenu...), appMenu...) {
		if !strings.Contains(string(menu), `objc.Sel("`+it.Action+`")`) {
			t.Errorf("%s: no literal selector for %s", it.Title, it.Action)
		}
	}
	if run := darwinFunc(t, "app_darwin.go", "Run"); !strings.Contains(run, "setupMainMenu()") {
		t.Error("Run sets no main menu")
	}
}

// Opening Mew.app again while it runs shows the panel (no session needs
// the person: it still shows), and the delegate is wired to it.
func TestReopenShowsThePanel(t *testing.T) {
	c := newController(board.DefaultConfig())
	c.SetSessions(nil, 0, time.Unix(100, 0))
	if e := onReopen(c, time.Unix(101, 0)); !e.Show || !c.PanelShown() {
		t.Errorf("reopen: %+v, shown %v", e, c.PanelShown())
	}
	if run := darwinFunc(t, "app_darwin.go", "Run"); !strings.Contains(run, "SetApplicationShouldHandleReopenHasVisibleWindows") || !strings.Contains(run, "onReopen(") {
		t.Error("no reopen handler")
	}
}

// The panel goes on the screen whose menu bar shows Mew's item, never on
// mainScreen (the key window's screen, which follows the active app).
func TestPanelOnTheMenuBarsScreen(t *testing.T) {
	files, _ := filepath.Glob("*_darwin.go")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "Screen_"+"MainScreen(") {
			t.Errorf("%s places by mainScreen", f)
		}
	}
	if s := darwinFunc(t, "panel_darwin.go", "panelScreen"); !strings.Contains(s, "statusItem.Button().Window()") {
		t.Error("panelScreen does not follow the status item")
	}
	if p := darwinFunc(t, "panel_darwin.go", "placePanel"); !strings.Contains(p, "panelScreen()") || !strings.Contains(p, "belowBanners(") {
		t.Error("placePanel does not use panelScreen and belowBanners")
	}
}

// With Mew's banners on, the panel starts below the strip where they show:
// a banner does not cover its top rows. Off, it keeps the corner.
func TestPanelStartsBelowMewsBanners(t *testing.T) {
	vis := rect{X: 0, Y: 0, W: 1440, H: 875}
	top := func(r rect) float64 { return r.Y + r.H }
	on := panelRect(belowBanners(vis, true), 288, 100, 1.5)
	off := panelRect(belowBanners(vis, false), 288, 100, 1.5)
	if top(on) > top(vis)-bannerClearance-panelMargin+0.001 {
		t.Errorf("banners on: panel top %v, banner strip down to %v", top(on), top(vis)-bannerClearance)
	}
	if top(off) != top(vis)-panelMargin {
		t.Errorf("banners off: panel top %v", top(off))
	}
	if small := (rect{W: 800, H: 200}); belowBanners(small, true) != small {
		t.Error("a short screen lost its top")
	}
}

package app

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

func titles(items []menuItem) []string {
	var out []string
	for _, it := range items {
		if it.Separator {
			out = append(out, "---")
		} else {
			out = append(out, it.Title)
		}
	}
	return out
}

func find(t *testing.T, items []menuItem, a action) menuItem {
	t.Helper()
	for _, it := range items {
		if it.Action == a && !it.Separator {
			return it
		}
	}
	t.Fatalf("no item with action %d in %q", a, titles(items))
	return menuItem{}
}

func TestMenuSessionsThenCommands(t *testing.T) {
	rows := rowsAt(t0,
		shown("k1", session.Working, t0.Add(-time.Minute), "/src/beta"),
		shown("w1", session.Waiting, t0.Add(-12*time.Second), "/src/alpha"),
	)
	items := buildMenu(menuState{Rows: rows, Sounds: true, Notifications: toggle{On: true}})
	want := []string{
		"alpha — waiting · permission · 12s",
		"beta — working · 1m",
		"---",
		"Mute alpha",
		"Snooze alpha for 1 Hour",
		"---",
		"Show Panel",
		"---",
		"Install Hooks…",
		"Doctor…",
		"Show Log",
		"Pair a Phone or Browser…",
		"---",
		"Sounds",
		"Notifications",
		"Launch at Login",
		"---",
		"Quit Mew",
	}
	if got := titles(items); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("menu:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if items[0].Action != actionJump || items[0].SessionID != "w1" || !items[0].Enabled {
		t.Errorf("first session item: %+v", items[0])
	}
	if items[0].ToolTip != "Bash: rm -rf build" {
		t.Errorf("tooltip %q", items[0].ToolTip)
	}
	if q := find(t, items, actionQuit); q.Key != "q" || !q.Enabled {
		t.Errorf("quit: %+v", q)
	}
	if s := find(t, items, actionToggleSounds); !s.Checked {
		t.Errorf("sounds on must be checked: %+v", s)
	}
	if l := find(t, items, actionToggleLogin); l.Checked || !l.Enabled {
		t.Errorf("login off: %+v", l)
	}
}

func TestMenuEmptyAndPanelShown(t *testing.T) {
	items := buildMenu(menuState{PanelShown: true, Problems: 2})
	if items[0].Title != "No sessions" || items[0].Enabled || items[0].Action != actionNone {
		t.Errorf("empty list: %+v", items[0])
	}
	if items[1].Title != "2 session files unreadable (see Doctor)" || items[1].Enabled {
		t.Errorf("problems line: %+v", items[1])
	}
	find(t, items, actionHidePanel)
	for _, it := range items {
		if it.Action == actionShowPanel {
			t.Error("a shown panel offers Hide, not Show")
		}
	}
}

func TestMenuToggles(t *testing.T) {
	items := buildMenu(menuState{
		Sounds:        false,
		Notifications: toggle{On: true, Unavailable: "needs Mew.app"},
		Login:         loginState{On: true, NeedsApproval: true},
	})
	if s := find(t, items, actionToggleSounds); s.Checked {
		t.Errorf("sounds off: %+v", s)
	}
	n := find(t, items, actionToggleNotifications)
	if n.Enabled || n.Checked || n.Title != "Notifications (needs Mew.app)" {
		t.Errorf("unavailable notifications: %+v", n)
	}
	l := find(t, items, actionToggleLogin)
	if !l.Checked || !l.Enabled || l.Title != "Launch at Login (approve in System Settings)" {
		t.Errorf("login awaiting approval: %+v", l)
	}
	l = find(t, buildMenu(menuState{Login: loginState{Unavailable: "move Mew to Applications"}}), actionToggleLogin)
	if l.Enabled || l.Title != "Launch at Login (move Mew to Applications)" {
		t.Errorf("login unavailable: %+v", l)
	}
}

func TestMenuCapsSessions(t *testing.T) {
	var in []session.Shown
	for i := 0; i < maxMenuSessions+5; i++ {
		in = append(in, shown(fmt.Sprintf("s%02d", i), session.Waiting, t0.Add(-time.Duration(100-i)*time.Second), "/p/x"))
	}
	items := buildMenu(menuState{Rows: rowsAt(t0, in...)})
	jumps := 0
	for _, it := range items {
		if it.Action == actionJump {
			jumps++
		}
	}
	if jumps != maxMenuSessions {
		t.Fatalf("%d session items, want %d", jumps, maxMenuSessions)
	}
	more := items[maxMenuSessions]
	if more.Title != "5 more in the panel" || more.Enabled {
		t.Fatalf("overflow line: %+v", more)
	}
	if items[0].SessionID != "s00" {
		t.Errorf("the longest wait comes first, got %s", items[0].SessionID)
	}
}

// Text from sessions (a project directory, a tool's detail) is untrusted:
// one line, no control or bidi characters, bounded.
func TestMenuHostileText(t *testing.T) {
	s := shown("h1", session.Waiting, t0.Add(-time.Minute), "/p/evil\nproject\x1b[31m\u202eflip"+strings.Repeat("x", 200))
	s.ToolDetail = "line1\r\nline2\ttab" + strings.Repeat("y", 500)
	items := buildMenu(menuState{Rows: rowsAt(t0, s)})
	it := items[0]
	for _, text := range []string{it.Title, it.ToolTip} {
		for _, r := range text {
			if r < 0x20 || r == 0x7f || r == '\u202e' {
				t.Fatalf("control or bidi character %U left in %q", r, text)
			}
		}
	}
	if n := len([]rune(it.Title)); n > menuTitleRunes {
		t.Errorf("title has %d runes, limit %d: %q", n, menuTitleRunes, it.Title)
	}
	if !strings.HasSuffix(it.Title, " — waiting · permission · 1m") || !strings.Contains(it.Title, "…") {
		t.Errorf("a long project is cut, keeping the state: %q", it.Title)
	}
	if n := len([]rune(it.ToolTip)); n > menuTipRunes {
		t.Errorf("tooltip has %d runes", n)
	}
	if !strings.HasPrefix(it.ToolTip, "Bash: line1 line2 tab") {
		t.Errorf("tooltip %q", it.ToolTip)
	}
}

func TestOneLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"plain", 10, "plain"},
		{"  a \n\n b  ", 10, "a b"},
		{"abcdef", 4, "abc…"},
		{"abcd", 4, "abcd"},
		{"héllo wörld", 7, "héllo …"},
		{"x\u200by", 5, "x y"}, // zero-width space is a format character
		{"", 3, ""},
	} {
		if got := oneLine(c.in, c.n); got != c.want {
			t.Errorf("oneLine(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// The message window has no buttons: a go-ahead it waits for (install's
// listed changes) is a menu item, there only while one is pending.
func TestMenuOffersThePendingConfirmation(t *testing.T) {
	find := func(items []menuItem) (menuItem, bool) {
		for _, it := range items {
			if it.Action == actionConfirm {
				return it, true
			}
		}
		return menuItem{}, false
	}
	if it, ok := find(buildMenu(menuState{})); ok {
		t.Fatalf("nothing pending, yet %+v", it)
	}
	it, ok := find(buildMenu(menuState{Confirm: "Install"}))
	if !ok || !it.Enabled || !strings.Contains(it.Title, "Install") {
		t.Fatalf("pending install: %+v %v", it, ok)
	}
	d := consentDialog(commandDialog(planCommand, planHeading+"\nClaude Code:\n  - a change", nil), func() {})
	if !strings.Contains(d.Text, it.Title) {
		t.Errorf("the message names %q, the menu shows %q", d.Text, it.Title)
	}
}

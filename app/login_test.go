package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"howett.net/plist"
)

func TestChooseLoginBackend(t *testing.T) {
	if chooseLoginBackend(true, true) != loginAppService {
		t.Error("bundle with SMAppService: want SMAppService")
	}
	for _, c := range [][2]bool{{false, true}, {true, false}, {false, false}} {
		if got := chooseLoginBackend(c[0], c[1]); got != loginLaunchAgent {
			t.Errorf("inBundle=%v service=%v: got %v, want LaunchAgent", c[0], c[1], got)
		}
	}
}

func TestLoginStatusFromSMAndToggle(t *testing.T) {
	cases := []struct {
		status int
		want   loginState
		op     loginOp
	}{
		{smStatusNotRegistered, loginState{}, loginEnable},
		{smStatusEnabled, loginState{On: true}, loginDisable},
		{smStatusRequiresApproval, loginState{On: true, NeedsApproval: true}, loginOpenSettings},
		// Before the first register SMAppService says "not found": off, and
		// the click registers (it used to say "unavailable" for ever).
		{smStatusNotFound, loginState{}, loginEnable},
		{42, loginState{Unavailable: "unknown status 42"}, loginNothing},
	}
	for _, c := range cases {
		got := loginStatusFromSM(c.status)
		if got != c.want {
			t.Errorf("status %d: %+v, want %+v", c.status, got, c.want)
		}
		if op := loginToggle(got); op != c.op {
			t.Errorf("status %d: toggle %v, want %v", c.status, op, c.op)
		}
	}
}

func TestLaunchAgentPlist(t *testing.T) {
	app := "/Users/me/Applications/Mew.app"
	data, err := makeLaunchAgentPlist(app)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if format, err := plist.Unmarshal(data, &got); err != nil || format != plist.XMLFormat {
		t.Fatalf("not an XML plist (%v): %s", err, data)
	}
	want := map[string]any{
		"Label": "dev.mew.Mew",
		// Mew.app through LaunchServices, never the bare binary: only the
		// bundle has the Apple Events usage string jumps need.
		"ProgramArguments":       []any{"/usr/bin/open", "-a", app},
		"RunAtLoad":              true,
		"ProcessType":            "Interactive",
		"LimitLoadToSessionType": "Aqua",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("plist:\n%#v\nwant:\n%#v", got, want)
	}
	if !strings.HasPrefix(string(data), `<?xml version="1.0" encoding="UTF-8"?>`) ||
		!strings.Contains(string(data), "<!DOCTYPE plist") {
		t.Errorf("launchd expects a standard XML plist header:\n%s", data)
	}
	// A path with XML's special characters is escaped, not injected.
	odd := "/Users/me/Apps & <Tools>/Mew.app"
	data, err = makeLaunchAgentPlist(odd)
	if err != nil {
		t.Fatal(err)
	}
	var p launchAgentPlist
	if _, err := plist.Unmarshal(data, &p); err != nil || p.ProgramArguments[2] != odd {
		t.Fatalf("round trip of %q: %v %+v", odd, err, p)
	}
}

func TestLaunchAgentPlistRefusesBadApp(t *testing.T) {
	for _, app := range []string{
		"", "Mew.app", "./Mew.app", "/Applications/../Mew.app", "/a/b\n/Mew.app", "/a\x00/Mew.app",
		"/usr/local/bin/mew", "/Applications/.app",
	} {
		if _, err := makeLaunchAgentPlist(app); err == nil {
			t.Errorf("LaunchAgentPlist(%q) accepted a path a login item must not open", app)
		}
	}
}

func TestFindMewApp(t *testing.T) {
	installed := map[string]bool{}
	exists := func(p string) bool { return installed[p] }
	// Run from the bundle (the cask's link resolves into it): that bundle.
	if got := findMewApp("/opt/Mew.app/Contents/MacOS/mew", "/Users/me", exists); got != "/opt/Mew.app" {
		t.Errorf("from the bundle: %q", got)
	}
	// A bare mew (make build) with nothing installed: none, so the item
	// is unavailable rather than starting a binary that cannot jump.
	if got := findMewApp("/Users/me/src/mew/bin/mew", "/Users/me", exists); got != "" {
		t.Errorf("nothing installed: %q", got)
	}
	installed["/Users/me/Applications/Mew.app/Contents/MacOS/mew"] = true
	if got := findMewApp("/Users/me/src/mew/bin/mew", "/Users/me", exists); got != "/Users/me/Applications/Mew.app" {
		t.Errorf("~/Applications: %q", got)
	}
	installed["/Applications/Mew.app/Contents/MacOS/mew"] = true
	if got := findMewApp("/Users/me/src/mew/bin/mew", "/Users/me", exists); got != "/Applications/Mew.app" {
		t.Errorf("/Applications first: %q", got)
	}
	if s := (launchAgentJob{App: ""}).Status(); s.Unavailable != "needs Mew.app" || loginToggle(s) != loginNothing {
		t.Errorf("no Mew.app: %+v", s)
	}
}

type launchctlCall []string

func fakeAgent(t *testing.T, fail map[string]error) (launchAgentJob, *[]launchctlCall) {
	t.Helper()
	var calls []launchctlCall
	a := launchAgentJob{
		Home: t.TempDir(), UID: 501, App: "/Applications/Tools/Mew.app",
		Run: func(ctx context.Context, argv []string) (string, error) {
			calls = append(calls, argv)
			if err := fail[argv[1]]; err != nil {
				return "Bootstrap failed: 5: Input/output error\n", err
			}
			return "", nil
		},
	}
	return a, &calls
}

func TestLaunchAgentEnableDisable(t *testing.T) {
	a, calls := fakeAgent(t, map[string]error{"bootout": errors.New("exit status 3")})
	if s := a.Status(); s.On || s.Unavailable != "" {
		t.Fatalf("before: %+v", s)
	}
	note, err := a.Enable(context.Background())
	if err != nil || note != "" {
		t.Fatalf("Enable: %v %q", err, note)
	}
	path := filepath.Join(a.Home, "Library", "LaunchAgents", "dev.mew.Mew.plist")
	if a.Path() != path {
		t.Fatalf("path %s", a.Path())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := makeLaunchAgentPlist(a.App); string(data) != string(want) {
		t.Fatalf("written plist differs:\n%s", data)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Errorf("plist mode %v, want 0644 (launchd ignores group/world-writable agents)", st.Mode().Perm())
	}
	wantCalls := []launchctlCall{
		{"/bin/launchctl", "bootout", "gui/501", path},
		{"/bin/launchctl", "bootstrap", "gui/501", path},
	}
	if !reflect.DeepEqual(*calls, wantCalls) {
		t.Fatalf("launchctl calls %q, want %q", *calls, wantCalls)
	}
	if s := a.Status(); !s.On {
		t.Fatalf("after Enable: %+v", s)
	}
	if loginToggle(a.Status()) != loginDisable {
		t.Fatal("an enabled agent toggles to disable")
	}

	*calls = nil
	if err := a.Disable(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("plist still there: %v", err)
	}
	if !reflect.DeepEqual(*calls, []launchctlCall{{"/bin/launchctl", "bootout", "gui/501", path}}) {
		t.Fatalf("disable calls %q", *calls)
	}
	if s := a.Status(); s.On {
		t.Fatalf("after Disable: %+v", s)
	}
	// Disabling twice is fine.
	if err := a.Disable(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestLaunchAgentBootstrapFailureIsANote(t *testing.T) {
	a, _ := fakeAgent(t, map[string]error{"bootstrap": errors.New("exit status 5")})
	note, err := a.Enable(context.Background())
	if err != nil {
		t.Fatalf("a load failure must not fail Enable (the plist counts at login): %v", err)
	}
	if !strings.Contains(note, "bootstrap") || !strings.Contains(note, "Input/output error") {
		t.Fatalf("note %q", note)
	}
	if !a.Status().On {
		t.Fatal("the plist is in place: status on")
	}
}

// Run by launchd as the agent's job, unloading the job would stop this
// very process: only the file changes.
func TestLaunchAgentNeverUnloadsItself(t *testing.T) {
	a, calls := fakeAgent(t, nil)
	a.ServiceName = bundleID
	if _, err := a.Enable(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := a.Disable(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(*calls) != 0 {
		t.Fatalf("launchctl called from inside the job: %q", *calls)
	}
}

func TestLaunchAgentStatusOtherApp(t *testing.T) {
	a, _ := fakeAgent(t, nil)
	if _, err := a.Enable(context.Background()); err != nil {
		t.Fatal(err)
	}
	moved := a
	moved.App = "/Applications/Other/Mew.app"
	if s := moved.Status(); s.On {
		t.Fatalf("a plist for another Mew.app must count as off: %+v", s)
	}
	moved.App = "relative/Mew.app"
	if s := moved.Status(); s.Unavailable == "" {
		t.Fatalf("a bad path makes the item unavailable: %+v", s)
	}
	// A corrupt plist counts as off, and enabling replaces it.
	if err := os.WriteFile(a.Path(), []byte("not a plist"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := a.Status(); s.On {
		t.Fatalf("corrupt plist: %+v", s)
	}
}

// Mew.app opened in ~/Downloads runs translocated (a random read-only
// copy): its login item would point at a path gone after a restart. The
// menu says what to do instead, and a click registers nothing.
func TestTranslocatedAppSaysMoveItToApplications(t *testing.T) {
	exe := "/private/var/folders/x1/abc/T/AppTranslocation/6F1B7F0E-0000-4000-8000-000000000000/d/Mew.app/Contents/MacOS/mew"
	why := loginUnavailableFor(exe)
	if !strings.Contains(why, "Applications") {
		t.Fatalf("translocated: %q", why)
	}
	s := loginState{Unavailable: why}
	if it := loginItem(s); it.Enabled || !strings.Contains(it.Title, "move Mew.app to Applications") {
		t.Errorf("menu item %+v", it)
	}
	if loginToggle(s) != loginNothing {
		t.Error("a click would register the translocated copy")
	}
	for _, ok := range []string{"/Applications/Mew.app/Contents/MacOS/mew", "/Users/me/Downloads/Mew.app/Contents/MacOS/mew", "/usr/local/bin/mew"} {
		if why := loginUnavailableFor(ok); why != "" {
			t.Errorf("%s: %q", ok, why)
		}
	}
}

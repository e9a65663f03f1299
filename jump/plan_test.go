package jump

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mew-dev/mew/terminal/termid"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

const (
	guid      = "6A3C1E2F-0B4D-4C5E-9F60-7A8B9C0D1E2F"
	tty       = "/dev/ttys003"
	clientTty = "/dev/ttys011"
	cwd       = "/Users/dev/src/mew"
)

func terminalHost() *Host {
	return &Host{Kind: KindTerminal, BundleID: "com.apple.Terminal", AppPath: "/System/Applications/Utilities/Terminal.app", Pid: 400}
}
func itermHost() *Host {
	return &Host{Kind: KindITerm, BundleID: "com.googlecode.iterm2", Pid: 401}
}
func ghosttyHost() *Host {
	return &Host{Kind: KindGhostty, BundleID: "com.mitchellh.ghostty", AppPath: "/Applications/Ghostty.app", Pid: 402}
}
func weztermHost() *Host {
	return &Host{Kind: KindWezTerm, BundleID: "com.github.wez.wezterm", AppPath: "/Applications/WezTerm.app", Pid: 403}
}
func kittyHost() *Host {
	return &Host{Kind: KindKitty, BundleID: "net.kovidgoyal.kitty", AppPath: "/Applications/kitty.app", Pid: 404}
}
func vscodeHost() *Host {
	return &Host{Kind: KindVSCode, BundleID: "com.microsoft.VSCode", AppPath: "/Applications/Visual Studio Code.app", Pid: 405}
}
func appHost(id, path string) *Host {
	return &Host{Kind: KindOf(id), BundleID: id, AppPath: path, Pid: 406}
}

func mac(host *Host, env map[string]string) Facts {
	return Facts{
		GOOS: "darwin", SessionID: "s1",
		Agent: Agent{Pid: 1234, Alive: true, Tty: tty, Cwd: cwd, Env: env},
		Host:  host,
		Tools: Tools{WezTerm: "/Applications/WezTerm.app/Contents/MacOS/wezterm", Kitten: "/Applications/kitty.app/Contents/MacOS/kitten"},
	}
}

func tmuxFacts(goos string, host *Host, clientEnv map[string]string) Facts {
	ct := clientTty
	if goos != "darwin" {
		ct = "/dev/pts/3"
	}
	f := mac(host, map[string]string{"TMUX": "/private/tmp/tmux-501/default,777,0", "TMUX_PANE": "%5", "ITERM_SESSION_ID": "w0t0p0:" + guid, "WEZTERM_PANE": "99"})
	f.GOOS = goos
	f.Agent.Tty = "/dev/ttys020"
	f.Tmux = &Tmux{Socket: "/private/tmp/tmux-501/default", Pane: "%5", ServerPid: 777, Client: &Client{Tty: ct, Pid: 900, Env: clientEnv}}
	f.Tools.Tmux = "/opt/homebrew/bin/tmux"
	return f
}

// zellijFacts is a session in zellij whose recorded environment also has an
// iTerm2 session id inherited from the tab that created the zellij session:
// it must not be used (that tab may show something else now).
func zellijFacts(goos string, host *Host, sess, pane string) Facts {
	f := mac(host, map[string]string{"ITERM_SESSION_ID": "w0t0p0:" + guid, "TERM_PROGRAM": "iTerm.app", "ZELLIJ_SESSION_NAME": sess, "ZELLIJ_PANE_ID": pane})
	f.GOOS = goos
	if goos != "darwin" {
		f.Agent.Tty = "/dev/pts/5"
	}
	f.Zellij = &Zellij{Session: sess, Pane: pane}
	f.Tools.Zellij = "/opt/homebrew/bin/zellij"
	return f
}

// planCases are the golden cases: every host, with and without what it
// needs, and hostile values.
func planCases() map[string]Facts {
	c := map[string]Facts{}
	c["terminal-tab"] = mac(terminalHost(), nil)
	f := mac(terminalHost(), nil)
	f.Agent.Alive = false
	c["terminal-agent-exited"] = f
	f = mac(terminalHost(), nil)
	f.Agent.Tty = "/dev/ttys003\" & (do shell script \"touch /tmp/pwned\") & \""
	c["terminal-hostile-tty"] = f
	f = mac(terminalHost(), nil)
	f.Agent.Tty = ""
	c["terminal-no-tty"] = f

	c["iterm-by-id"] = mac(itermHost(), map[string]string{"ITERM_SESSION_ID": "w0t1p0:" + guid})
	c["iterm-by-tty"] = mac(itermHost(), map[string]string{"TERM_PROGRAM": "iTerm.app"})
	c["iterm-hostile-id"] = mac(itermHost(), map[string]string{"ITERM_SESSION_ID": "w0t1p0:\" & do shell script \"id\" & \""})
	f = mac(itermHost(), map[string]string{"ITERM_SESSION_ID": "w0t1p0:" + guid})
	f.Agent.Alive = false
	c["iterm-agent-exited"] = f
	// An iTerm2 before 3.5.0 has no reveal URL: by AppleScript only.
	f = mac(itermHost(), map[string]string{"ITERM_SESSION_ID": "w0t1p0:" + guid})
	f.Host.Version = "3.4.23"
	c["iterm-old-no-reveal"] = f
	f = mac(itermHost(), map[string]string{"ITERM_SESSION_ID": "w0t1p0:" + guid, "TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.4.19"})
	c["iterm-old-by-env"] = f

	c["ghostty"] = mac(ghosttyHost(), nil)
	f = mac(ghosttyHost(), nil)
	f.Agent.Alive = false
	c["ghostty-agent-exited"] = f

	c["wezterm"] = mac(weztermHost(), map[string]string{"WEZTERM_PANE": "7", "WEZTERM_UNIX_SOCKET": "/Users/dev/.local/share/wezterm/gui-sock-403"})
	c["wezterm-no-pane"] = mac(weztermHost(), nil)
	c["wezterm-hostile-pane"] = mac(weztermHost(), map[string]string{"WEZTERM_PANE": "7 --help"})

	c["kitty-remote"] = mac(kittyHost(), map[string]string{"KITTY_WINDOW_ID": "3", "KITTY_LISTEN_ON": "unix:/tmp/kitty-404"})
	c["kitty-no-remote-control"] = mac(kittyHost(), map[string]string{"KITTY_WINDOW_ID": "3"})
	c["kitty-hostile-listen"] = mac(kittyHost(), map[string]string{"KITTY_WINDOW_ID": "3", "KITTY_LISTEN_ON": "tcp:evil.example:1"})

	f = mac(vscodeHost(), map[string]string{"TERM_PROGRAM": "vscode"})
	f.EditorFolders = []string{"/Users/dev/other", "/Users/dev/src/mew"}
	c["vscode-folder"] = f
	f = mac(vscodeHost(), nil)
	f.Agent.Cwd = cwd + "/cmd/mew"
	f.EditorFolders = []string{"/Users/dev/src/mew"}
	c["vscode-subfolder"] = f
	c["vscode-folders-unknown"] = mac(vscodeHost(), nil)
	f = mac(vscodeHost(), nil)
	f.EditorFolders = []string{"/Users/dev/src", "/Users/dev/src/mew"}
	c["vscode-nested-folders"] = f
	f = mac(appHost("com.todesktop.230313mzl4w4u92", "/Applications/Cursor.app"), nil)
	f.EditorFolders = []string{cwd}
	c["cursor-folder"] = f
	f = mac(appHost("com.exafunction.windsurf", "/Applications/Windsurf.app"), nil)
	f.EditorFolders = []string{cwd}
	c["windsurf-folder"] = f
	f = mac(appHost("com.vscodium", "/Applications/VSCodium.app"), nil)
	f.EditorFolders = []string{cwd}
	c["vscodium-folder"] = f
	// VS Code started from iTerm2 inherits ITERM_SESSION_ID: the tree says
	// VS Code, so iTerm2 must not be touched.
	f = mac(vscodeHost(), map[string]string{"ITERM_SESSION_ID": "w0t0p0:" + guid, "TERM_PROGRAM": "vscode"})
	f.EditorFolders = []string{cwd}
	c["vscode-started-from-iterm"] = f

	c["jetbrains"] = mac(appHost("com.jetbrains.intellij", "/Applications/IntelliJ IDEA.app"), nil)
	c["zed"] = mac(appHost("dev.zed.Zed", "/Applications/Zed.app"), nil)
	c["warp"] = mac(appHost("dev.warp.Warp-Stable", "/Applications/Warp.app"), map[string]string{"TERM_PROGRAM": "WarpTerminal"})
	c["warp-focus-url"] = mac(appHost("dev.warp.Warp-Stable", "/Applications/Warp.app"), map[string]string{"TERM_PROGRAM": "WarpTerminal", "WARP_FOCUS_URL": "warp://session/7b1c0e4a-55aa"})
	c["warp-hostile-url"] = mac(appHost("dev.warp.Warp-Stable", "/Applications/Warp.app"), map[string]string{"WARP_FOCUS_URL": "warp://x\" ; open -a Calculator"})
	f = mac(ghosttyHost(), nil)
	f.Agent.Tty = ""
	c["ghostty-cwd-only"] = f
	c["zellij-iterm"] = zellijFacts("darwin", itermHost(), "dreamy-cat", "3")
	c["zellij-hostile-session"] = zellijFacts("darwin", itermHost(), "x --layout /tmp/evil", "3")
	f = zellijFacts("darwin", nil, "dreamy-cat", "3")
	f.HostWhy = `the terminal showing the zellij session is not known ($TERM_PROGRAM "")`
	c["zellij-no-host"] = f
	f = zellijFacts("linux", nil, "dreamy-cat", "3")
	f.HostWhy = "the terminal showing the zellij session is not known"
	c["linux-zellij"] = f
	c["alacritty"] = mac(appHost("org.alacritty", "/Applications/Alacritty.app"), nil)
	c["unknown-app-hostile-bundle"] = mac(&Host{Kind: KindApp, BundleID: "-n; open /tmp", AppPath: "/Applications/Odd.app"}, nil)

	f = mac(nil, nil)
	f.HostWhy = "no application was found above the agent process"
	c["no-host"] = f
	c["never-recorded"] = Facts{GOOS: "darwin", SessionID: "s1", HostWhy: "the session's process was never recorded (no SessionStart hook was seen)"}

	c["tmux-terminal"] = tmuxFacts("darwin", terminalHost(), nil)
	c["tmux-iterm"] = tmuxFacts("darwin", itermHost(), map[string]string{"ITERM_SESSION_ID": "w1t0p0:0B0C1E2F-0B4D-4C5E-9F60-7A8B9C0D1E2F"})
	c["tmux-wezterm"] = tmuxFacts("darwin", weztermHost(), map[string]string{"WEZTERM_PANE": "12"})
	c["tmux-kitty"] = tmuxFacts("darwin", kittyHost(), map[string]string{"KITTY_WINDOW_ID": "4", "KITTY_LISTEN_ON": "unix:/tmp/kitty-404"})
	c["tmux-ghostty"] = tmuxFacts("darwin", ghosttyHost(), nil)
	f = tmuxFacts("darwin", vscodeHost(), nil)
	f.EditorFolders = []string{cwd}
	c["tmux-vscode"] = f
	c["tmux-alacritty"] = tmuxFacts("darwin", appHost("org.alacritty", "/Applications/Alacritty.app"), nil)
	f = tmuxFacts("darwin", nil, nil)
	f.HostWhy = "tmux client on /dev/ttys011: no application was found above the agent process"
	c["tmux-no-host"] = f
	f = tmuxFacts("darwin", terminalHost(), nil)
	f.Tmux.Why = "the tmux server was restarted since the session started, so %5 is another pane now"
	f.Tmux.Client = nil
	f.Host = nil
	c["tmux-server-restarted"] = f
	f = tmuxFacts("darwin", itermHost(), nil)
	f.Tmux.Client.Control = true
	c["tmux-control-mode"] = f
	f = tmuxFacts("darwin", terminalHost(), nil)
	f.Tmux.Client = nil
	f.Host = nil
	c["tmux-no-client"] = f
	f = tmuxFacts("darwin", terminalHost(), nil)
	f.Tmux.Pane = "%5;kill-server"
	c["tmux-hostile-pane"] = f
	f = tmuxFacts("darwin", terminalHost(), nil)
	f.Tmux.Socket = "relative/socket"
	c["tmux-hostile-socket"] = f

	f = tmuxFacts("linux", nil, nil)
	f.HostWhy = "tmux client on /dev/pts/3: no WezTerm or kitty was found above the process"
	c["linux-tmux"] = f
	f = tmuxFacts("linux", &Host{Kind: KindKitty, Exe: "/usr/bin/kitty", Pid: 50}, map[string]string{"KITTY_WINDOW_ID": "2", "KITTY_LISTEN_ON": "unix:@mykitty"})
	f.Tools.Kitten = "/usr/bin/kitten"
	c["linux-tmux-kitty"] = f
	f = Facts{GOOS: "linux", SessionID: "s1", Agent: Agent{Pid: 10, Alive: true, Tty: "/dev/pts/4", Env: map[string]string{"WEZTERM_PANE": "3"}},
		Host: &Host{Kind: KindWezTerm, Exe: "/usr/bin/wezterm-gui", Pid: 9}, Tools: Tools{WezTerm: "/usr/bin/wezterm"}}
	c["linux-wezterm"] = f
	f = Facts{GOOS: "linux", SessionID: "s1", Agent: Agent{Pid: 10, Alive: true, Tty: "/dev/pts/4"}, HostWhy: "no WezTerm or kitty was found above the process"}
	c["linux-other-terminal"] = f
	return c
}

type golden struct {
	Plan    Plan              `json:"plan"`
	Scripts map[string]string `json:"scripts_used,omitempty"`
}

// TestPlanGolden compares every case's plan with testdata/plans/<case>.json
// (go test ./jump -run PlanGolden -update rewrites them; review the diff).
func TestPlanGolden(t *testing.T) {
	for name, f := range planCases() {
		t.Run(name, func(t *testing.T) {
			p := Make(f)
			got, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "plans", name+".json")
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("plan differs from %s:\n%s", path, got)
			}
		})
	}
}

// TestPlanPrecisions states the outcome of the main cases outright, so the
// golden files are not the only statement of intent.
func TestPlanPrecisions(t *testing.T) {
	want := map[string]struct {
		precision Precision
		mechanism string
	}{
		"terminal-tab":               {Tab, "applescript+activate"},
		"terminal-agent-exited":      {App, "activate"},
		"terminal-hostile-tty":       {App, "activate"},
		"iterm-by-id":                {Pane, "open-url+applescript+activate"}, // its own id first: the reveal URL
		"iterm-hostile-id":           {Pane, "applescript+activate"},          // by tty only
		"iterm-agent-exited":         {Pane, "open-url+applescript+activate"}, // by id only
		"iterm-old-no-reveal":        {Pane, "applescript+activate"},          // before 3.5.0: no reveal URL
		"iterm-old-by-env":           {Pane, "applescript+activate"},          // the version the session started under
		"ghostty":                    {Pane, "applescript+activate"},
		"ghostty-agent-exited":       {App, "activate"},
		"wezterm":                    {Pane, "wezterm-cli+activate"},
		"wezterm-hostile-pane":       {App, "activate"},
		"kitty-remote":               {Pane, "kitty-remote+activate"},
		"kitty-no-remote-control":    {App, "activate"},
		"kitty-hostile-listen":       {App, "activate"},
		"vscode-folder":              {Window, "open-folder+activate"},
		"vscode-subfolder":           {Window, "open-folder+activate"},
		"vscode-folders-unknown":     {App, "activate"},
		"vscode-nested-folders":      {App, "activate"},
		"vscode-started-from-iterm":  {Window, "open-folder+activate"},
		"cursor-folder":              {Window, "open-folder+activate"},
		"jetbrains":                  {App, "activate"},
		"warp":                       {App, "activate"},
		"unknown-app-hostile-bundle": {App, "activate"}, // by its path, not the bad id
		"no-host":                    {None, "none"},
		"never-recorded":             {None, "none"},
		"tmux-terminal":              {Pane, "tmux+applescript+activate"},
		"tmux-iterm":                 {Pane, "tmux+open-url+applescript+activate"},
		"tmux-wezterm":               {Pane, "tmux+wezterm-cli+activate"},
		"tmux-kitty":                 {Pane, "tmux+kitty-remote+activate"},
		"tmux-vscode":                {App, "tmux+activate"},
		"tmux-alacritty":             {App, "tmux+activate"},
		"tmux-no-host":               {None, "none"},
		"tmux-server-restarted":      {None, "none"},
		"tmux-control-mode":          {App, "activate"},
		"tmux-hostile-pane":          {App, "activate"},
		"tmux-hostile-socket":        {App, "activate"},
		"linux-tmux":                 {Pane, "tmux"},
		"linux-tmux-kitty":           {Pane, "tmux+kitty-remote"},
		"linux-wezterm":              {Pane, "wezterm-cli"},
		"linux-other-terminal":       {None, "none"},
		"warp-focus-url":             {Tab, "open-url+activate"},
		"warp-hostile-url":           {App, "activate"},
		"ghostty-cwd-only":           {Pane, "applescript+activate"}, // the script itself refuses two matches
		// zellij on macOS: the pane is selected, but which tab shows the
		// zellij client is not known: the app only, never an inherited id.
		"zellij-iterm":           {App, "zellij+activate"},
		"zellij-hostile-session": {App, "activate"},
		"zellij-no-host":         {None, "none"},
		"linux-zellij":           {Pane, "zellij"},
	}
	cases := planCases()
	for name, w := range want {
		f, ok := cases[name]
		if !ok {
			t.Fatalf("no case %q", name)
		}
		p := Make(f)
		if p.Precision != w.precision || p.Mechanism != w.mechanism {
			t.Errorf("%s: precision %s via %s, want %s via %s (why: %s)", name, p.Precision, p.Mechanism, w.precision, w.mechanism, p.Why)
		}
		if p.Why == "" {
			t.Errorf("%s: no why", name)
		}
	}
}

// TestPlansNeverSpliceValues checks every step of every plan: scripts are
// the constants, with no value of the plan inside them; programs are
// absolute; the Linux plans carry no macOS step.
func TestPlansNeverSpliceValues(t *testing.T) {
	scriptTexts := map[string]bool{}
	for _, s := range Scripts {
		scriptTexts[s] = true
	}
	for name, f := range planCases() {
		p := Make(f)
		values := targetValues(p.Target)
		for _, s := range append(append([]Step{}, p.Inner...), p.Outer...) {
			if !termid.ValidPath(s.Argv[0]) {
				t.Errorf("%s: %s: program %q is not an absolute path", name, s.Name, s.Argv[0])
			}
			if f.GOOS != "darwin" && (s.Argv[0] == osascriptPath || s.Argv[0] == openPath) {
				t.Errorf("%s: macOS step %q in a %s plan", name, s.Name, f.GOOS)
			}
			if s.ScriptName == "" {
				if s.Argv[0] == osascriptPath {
					t.Errorf("%s: osascript without a known script", name)
				}
				continue
			}
			text := s.Script()
			if !scriptTexts[text] {
				t.Errorf("%s: script %q is not one of the constants", name, s.ScriptName)
			}
			if s.Argv[0] != osascriptPath || s.Argv[1] != "-" || len(s.Argv) != 3 {
				t.Errorf("%s: script step argv = %q, want osascript - <value>", name, s.Argv)
			}
			for _, v := range append(values, s.Argv[2]) {
				if v != "" && strings.Contains(text, v) {
					t.Errorf("%s: value %q appears inside script %s", name, v, s.ScriptName)
				}
			}
		}
		// Hostile values never reach any step.
		for _, s := range append(append([]Step{}, p.Inner...), p.Outer...) {
			for _, a := range append(append([]string{}, s.Argv...), s.Env...) {
				if strings.Contains(a, "shell script") || strings.Contains(a, "kill-server") || strings.Contains(a, "--help") || strings.Contains(a, "evil.example") || strings.Contains(a, "open /tmp") {
					t.Errorf("%s: hostile value reached step %q: %q", name, s.Name, a)
				}
			}
		}
	}
}

func targetValues(t Target) []string {
	return []string{t.Tty, t.ITermSession, t.TmuxSocket, t.TmuxPane, t.TmuxClient, t.WezTermPane, t.KittyWindow, t.KittyListen, t.Folder, t.Cwd}
}

// TestScriptsGolden pins the AppleScript texts (testdata/scripts) and their
// shape: values only through argv, no shell, never launching an app.
func TestScriptsGolden(t *testing.T) {
	names := make([]string, 0, len(Scripts))
	for n := range Scripts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		text := Scripts[n]
		path := filepath.Join("testdata", "scripts", n+".applescript")
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		} else if want, err := os.ReadFile(path); err != nil || string(want) != text {
			t.Errorf("%s differs from %s (%v)", n, path, err)
		}
		for _, must := range []string{"on run argv", "set wanted to item 1 of argv", "is not running then return \"notrunning\"", "return \"ok\""} {
			if !strings.Contains(text, must) {
				t.Errorf("%s lacks %q", n, must)
			}
		}
		for _, banned := range []string{"do shell script", "run script", "System Events", "keystroke", "/dev/", "%"} {
			if strings.Contains(text, banned) {
				t.Errorf("%s contains %q", n, banned)
			}
		}
		// `application id "…"` must be a constant: the only quoted strings
		// are bundle ids and the result words.
		for _, q := range quoted(text) {
			switch q {
			case "ok", "notfound", "notrunning", "ambiguous",
				"com.apple.Terminal", "com.googlecode.iterm2", "com.mitchellh.ghostty":
			default:
				t.Errorf("%s: unexpected string literal %q", n, q)
			}
		}
	}
}

func quoted(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i+1:], '"')
		if j < 0 {
			return out
		}
		out = append(out, s[i+1:i+1+j])
		s = s[i+j+2:]
	}
}

func TestOutcome(t *testing.T) {
	tmuxOnly := Plan{Inner: []Step{{}}}
	tmuxTerm := Plan{Inner: []Step{{}}, Outer: []Step{{Gives: Tab}, {Gives: App}}}
	wez := Plan{Inner: []Step{{}}, InnerShowsHost: true, Outer: []Step{{Gives: App}}}
	direct := Plan{Outer: []Step{{Gives: Tab}, {Gives: App}}}
	cases := []struct {
		p       Plan
		innerOK bool
		outer   Precision
		want    Precision
	}{
		{tmuxOnly, true, None, Pane},
		{tmuxOnly, false, None, None},
		{tmuxTerm, true, Tab, Pane},
		{tmuxTerm, true, App, App},
		{tmuxTerm, false, Tab, App},
		{tmuxTerm, true, None, None},
		{wez, true, App, Pane},
		{wez, false, App, App},
		{wez, true, None, None},
		{direct, true, Tab, Tab},
		{direct, true, App, App},
		{direct, true, None, None},
	}
	for i, c := range cases {
		if got := c.p.Outcome(c.innerOK, c.outer); got != c.want {
			t.Errorf("case %d: Outcome(%v, %s) = %s, want %s", i, c.innerOK, c.outer, got, c.want)
		}
	}
}

// A zellij session's environment has the ids of the tab that created the
// session, which may show something else now: none of them is used, and
// the plan says why it brings only the app forward.
func TestZellijNeverUsesInheritedTabIDs(t *testing.T) {
	p := Make(planCases()["zellij-iterm"])
	for _, s := range append(append([]Step{}, p.Inner...), p.Outer...) {
		for _, a := range s.Argv {
			if strings.Contains(a, guid) {
				t.Fatalf("step %q uses the inherited iTerm2 id", s.Name)
			}
		}
	}
	if p.Inner[0].Argv[len(p.Inner[0].Argv)-2] != "focus-pane-id" || !strings.Contains(p.Why, "not known") {
		t.Fatalf("plan %+v", p)
	}
}

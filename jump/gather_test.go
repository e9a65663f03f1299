package jump

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
)

type fakeProcs map[int]proctree.Proc

func (f fakeProcs) Get(pid int) (proctree.Proc, error) {
	if p, ok := f[pid]; ok {
		return p, nil
	}
	return proctree.Proc{}, proctree.ErrNoProcess
}

// bundles answers bundle ids for the given app paths, as Info.plist would.
func bundles(m map[string]string) func(string) (string, error) {
	return func(app string) (string, error) {
		if id, ok := m[app]; ok {
			return id, nil
		}
		return "", os.ErrNotExist
	}
}

type fakeTmux struct {
	serverPid string
	paneGone  bool
	clients   string
	calls     [][]string
}

func (t *fakeTmux) query(_ context.Context, argv []string) (string, error) {
	t.calls = append(t.calls, argv)
	switch argv[3] {
	case "display-message":
		if t.paneGone {
			return "", errors.New("can't find pane: %5")
		}
		return t.serverPid + " " + argv[6] + "\n", nil
	case "list-clients":
		return t.clients, nil
	}
	return "", errors.New("unexpected " + strings.Join(argv, " "))
}

func macSystem(procs fakeProcs, tm *fakeTmux) System {
	return System{
		GOOS:  "darwin",
		Procs: procs,
		BundleID: bundles(map[string]string{
			"/System/Applications/Utilities/Terminal.app": "com.apple.Terminal",
			"/Applications/iTerm.app":                     "com.googlecode.iterm2",
			"/Applications/Visual Studio Code.app":        "com.microsoft.VSCode",
			"/Applications/WezTerm.app":                   "com.github.wez.wezterm",
		}),
		Environ: func(pid int, keys []string) (map[string]string, error) {
			if pid == 900 {
				return map[string]string{"ITERM_SESSION_ID": "w0t2p1:" + guid}, nil
			}
			return nil, os.ErrPermission
		},
		Query: tm.query,
		ReadFile: func(path string) ([]byte, error) {
			if path == "/Users/dev/Library/Application Support/Code/User/globalStorage/storage.json" {
				return []byte(`{"backupWorkspaces":{"folders":[{"folderUri":"file:///Users/dev/src/mew"},{"folderUri":"vscode-remote://ssh-remote+box/home/x"}]},"windowsState":{"lastActiveWindow":{"folder":"file:///Users/dev/My%20Project"}}}`), nil
			}
			return nil, os.ErrNotExist
		},
		IsExecutable: func(p string) bool {
			return p == "/opt/homebrew/bin/tmux" || p == "/usr/local/bin/tmux-old/tmux" || p == "/Applications/WezTerm.app/Contents/MacOS/wezterm"
		},
		Home: "/Users/dev",
		Path: []string{"/usr/bin", "/bin"},
	}
}

func tmuxRecord() session.Record {
	return session.Record{
		ID:   "sess-1",
		Hook: &session.HookState{Cwd: cwd},
		Process: &session.Process{
			Pid: 1234, StartMs: 1_700_000_000_000, Tty: "/dev/ttys020",
			Env:  map[string]string{"TMUX": "/private/tmp/tmux-501/default,777,0", "TMUX_PANE": "%5", "ITERM_SESSION_ID": "w9t9p9:" + strings.Repeat("0", 8) + "-0000-0000-0000-000000000000"},
			Tmux: &session.Tmux{Socket: "/private/tmp/tmux-501/default", Pane: "%5", ServerPid: 777},
			// Under tmux the agent's ancestors end at the server.
			Ancestors: []session.Ancestor{{Pid: 1200, Name: "zsh", Exe: "/bin/zsh"}, {Pid: 777, Name: "tmux", Exe: "/opt/homebrew/bin/tmux"}},
		},
	}
}

func TestGatherTmuxPicksLastClientAndItsHost(t *testing.T) {
	procs := fakeProcs{
		1234: {Pid: 1234, PPid: 1200, StartMs: 1_700_000_000_000},
		777:  {Pid: 777, PPid: 1, Name: "tmux", Exe: "/opt/homebrew/bin/tmux", StartMs: 1_699_000_000_000},
		// The client used last runs in iTerm2 (under its session daemon);
		// an older client runs in Terminal.
		900: {Pid: 900, PPid: 890, Name: "tmux", Exe: "/opt/homebrew/bin/tmux", StartMs: 1_700_000_100_000},
		890: {Pid: 890, PPid: 880, Name: "zsh", Exe: "/bin/zsh", StartMs: 1_700_000_050_000},
		880: {Pid: 880, PPid: 1, Name: "iTermServer-3.5", Exe: "/Users/dev/Library/Application Support/iTerm2/iTermServer-3.5.11", StartMs: 1_690_000_000_000},
		901: {Pid: 901, PPid: 450, Name: "tmux", Exe: "/opt/homebrew/bin/tmux"},
		450: {Pid: 450, PPid: 1, Name: "Terminal", Exe: "/System/Applications/Utilities/Terminal.app/Contents/MacOS/Terminal"},
	}
	tm := &fakeTmux{serverPid: "777", clients: "1700000200 901 0 /dev/ttys004\n1700000300 900 0 /dev/ttys011\n1700000999 902 1 /dev/ttys012\n"}
	f := Gather(context.Background(), tmuxRecord(), macSystem(procs, tm))
	if f.Tools.Tmux != "/opt/homebrew/bin/tmux" {
		t.Errorf("tmux = %q, want the server's own binary", f.Tools.Tmux)
	}
	if f.Tmux == nil || f.Tmux.Why != "" || f.Tmux.Client == nil {
		t.Fatalf("tmux facts = %+v", f.Tmux)
	}
	if c := f.Tmux.Client; c.Tty != "/dev/ttys011" || c.Pid != 900 || c.Control || c.Env["ITERM_SESSION_ID"] != "w0t2p1:"+guid {
		t.Errorf("client = %+v, want the most recently active non-control client with its env", c)
	}
	if f.Host == nil || f.Host.Kind != KindITerm || f.Host.Pid != 880 {
		t.Fatalf("host = %+v (%s), want iTerm2 from the client's tree", f.Host, f.HostWhy)
	}
	for _, call := range tm.calls {
		if call[0] != "/opt/homebrew/bin/tmux" || call[1] != "-S" || call[2] != "/private/tmp/tmux-501/default" {
			t.Errorf("query %q", call)
		}
	}
	// The plan selects the client's iTerm2 session, not the stale
	// ITERM_SESSION_ID the agent inherited through tmux.
	p := Make(f)
	if p.Precision != Pane || p.Target.ITermSession != guid || p.Target.TmuxClient != "/dev/ttys011" {
		t.Errorf("plan = %+v", p)
	}
}

func TestGatherTmuxRefusesRestartedServerAndGonePane(t *testing.T) {
	procs := fakeProcs{1234: {Pid: 1234, PPid: 1200, StartMs: 1_700_000_000_000}}
	tm := &fakeTmux{serverPid: "4242", clients: "1 900 0 /dev/ttys011\n"}
	f := Gather(context.Background(), tmuxRecord(), macSystem(procs, tm))
	if f.Tmux == nil || !strings.Contains(f.Tmux.Why, "restarted") || f.Tmux.Client != nil {
		t.Fatalf("restarted server: tmux = %+v", f.Tmux)
	}
	if f.Tools.Tmux != "/opt/homebrew/bin/tmux" {
		t.Errorf("fallback tmux = %q, want the one found in the tool directories", f.Tools.Tmux)
	}
	if p := Make(f); len(p.Inner) != 0 || p.Precision != None {
		t.Errorf("plan for a restarted server = %+v", p)
	}

	tm = &fakeTmux{serverPid: "777", paneGone: true}
	f = Gather(context.Background(), tmuxRecord(), macSystem(procs, tm))
	if f.Tmux == nil || !strings.Contains(f.Tmux.Why, "gone") {
		t.Fatalf("gone pane: tmux = %+v", f.Tmux)
	}
	if len(tm.calls) != 1 {
		t.Errorf("after a gone pane Gather still ran %d queries", len(tm.calls))
	}
}

func TestGatherTmuxHostileRecordRunsNothing(t *testing.T) {
	rec := tmuxRecord()
	rec.Process.Tmux.Pane = "%5; kill-server"
	tm := &fakeTmux{serverPid: "777"}
	f := Gather(context.Background(), rec, macSystem(fakeProcs{}, tm))
	if len(tm.calls) != 0 {
		t.Fatalf("a hostile pane id reached tmux: %q", tm.calls)
	}
	if p := Make(f); len(p.Inner) != 0 || !strings.Contains(p.Why, "not a tmux pane id") {
		t.Errorf("plan = %+v", p)
	}
}

func TestLastClient(t *testing.T) {
	if c := lastClient(""); c != nil {
		t.Errorf("no clients: %+v", c)
	}
	if c := lastClient("5 10 1 /dev/ttys001\n"); c == nil || !c.Control {
		t.Errorf("only a control client: %+v", c)
	}
	if c := lastClient("5 10 0 /dev/ttys009\n5 11 0 /dev/ttys002\ngarbage\n7 1 0 /dev/ttys005\n"); c == nil || c.Tty != "/dev/ttys002" {
		t.Errorf("tie: %+v, want the lowest tty (pid 1 is no client)", c)
	}
}

func TestGatherRecordedHost(t *testing.T) {
	rec := session.Record{
		ID:   "sess-2",
		Hook: &session.HookState{Cwd: "/Users/dev/src/mew/cmd"},
		Process: &session.Process{
			Pid: 1234, StartMs: 1_700_000_000_000, Tty: "/dev/ttys003",
			Env: map[string]string{"ITERM_SESSION_ID": "w0t0p0:" + guid, "TERM_PROGRAM": "vscode"},
			Ancestors: []session.Ancestor{
				{Pid: 1200, Name: "zsh", Exe: "/bin/zsh"},
				{Pid: 1100, Name: "Code Helper", Exe: "/Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper.app/Contents/MacOS/Code Helper"},
				{Pid: 1000, Name: "Electron", Exe: "/Applications/Visual Studio Code.app/Contents/MacOS/Electron"},
				{Pid: 900, Name: "zsh", Exe: "/bin/zsh"},
				{Pid: 880, Name: "iTermServer-3.5", Exe: "/Users/dev/Library/Application Support/iTerm2/iTermServer-3.5.11"},
			},
		},
	}
	procs := fakeProcs{1234: {Pid: 1234, PPid: 1200, StartMs: 1_700_000_000_000}}
	sys := macSystem(procs, &fakeTmux{})
	f := Gather(context.Background(), rec, sys)
	if !f.Agent.Alive || f.Host == nil || f.Host.Kind != KindVSCode || f.Host.AppPath != "/Applications/Visual Studio Code.app" {
		t.Fatalf("facts = %+v host %+v (%s)", f.Agent, f.Host, f.HostWhy)
	}
	if !slices.Equal(f.EditorFolders, []string{"/Users/dev/My Project", "/Users/dev/src/mew"}) {
		t.Errorf("editor folders = %q", f.EditorFolders)
	}
	p := Make(f)
	if p.Precision != Window || p.Target.Folder != "/Users/dev/src/mew" || p.Target.ITermSession != "" {
		t.Errorf("plan = %+v", p)
	}

	// The agent exited and its pid now belongs to another process: the
	// recorded ancestors still name the host, but the tty is not used.
	procs[1234] = proctree.Proc{Pid: 1234, PPid: 1, StartMs: 1_800_000_000_000}
	rec.Process.Ancestors = rec.Process.Ancestors[3:] // started from iTerm2
	f = Gather(context.Background(), rec, sys)
	if f.Agent.Alive || f.Host == nil || f.Host.Kind != KindITerm {
		t.Fatalf("reused pid: alive=%v host=%+v", f.Agent.Alive, f.Host)
	}
	p = Make(f)
	if p.Target.Tty != "" || p.Target.ITermSession != guid {
		t.Errorf("reused pid: plan target %+v, want the session id only", p.Target)
	}
}

func TestGatherLiveTreeAndNoRecord(t *testing.T) {
	procs := fakeProcs{
		1234: {Pid: 1234, PPid: 1200, StartMs: 1_700_000_000_000},
		1200: {Pid: 1200, PPid: 1100, Name: "zsh", Exe: "/bin/zsh", StartMs: 1_690_000_000_000},
		1100: {Pid: 1100, PPid: 1, Name: "wezterm-gui", Exe: "/Applications/WezTerm.app/Contents/MacOS/wezterm-gui", StartMs: 1_680_000_000_000},
	}
	rec := session.Record{ID: "s", Process: &session.Process{Pid: 1234, StartMs: 1_700_000_000_000, Env: map[string]string{"WEZTERM_PANE": "4"}}}
	f := Gather(context.Background(), rec, macSystem(procs, &fakeTmux{}))
	if f.Host == nil || f.Host.Kind != KindWezTerm || f.Tools.WezTerm != "/Applications/WezTerm.app/Contents/MacOS/wezterm" {
		t.Fatalf("live tree: host %+v tools %+v (%s)", f.Host, f.Tools, f.HostWhy)
	}
	if p := Make(f); p.Precision != Pane || p.Target.WezTermPane != "4" {
		t.Errorf("plan = %+v", p)
	}

	f = Gather(context.Background(), session.Record{ID: "s"}, macSystem(procs, &fakeTmux{}))
	if f.Host != nil || !strings.Contains(f.HostWhy, "never recorded") {
		t.Errorf("no process: %+v", f)
	}

	// A session known only from Claude Code's registry: its live tree.
	reg := session.Record{ID: "s", Registry: &session.RegistryState{Pid: 1234, Cwd: cwd}}
	sys := macSystem(procs, &fakeTmux{})
	sys.Tty = func(pid int) (string, error) { return "/dev/ttys007", nil }
	f = Gather(context.Background(), reg, sys)
	if f.Host == nil || f.Host.Kind != KindWezTerm || f.Agent.Tty != "/dev/ttys007" || f.Agent.Cwd != cwd {
		t.Errorf("registry only: %+v host %+v (%s)", f.Agent, f.Host, f.HostWhy)
	}
}

func TestGatherLinux(t *testing.T) {
	procs := fakeProcs{
		50: {Pid: 50, PPid: 40, Name: "tmux: client", Exe: "/usr/bin/tmux"},
		40: {Pid: 40, PPid: 30, Name: "bash", Exe: "/usr/bin/bash"},
		30: {Pid: 30, PPid: 1, Name: "kitty", Exe: "/opt/kitty.app/bin/kitty"},
		20: {Pid: 20, PPid: 1, Name: "tmux: server", Exe: "/usr/bin/tmux"},
		10: {Pid: 10, PPid: 20},
	}
	rec := session.Record{ID: "s", Process: &session.Process{Pid: 10, Tmux: &session.Tmux{Socket: "/tmp/tmux-1000/default", Pane: "%2", ServerPid: 20}}}
	tm := &fakeTmux{serverPid: "20", clients: "100 50 0 /dev/pts/7\n"}
	sys := System{
		GOOS: "linux", Procs: procs, Query: tm.query,
		Environ: func(pid int, keys []string) (map[string]string, error) {
			return map[string]string{"KITTY_WINDOW_ID": "3", "KITTY_LISTEN_ON": "unix:@mykitty"}, nil
		},
		IsExecutable: func(p string) bool { return p == "/usr/bin/tmux" || p == "/opt/kitty.app/bin/kitten" },
	}
	f := Gather(context.Background(), rec, sys)
	if f.Host == nil || f.Host.Kind != KindKitty || f.Tools.Kitten != "/opt/kitty.app/bin/kitten" || f.Tools.Tmux != "/usr/bin/tmux" {
		t.Fatalf("host %+v tools %+v (%s)", f.Host, f.Tools, f.HostWhy)
	}
	p := Make(f)
	if p.Precision != Pane || len(p.Inner) != 2 || len(p.Outer) != 0 || p.Mechanism != "tmux+kitty-remote" {
		t.Errorf("plan = %+v", p)
	}
}

func TestEditorFolders(t *testing.T) {
	got := EditorFolders([]byte(`{"backupWorkspaces":{"folders":[{"folderUri":"file:///a/b/"},{"folderUri":"file:///a/b"},{"folderUri":"file://otherhost/x"},{"folderUri":"file:///c/%0Aevil"}]},"windowsState":{"openedWindows":[{"folder":"file:///d"},{"workspaceIdentifier":{}}]}}`))
	if !slices.Equal(got, []string{"/a/b", "/d"}) {
		t.Errorf("folders = %q", got)
	}
	if got := EditorFolders([]byte("not json")); len(got) != 0 {
		t.Errorf("garbage: %q", got)
	}
}

// An editor started from a tmux pane hands $TMUX to its own terminals: the
// agent there is not in tmux, and the pane named by $TMUX_PANE is not its.
func TestGatherIgnoresInheritedTmux(t *testing.T) {
	rec := tmuxRecord()
	rec.Process.Ancestors = []session.Ancestor{
		{Pid: 1200, Name: "zsh", Exe: "/bin/zsh"},
		{Pid: 1100, Name: "Code Helper", Exe: "/Applications/Visual Studio Code.app/Contents/Frameworks/Code Helper.app/Contents/MacOS/Code Helper"},
		{Pid: 1000, Name: "Electron", Exe: "/Applications/Visual Studio Code.app/Contents/MacOS/Electron"},
	}
	procs := fakeProcs{1234: {Pid: 1234, PPid: 1200, StartMs: 1_700_000_000_000}}
	tm := &fakeTmux{serverPid: "777", clients: "1 900 0 /dev/ttys011\n"}
	f := Gather(context.Background(), rec, macSystem(procs, tm))
	if f.Tmux != nil || len(tm.calls) != 0 {
		t.Fatalf("inherited $TMUX was used: tmux %+v, queries %q", f.Tmux, tm.calls)
	}
	if f.Host == nil || f.Host.Kind != KindVSCode {
		t.Fatalf("host = %+v (%s), want VS Code", f.Host, f.HostWhy)
	}
	if p := Make(f); p.Precision != Window || len(p.Inner) != 0 {
		t.Errorf("plan = %+v", p)
	}
}

// A Codex session is jumped to at its TUI (the record's Terminal), not at
// the app-server daemon that runs it (no terminal, another TUI's
// environment).
func TestGatherCodexGoesToTheTUI(t *testing.T) {
	tui := tmuxRecord().Process
	rec := session.Record{
		ID: "codex-1", Agent: session.AgentCodex, Hook: &session.HookState{Cwd: cwd},
		Process:  &session.Process{Pid: 4321, StartMs: 1_699_999_000_000, Name: "codex"},
		Terminal: &session.Terminal{Process: *tui},
	}
	procs := fakeProcs{
		1234: {Pid: 1234, PPid: 1200, StartMs: 1_700_000_000_000},
		4321: {Pid: 4321, PPid: 1, Name: "codex", StartMs: 1_699_999_000_000},
		777:  {Pid: 777, PPid: 1, Name: "tmux", Exe: "/opt/homebrew/bin/tmux", StartMs: 1_699_000_000_000},
		900:  {Pid: 900, PPid: 890, Name: "tmux", Exe: "/opt/homebrew/bin/tmux", StartMs: 1_700_000_100_000},
		890:  {Pid: 890, PPid: 880, Name: "zsh", Exe: "/bin/zsh", StartMs: 1_700_000_050_000},
		880:  {Pid: 880, PPid: 1, Name: "iTermServer-3.5", Exe: "/Users/dev/Library/Application Support/iTerm2/iTermServer-3.5.11", StartMs: 1_690_000_000_000},
	}
	tm := &fakeTmux{serverPid: "777", clients: "1700000300 900 0 /dev/ttys011\n"}
	f := Gather(context.Background(), rec, macSystem(procs, tm))
	if f.Agent.Pid != 1234 || f.Tmux == nil || f.Tmux.Pane != "%5" {
		t.Fatalf("agent %+v tmux %+v; want the TUI's pane", f.Agent, f.Tmux)
	}
	// Its TUI gone, only the daemon is left: nothing to bring forward there.
	rec.Terminal.Gone = true
	if f := Gather(context.Background(), rec, macSystem(procs, tm)); f.Agent.Pid != 4321 || f.Tmux != nil {
		t.Fatalf("TUI gone: agent %+v tmux %+v", f.Agent, f.Tmux)
	}
}

// An app started from Finder has launchd's PATH: a tool found only by the
// login shell's PATH (System.LookPath) is still used, and only when it is
// an executable absolute path.
func TestFindToolFallsBackToLookPath(t *testing.T) {
	execs := map[string]bool{"/brew/bin/tmux": true}
	sys := System{Path: []string{"/usr/bin"}, IsExecutable: func(p string) bool { return execs[p] }}
	if got := findTool("tmux", sys); got != "" {
		t.Fatalf("without LookPath: %q", got)
	}
	sys.LookPath = func(name string) (string, error) { return "/brew/bin/" + name, nil }
	if got := findTool("tmux", sys); got != "/brew/bin/tmux" {
		t.Errorf("findTool = %q, want the login shell's tmux", got)
	}
	sys.LookPath = func(string) (string, error) { return "tmux", nil }
	if got := findTool("tmux", sys); got != "" {
		t.Errorf("a bare name was taken: %q", got)
	}
}

// The iTerm2 version comes from the app's own Info.plist (it may have been
// updated since the session started): a 3.4 gets no reveal URL.
func TestGatherReadsTheITermVersion(t *testing.T) {
	rec := session.Record{ID: "s1", Hook: &session.HookState{Cwd: cwd}, Process: &session.Process{
		Pid: 1234, StartMs: 1_700_000_000_000, Tty: "/dev/ttys003",
		Env:  map[string]string{"ITERM_SESSION_ID": "w0t1p0:" + guid, "TERM_PROGRAM": "iTerm.app", "TERM_PROGRAM_VERSION": "3.5.11"},
		Host: &session.Host{BundleID: "com.googlecode.iterm2", AppPath: "/Applications/iTerm.app", Pid: 880},
	}}
	procs := fakeProcs{1234: {Pid: 1234, PPid: 1200, StartMs: 1_700_000_000_000}}
	sys := macSystem(procs, &fakeTmux{})
	sys.BundleVersion = func(app string) (string, error) {
		if app == "/Applications/iTerm.app" {
			return "3.4.20", nil
		}
		return "", os.ErrNotExist
	}
	f := Gather(context.Background(), rec, sys)
	if f.Host == nil || f.Host.Version != "3.4.20" {
		t.Fatalf("host %+v (%s)", f.Host, f.HostWhy)
	}
	if p := Make(f); p.Target.ITermURL != "" || p.Mechanism != "applescript+activate" {
		t.Errorf("an iTerm2 3.4 got %s (%q)", p.Mechanism, p.Target.ITermURL)
	}
	// Not readable: the version the session started under decides.
	sys.BundleVersion = func(string) (string, error) { return "", os.ErrPermission }
	if p := Make(Gather(context.Background(), rec, sys)); p.Target.ITermURL == "" {
		t.Errorf("iTerm2 3.5.11 by $TERM_PROGRAM_VERSION got no reveal URL: %s", p.Why)
	}
}

package jump

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/terminal/termid"
)

// System is what Gather reads the machine through; tests pass fakes.
type System struct {
	GOOS  string
	Procs proctree.Table // with executable paths
	// BundleID reads an application bundle's identifier (proctree/bundle.ID).
	BundleID func(appPath string) (string, error)
	// BundleVersion reads its version (proctree/bundle.Version); nil: not
	// known.
	BundleVersion func(appPath string) (string, error)
	// Environ reads chosen variables of another process's environment.
	Environ func(pid int, keys []string) (map[string]string, error)
	// Tty returns a live process's terminal device.
	Tty func(pid int) (string, error)
	// Query runs a read-only command (tmux display/list-clients) and
	// returns its standard output.
	Query func(ctx context.Context, argv []string) (string, error)
	// ReadFile reads an editor's state file.
	ReadFile func(path string) ([]byte, error)
	// IsExecutable reports whether path is an executable file.
	IsExecutable func(path string) bool
	Home         string
	Path         []string // directories searched for tmux, wezterm and kitten
	// LookPath finds a program the directories above do not have
	// (terminal.LookPath: the login shell's PATH); nil: none.
	LookPath func(name string) (string, error)
}

// clientEnv are the variables of a tmux client's environment that name the
// tab or pane of the terminal it runs in.
var clientEnv = []string{"ITERM_SESSION_ID", "TERM_PROGRAM_VERSION", "WEZTERM_PANE", "WEZTERM_UNIX_SOCKET", "KITTY_WINDOW_ID", "KITTY_LISTEN_ON", "TERM_PROGRAM", "WARP_FOCUS_URL"}

// ToolDirs are searched for tmux, wezterm and kitten after the directories
// of the PATH: an app started from the Finder has a PATH without the package
// managers' directories.
var ToolDirs = []string{"/opt/homebrew/bin", "/usr/local/bin", "/opt/local/bin", "/run/current-system/sw/bin", "/usr/bin", "/bin"}

// Gather collects the facts about one session's record that planning needs.
// It only reads: the process table, bundles, tmux's client list and an
// editor's state file.
func Gather(ctx context.Context, rec session.Record, sys System) Facts {
	f := Facts{GOOS: sys.GOOS, SessionID: rec.ID}
	if rec.Hook != nil {
		f.Agent.Cwd = rec.Hook.Cwd
	}
	if f.Agent.Cwd == "" && rec.Registry != nil {
		f.Agent.Cwd = rec.Registry.Cwd
	}
	proc := rec.Process
	if t := rec.Terminal; t != nil && !t.Gone && t.Pid > 0 {
		proc = &t.Process // the terminal UI, not the daemon that runs the session (Codex)
	}
	if proc == nil || proc.Pid <= 0 {
		return gatherFromRegistry(rec, sys, f)
	}
	f.Agent.Pid, f.Agent.Tty, f.Agent.Env = proc.Pid, proc.Tty, proc.Env
	if t := proc.Env["MEW_RUN_TTY"]; t != "" && termid.ValidTty(sys.GOOS, t) {
		// Under `mew run` the agent's own terminal is the wrapper's PTY:
		// the person's tab is the wrapper's terminal.
		f.Agent.Tty = t
	}
	if alive, err := proctree.SameProcess(sys.Procs, proc.Pid, proc.StartMs); err == nil {
		f.Agent.Alive = alive
	}

	inTmux, tmuxNote := underServer(proc, f.Agent.Alive, sys)
	if inTmux {
		gatherTmux(ctx, proc.Tmux, sys, &f)
	} else if z := zellijOf(proc, sys); z != nil {
		gatherZellij(z, proc, sys, &f)
	} else {
		h, why := recordedHost(proc, f.Agent.Alive, sys)
		f.Host, f.HostWhy = h, why
		if f.HostWhy != "" && tmuxNote != "" {
			f.HostWhy = tmuxNote + "; " + f.HostWhy
		}
	}
	gatherForHost(sys, &f)
	return f
}

// underServer reports whether the agent really runs in the tmux server its
// $TMUX names. $TMUX is inherited: an editor started from a tmux pane passes
// it to its own terminals, which are not in tmux at all. Under tmux the
// server is an ancestor of the agent (panes are its children).
func underServer(proc *session.Process, alive bool, sys System) (bool, string) {
	t := proc.Tmux
	if t == nil || t.Socket == "" {
		return false, ""
	}
	chain := make([]proctree.Proc, 0, len(proc.Ancestors))
	for _, a := range proc.Ancestors {
		chain = append(chain, proctree.Proc{Pid: a.Pid, Name: a.Name, Exe: a.Exe})
	}
	if len(chain) == 0 && alive {
		if live, err := proctree.Chain(sys.Procs, proc.Pid); err == nil && len(live) > 1 {
			chain = live[1:]
		}
	}
	if len(chain) == 0 || len(chain) >= maxRecordedAncestors {
		return true, "" // nothing (or not all) to check against: trust $TMUX
	}
	for _, p := range chain {
		if (t.ServerPid > 0 && p.Pid == t.ServerPid) || (t.ServerPid <= 0 && isTmux(p)) {
			return true, ""
		}
	}
	return false, "$TMUX is set but the agent does not run under that tmux server (it was inherited)"
}

// zellijOf is the zellij pane the agent runs in, from the variables the
// hook recorded, when its ancestors confirm a zellij server (an editor or a
// terminal started from a zellij pane inherits the variables too). With no
// ancestors to check against, the variables are trusted, as $TMUX is.
func zellijOf(proc *session.Process, sys System) *Zellij {
	sess, pane := proc.Env["ZELLIJ_SESSION_NAME"], proc.Env["ZELLIJ_PANE_ID"]
	if sess == "" || pane == "" {
		return nil
	}
	if len(proc.Ancestors) > 0 && len(proc.Ancestors) < maxRecordedAncestors {
		found := false
		for _, a := range proc.Ancestors {
			if filepath.Base(a.Exe) == "zellij" || a.Name == "zellij" {
				found = true
				break
			}
		}
		if !found {
			return nil
		}
	}
	return &Zellij{Session: sess, Pane: pane}
}

// gatherZellij fills in the zellij program and the terminal app: on macOS
// the one $TERM_PROGRAM names (no process tree leads from the zellij server
// to the terminal showing it, so only that app can be brought forward).
func gatherZellij(z *Zellij, proc *session.Process, sys System, f *Facts) {
	f.Zellij = z
	for _, a := range proc.Ancestors {
		if filepath.Base(a.Exe) == "zellij" && termid.ValidPath(a.Exe) && sys.executable(a.Exe) {
			f.Tools.Zellij = a.Exe
			break
		}
	}
	if f.Tools.Zellij == "" {
		f.Tools.Zellij = findTool("zellij", sys)
	}
	if sys.GOOS != "darwin" {
		f.HostWhy = "the terminal showing the zellij session is not known"
		return
	}
	if h := HostOfTermProgram(proc.Env["TERM_PROGRAM"]); h != nil {
		f.Host = h
		return
	}
	f.HostWhy = fmt.Sprintf("the terminal showing the zellij session is not known ($TERM_PROGRAM %q)", text.Clip(proc.Env["TERM_PROGRAM"], maxQuoted))
}

// maxRecordedAncestors is how many ancestors the hook records at most.
const maxRecordedAncestors = 16

func isTmux(p proctree.Proc) bool {
	return filepath.Base(p.Exe) == "tmux" || strings.HasPrefix(p.Name, "tmux")
}

// gatherFromRegistry handles a session known only from Claude Code's own
// registry (Mew's hooks are not installed): its pid is known, its
// environment is not.
func gatherFromRegistry(rec session.Record, sys System, f Facts) Facts {
	r := rec.Registry
	if r == nil || r.Pid <= 0 || r.Gone {
		f.HostWhy = "the session's process was never recorded (no SessionStart hook was seen)"
		return f
	}
	f.Agent.Pid = r.Pid
	if _, err := sys.Procs.Get(r.Pid); err != nil {
		f.HostWhy = fmt.Sprintf("the session's process %d is not running", r.Pid)
		return f
	}
	f.Agent.Alive = true
	if sys.Tty != nil {
		f.Agent.Tty, _ = sys.Tty(r.Pid)
	}
	chain, err := proctree.Chain(sys.Procs, r.Pid)
	if err != nil {
		f.HostWhy = fmt.Sprintf("cannot read the process tree: %v", err)
		return f
	}
	if underTmux(chain) {
		f.HostWhy = "the session runs in tmux, and without Mew's hooks its tmux socket is not known"
		return f
	}
	f.Host, f.HostWhy = hostInChain(chain, sys)
	gatherForHost(sys, &f)
	return f
}

func underTmux(chain []proctree.Proc) bool {
	for _, p := range chain {
		if isTmux(p) {
			return true
		}
	}
	return false
}

// recordedHost finds the host of a session that does not run in tmux: from
// the ancestors the hook recorded (the bundle confirmed by its Info.plist),
// or from the live tree while the agent runs.
func recordedHost(proc *session.Process, alive bool, sys System) (*Host, string) {
	if h := proc.Host; h != nil && sys.GOOS == "darwin" && termid.ValidBundleID(h.BundleID) {
		return &Host{Kind: KindOf(h.BundleID), BundleID: h.BundleID, AppPath: h.AppPath, Pid: h.Pid}, ""
	}
	var chain []proctree.Proc
	for _, a := range proc.Ancestors {
		chain = append(chain, proctree.Proc{Pid: a.Pid, Name: a.Name, Exe: a.Exe})
	}
	if len(chain) > 0 {
		if h, why := hostInChain(chain, sys); h != nil || !alive {
			return h, why
		}
	}
	if !alive {
		return nil, "the agent process has exited and its ancestors were not recorded"
	}
	live, err := proctree.Chain(sys.Procs, proc.Pid)
	if err != nil {
		return nil, fmt.Sprintf("cannot read the process tree: %v", err)
	}
	return hostInChain(live, sys)
}

// hostInChain is the host among a process and its ancestors: on macOS the
// nearest application bundle; on Linux the nearest terminal Mew can reach
// into, known by its executable.
func hostInChain(chain []proctree.Proc, sys System) (*Host, string) {
	if sys.GOOS == "darwin" {
		h, err := proctree.HostInChain(chain, sys.BundleID)
		if err != nil {
			if errors.Is(err, proctree.ErrNoHost) {
				return nil, "no application was found above the agent process"
			}
			return nil, err.Error()
		}
		return &Host{Kind: KindOf(h.BundleID), BundleID: h.BundleID, AppPath: h.AppPath, Exe: h.Exe, Pid: h.Pid}, ""
	}
	for _, p := range chain {
		exe := p.Exe
		if exe == "" {
			exe = p.Name
		}
		if k := KindOfExe(exe); k != "" {
			return &Host{Kind: k, Exe: p.Exe, Pid: p.Pid}, ""
		}
	}
	return nil, "no WezTerm or kitty was found above the process"
}

// gatherTmux checks the recorded pane still is the session's pane and finds
// the client the person used last, its terminal and that terminal's host.
func gatherTmux(ctx context.Context, rt *session.Tmux, sys System, f *Facts) {
	t := &Tmux{Socket: rt.Socket, Pane: rt.Pane, ServerPid: rt.ServerPid}
	f.Tmux = t
	if !termid.ValidSocket(t.Socket) || !termid.ValidTmuxPane(t.Pane) {
		return // Make explains
	}
	f.Tools.Tmux = tmuxBinary(rt.ServerPid, sys)
	if f.Tools.Tmux == "" || sys.Query == nil {
		t.Why = "the tmux program was not found"
		return
	}
	// Pane ids are never reused within one server, so the pane is the
	// session's as long as the server is the one that was recorded.
	out, err := sys.Query(ctx, []string{f.Tools.Tmux, "-S", t.Socket, "display-message", "-p", "-t", t.Pane, "#{pid} #{pane_id}"})
	if err != nil {
		t.Why = fmt.Sprintf("pane %s is gone, or its tmux server is not running", t.Pane)
		return
	}
	fields := strings.Fields(out)
	if len(fields) != 2 || fields[1] != t.Pane {
		t.Why = fmt.Sprintf("tmux did not find pane %s", t.Pane)
		return
	}
	if pid, _ := strconv.Atoi(fields[0]); rt.ServerPid != 0 && pid != rt.ServerPid {
		t.Why = fmt.Sprintf("the tmux server was restarted since the session started, so %s is another pane now", t.Pane)
		return
	}
	out, err = sys.Query(ctx, []string{f.Tools.Tmux, "-S", t.Socket, "list-clients", "-F", "#{client_activity} #{client_pid} #{client_control_mode} #{client_tty}"})
	if err != nil {
		t.Why = fmt.Sprintf("cannot list the tmux clients: %v", err)
		return
	}
	t.Client = lastClient(out)
	if t.Client == nil || t.Client.Control {
		return
	}
	if sys.Environ != nil {
		t.Client.Env, _ = sys.Environ(t.Client.Pid, clientEnv)
	}
	chain, err := proctree.Chain(sys.Procs, t.Client.Pid)
	if err != nil {
		f.HostWhy = fmt.Sprintf("cannot read the process tree of the tmux client: %v", err)
		return
	}
	f.Host, f.HostWhy = hostInChain(chain, sys)
	if f.Host == nil && f.HostWhy != "" {
		f.HostWhy = "tmux client on " + t.Client.Tty + ": " + f.HostWhy
	}
}

// lastClient picks, from list-clients lines "activity pid control tty", the
// client the person used last; control-mode clients only when there is no
// other. Ties go to the lowest tty name, so the choice is stable.
func lastClient(out string) *Client {
	type row struct {
		activity int64
		c        Client
	}
	var rows []row
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 4 {
			continue
		}
		act, err1 := strconv.ParseInt(f[0], 10, 64)
		pid, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || pid <= 1 {
			continue
		}
		rows = append(rows, row{act, Client{Tty: f[3], Pid: pid, Control: f[2] == "1"}})
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.c.Control != b.c.Control {
			return !a.c.Control
		}
		if a.activity != b.activity {
			return a.activity > b.activity
		}
		return a.c.Tty < b.c.Tty
	})
	if len(rows) == 0 {
		return nil
	}
	c := rows[0].c
	return &c
}

// tmuxBinary is the program of the session's tmux server when it still runs
// (a client of another version may not speak to it), else tmux from the
// search path.
func tmuxBinary(serverPid int, sys System) string {
	if serverPid > 1 {
		if p, err := sys.Procs.Get(serverPid); err == nil && filepath.Base(p.Exe) == "tmux" && termid.ValidPath(p.Exe) && sys.executable(p.Exe) {
			return p.Exe
		}
	}
	return findTool("tmux", sys)
}

func findTool(name string, sys System) string {
	for _, dir := range append(append([]string{}, sys.Path...), ToolDirs...) {
		p := filepath.Join(dir, name)
		if termid.ValidPath(p) && sys.executable(p) {
			return p
		}
	}
	if sys.LookPath != nil {
		if p, err := sys.LookPath(name); err == nil && termid.ValidPath(p) && sys.executable(p) {
			return p
		}
	}
	return ""
}

func (sys System) executable(p string) bool { return sys.IsExecutable != nil && sys.IsExecutable(p) }

// gatherForHost finds the programs and state the host's plan needs.
func gatherForHost(sys System, f *Facts) {
	h := f.Host
	if h == nil {
		return
	}
	beside := func(name string) string {
		var p string
		switch {
		case sys.GOOS == "darwin" && h.AppPath != "":
			p = filepath.Join(h.AppPath, "Contents", "MacOS", name)
		case sys.GOOS != "darwin" && h.Exe != "":
			p = filepath.Join(filepath.Dir(h.Exe), name)
		}
		if p != "" && termid.ValidPath(p) && sys.executable(p) {
			return p
		}
		return findTool(name, sys)
	}
	kind := h.Kind
	if sys.GOOS != "darwin" {
		kind = KindOfExe(h.Exe)
	}
	switch kind {
	case KindITerm:
		if sys.GOOS == "darwin" && sys.BundleVersion != nil && termid.ValidAppPath(h.AppPath) {
			if v, err := sys.BundleVersion(h.AppPath); err == nil {
				h.Version = v
			}
		}
	case KindWezTerm:
		f.Tools.WezTerm = beside("wezterm")
	case KindKitty:
		f.Tools.Kitten = beside("kitten")
	case KindVSCode:
		if e, ok := editors[h.BundleID]; ok && sys.GOOS == "darwin" && sys.ReadFile != nil && sys.Home != "" {
			path := filepath.Join(sys.Home, "Library", "Application Support", e.dataDir, "User", "globalStorage", "storage.json")
			if data, err := sys.ReadFile(path); err == nil {
				f.EditorFolders = EditorFolders(data)
			}
		}
	}
}

// EditorFolders lists the local folders a VS Code family editor has windows
// for, from its globalStorage/storage.json: the folders registered for hot
// exit (one per window opened in this run) and the saved window state.
func EditorFolders(storage []byte) []string {
	seen := map[string]bool{}
	var out []string
	add := func(uri string) {
		u, err := url.Parse(uri)
		if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
			return
		}
		p := strings.TrimSuffix(u.Path, "/")
		if p == "" {
			p = "/"
		}
		if termid.ValidPath(p) && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, q := range []string{"backupWorkspaces.folders.#.folderUri", "windowsState.lastActiveWindow.folder", "windowsState.openedWindows.#.folder"} {
		r := gjson.GetBytes(storage, q)
		if r.IsArray() {
			for _, v := range r.Array() {
				add(v.String())
			}
		} else if r.Exists() {
			add(r.String())
		}
	}
	sort.Strings(out)
	return out
}

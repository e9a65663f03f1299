package jump

import (
	"fmt"
	"strings"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/terminal/termid"
)

// planning is one plan being made: the facts, where the session is inside
// its host, the plan so far and the reasons it gives. Each planner below
// adds the steps of one multiplexer or terminal.
type planning struct {
	f   Facts
	pl  place
	p   *Plan
	why []string

	// Set by planHost for the host's planner:
	name     string // the host's name in messages
	darwin   bool
	activate *Step // brings the host forward; nil when it cannot (Linux, no bundle id or path)
}

func (g *planning) say(format string, args ...any) {
	g.why = append(g.why, fmt.Sprintf(format, args...))
}

// osa is a step that runs script with arg on the host (AppleScript).
func (g *planning) osa(script, arg string, gives Precision, what string) Step {
	return Step{
		Name: what, Argv: []string{osascriptPath, "-", arg},
		ScriptName: script, Want: "ok", Gives: gives, Asks: g.name, Kind: StepAppleScript,
	}
}

// planTmux selects the pane in the tmux client the person used last; the
// host is that client's terminal.
func (g *planning) planTmux() place {
	t, p := g.f.Tmux, g.p
	p.Target.TmuxSocket, p.Target.TmuxPane = t.Socket, t.Pane
	step, target, reason := tmuxStep(g.f)
	if reason != "" {
		g.why = append(g.why, "tmux: "+reason)
		return place{ttyWhy: "the tmux pane cannot be selected", tmux: true}
	}
	p.Inner = append(p.Inner, step)
	p.Target.TmuxClient = target
	g.say("tmux: switch the client on %s to pane %s", target, t.Pane)
	return place{tty: target, env: t.Client.Env, tmux: true}
}

// tmuxStep is `tmux -S socket switch-client -c client -t pane`: the client
// shows the pane's session, window and pane in one step.
func tmuxStep(f Facts) (Step, string, string) {
	t := f.Tmux
	switch {
	case t.Why != "":
		return Step{}, "", t.Why
	case !termid.ValidSocket(t.Socket):
		return Step{}, "", fmt.Sprintf("the recorded socket %q is not a usable socket path", text.Clip(t.Socket, maxQuoted))
	case !termid.ValidTmuxPane(t.Pane):
		return Step{}, "", fmt.Sprintf("the recorded pane %q is not a tmux pane id", text.Clip(t.Pane, maxQuoted))
	case !termid.ValidPath(f.Tools.Tmux):
		return Step{}, "", "the tmux program was not found"
	case t.Client == nil:
		return Step{}, "", "no client is attached to the tmux server"
	case t.Client.Control:
		return Step{}, "", "the only clients are control-mode clients (tmux integration), whose tabs Mew cannot select"
	case !termid.ValidTty(f.GOOS, t.Client.Tty):
		return Step{}, "", fmt.Sprintf("the client's terminal %q is not a terminal device name", text.Clip(t.Client.Tty, maxQuoted))
	}
	return Step{
		Name:  fmt.Sprintf("tmux: show pane %s on the client %s", t.Pane, t.Client.Tty),
		Argv:  []string{f.Tools.Tmux, "-S", t.Socket, "switch-client", "-c", t.Client.Tty, "-t", t.Pane},
		Gives: Pane, Kind: StepTmux,
	}, t.Client.Tty, ""
}

// planZellij focuses the session's zellij pane. The terminal showing the
// zellij client is known at best by its app ($TERM_PROGRAM); ids
// inherited from the tab that created the session may name another tab
// now: none of them is used.
func (g *planning) planZellij() place {
	z, p := g.f.Zellij, g.p
	p.Target.ZellijSess, p.Target.ZellijPane = z.Session, z.Pane
	switch {
	case !termid.ValidZellijSession(z.Session):
		g.say("zellij: the recorded session name %q is not one Mew passes on", text.Clip(z.Session, maxQuoted))
	case !termid.ValidPaneNumber(z.Pane):
		g.say("zellij: the recorded pane %q is not a pane number", text.Clip(z.Pane, maxQuoted))
	case !termid.ValidPath(g.f.Tools.Zellij):
		g.say("zellij: the zellij program was not found")
	default:
		p.Inner = append(p.Inner, Step{
			Name:  fmt.Sprintf("zellij: focus pane %s of session %s", z.Pane, z.Session),
			Argv:  []string{g.f.Tools.Zellij, "--session", z.Session, "action", "focus-pane-id", z.Pane},
			Gives: Pane, Kind: StepZellij,
		})
		g.say("zellij: pane %s of session %s", z.Pane, z.Session)
	}
	return place{ttyWhy: "which of its tabs shows the zellij session is not known", zellij: true}
}

// hostPlanners reach into each kind of host application; a kind without
// one (KindApp, an unknown Linux terminal) is only brought forward.
var hostPlanners = map[Kind]func(*planning){
	KindTerminal: (*planning).planTerminal,
	KindITerm:    (*planning).planITerm,
	KindWarp:     (*planning).planWarp,
	KindGhostty:  (*planning).planGhostty,
	KindWezTerm:  (*planning).planWezTerm,
	KindKitty:    (*planning).planKitty,
	KindVSCode:   (*planning).planEditor,
}

// planHost adds the steps that reach into the host application (its
// planner), then the one that brings it forward and the check that it
// came (macOS).
func (g *planning) planHost(h Host) {
	p := g.p
	g.name = hostName(h)
	p.Host = g.name
	if termid.ValidBundleID(h.BundleID) {
		p.BundleID = h.BundleID
	}
	g.darwin = g.f.GOOS == "darwin"
	if g.darwin {
		g.activate = activateStep(h, g.name)
	}
	kind := h.Kind
	if !g.darwin {
		kind = KindOfExe(h.Exe)
	}
	if plan := hostPlanners[kind]; plan != nil {
		plan(g)
	} else {
		g.planOther()
	}
	switch {
	case g.activate != nil:
		p.Outer = append(p.Outer, *g.activate)
		if termid.ValidBundleID(h.BundleID) {
			p.Verify = &Verify{
				BundleID: h.BundleID, Lsappinfo: lsappinfoPath,
				Reopen: Step{Name: "open " + g.name + " with LaunchServices", Argv: []string{openPath, "-b", h.BundleID}, Gives: App, Kind: StepActivate},
			}
		}
	case g.darwin:
		g.say("no valid bundle id or application path to bring %s forward", g.name)
	}
}

// activateStep brings the host application forward (macOS).
func activateStep(h Host, name string) *Step {
	var argv []string
	switch {
	case termid.ValidBundleID(h.BundleID):
		argv = []string{openPath, "-b", h.BundleID}
	case termid.ValidAppPath(h.AppPath):
		argv = []string{openPath, "-a", h.AppPath}
	default:
		return nil
	}
	return &Step{Name: "bring " + name + " forward", Argv: argv, Gives: App, Kind: StepActivate}
}

// planTerminal selects Terminal.app's tab by its tty.
func (g *planning) planTerminal() {
	pl, p := g.pl, g.p
	if pl.tty == "" {
		g.say("Terminal: %s; bringing Terminal forward only", pl.ttyWhy)
		return
	}
	p.Target.Tty = pl.tty
	p.Outer = append(p.Outer, g.osa("terminal-tab", pl.tty, Tab, "Terminal: select the tab on "+pl.tty))
	g.say("Terminal: the tab on %s", pl.tty)
}

// planITerm selects the iTerm2 session: its own id first (the reveal URL
// selects window, tab and split inside iTerm2, with no Automation
// prompt), then by AppleScript by id, then by tty. The URL is left out
// for an iTerm2 older than 3.5.0 (ITermReveal), and skipped once iTerm2
// took Mew's Apple Events (Step.OnlyUntilAllowed): iTerm2 ignores a URL
// with an id it does not know while open(1) still exits 0, where the
// AppleScript says "notfound" and the next way is tried.
func (g *planning) planITerm() {
	pl, p := g.pl, g.p
	version := ""
	if g.f.Host != nil {
		version = g.f.Host.Version
	}
	if version == "" && pl.env["TERM_PROGRAM"] == "iTerm.app" {
		version = pl.env["TERM_PROGRAM_VERSION"] // at the session's start
	}
	useURL, urlWhy := ITermReveal(version)
	if u := ITermRevealURL(pl.env["ITERM_SESSION_ID"]); u != "" && useURL {
		p.Target.ITermURL = u
		p.Outer = append(p.Outer, Step{Name: "iTerm2: reveal the session by its URL", Argv: []string{openPath, u},
			Gives: Pane, Kind: StepOpenURL, OnlyUntilAllowed: g.name})
	}
	guid := termid.ITermSession(pl.env["ITERM_SESSION_ID"])
	if guid != "" {
		p.Target.ITermSession = guid
		p.Outer = append(p.Outer, g.osa("iterm-by-id", guid, Pane, "iTerm2: select session "+guid))
	}
	if pl.tty != "" {
		p.Target.Tty = pl.tty
		p.Outer = append(p.Outer, g.osa("iterm-by-tty", pl.tty, Pane, "iTerm2: select the session on "+pl.tty))
	}
	switch {
	case p.Target.ITermURL != "":
		g.say("iTerm2: its reveal URL (no Automation prompt) until iTerm2 took Mew's Apple Events, else by AppleScript")
	case urlWhy != "" && guid != "":
		g.say("iTerm2: no reveal URL (%s)", urlWhy)
	}
	switch {
	case guid != "" && pl.tty != "":
		g.say("iTerm2: the session %s, else the one on %s", guid, pl.tty)
	case guid != "":
		g.say("iTerm2: the session %s", guid)
	case pl.tty != "":
		g.say("iTerm2: the session on %s (no session id recorded)", pl.tty)
	default:
		g.say("iTerm2: no session id, and %s; bringing iTerm2 forward only", pl.ttyWhy)
	}
}

// iTermRevealSince is the first iTerm2 release with the reveal URL.
var iTermRevealSince = [3]int{3, 5, 0}

// ITermReveal decides whether a jump tries iTerm2's reveal URL: only an
// iTerm2 of 3.5.0 or later has it (an older one ignores the URL, and
// open(1) still exits 0). An unknown version ("", or one that does not
// start with a number) is taken as a current iTerm2; why says why not.
func ITermReveal(version string) (use bool, why string) {
	v, ok := parseVersion(version)
	if !ok {
		return true, ""
	}
	for i := range v {
		if v[i] != iTermRevealSince[i] {
			if v[i] > iTermRevealSince[i] {
				return true, ""
			}
			return false, fmt.Sprintf("iTerm2 %s is older than 3.5.0", text.Clip(version, maxQuoted))
		}
	}
	return true, ""
}

// parseVersion reads "3.5.4", "3.5.0beta2", "3.4" as three numbers.
func parseVersion(s string) ([3]int, bool) {
	var v [3]int
	parts := strings.SplitN(s, ".", 3)
	for i, p := range parts {
		n, digits := 0, 0
		for _, r := range p {
			if r < '0' || r > '9' || digits == 9 {
				break
			}
			n, digits = n*10+int(r-'0'), digits+1
		}
		if digits == 0 {
			if i == 0 {
				return v, false
			}
			break
		}
		v[i] = n
		if digits < len(p) {
			break // "0beta2": the numbers end here
		}
	}
	return v, true
}

// ITermRevealURL is iTerm2's URL that reveals a session (window, tab and
// split at once, no Automation prompt): iTerm2 takes the whole
// $ITERM_SESSION_ID ("w0t1p0:GUID") and looks the GUID up. "" when env is
// not such an id.
func ITermRevealURL(env string) string {
	if !termid.ValidITermSessionID(env) {
		return ""
	}
	return "iterm2:reveal?sessionid=" + env
}

// planWarp opens the tab's focus URL ($WARP_FOCUS_URL).
func (g *planning) planWarp() {
	name, p := g.name, g.p
	u := g.pl.env["WARP_FOCUS_URL"]
	switch {
	case u == "":
		g.say("%s: no focus URL recorded (Warp before v0.2026.05.27); bringing %s forward only", name, name)
	case !termid.ValidWarpURL(u):
		g.say("%s: the recorded focus URL %q is not a warp:// link; bringing %s forward only", name, text.Clip(u, maxQuoted), name)
	default:
		p.Target.WarpURL = u
		p.Outer = append(p.Outer, Step{Name: name + ": open the tab's focus URL", Argv: []string{openPath, u}, Gives: Tab, Kind: StepOpenURL})
		g.say("%s: the tab of its focus URL", name)
	}
}

// planGhostty focuses the Ghostty terminal by its tty, else the only one
// in the working directory (not under a multiplexer, whose panes share
// one terminal).
func (g *planning) planGhostty() {
	pl, p := g.pl, g.p
	if pl.tty != "" {
		p.Target.Tty = pl.tty
		p.Outer = append(p.Outer, g.osa("ghostty-by-tty", pl.tty, Pane, "Ghostty: focus the terminal on "+pl.tty))
	}
	if pl.cwd != "" && !pl.tmux && !pl.zellij {
		p.Target.Cwd = pl.cwd
		p.Outer = append(p.Outer, g.osa("ghostty-by-cwd", pl.cwd, Pane, "Ghostty: focus the one terminal in "+pl.cwd))
	}
	switch {
	case pl.tty != "" && p.Target.Cwd != "":
		g.say("Ghostty: the terminal on %s (needs a Ghostty with the tty property), else the only terminal whose working directory is %s", pl.tty, pl.cwd)
	case pl.tty != "":
		g.say("Ghostty: the terminal on %s (needs a Ghostty with the tty property)", pl.tty)
	case p.Target.Cwd != "":
		g.say("Ghostty: the only terminal whose working directory is %s (two there: Ghostty forward only)", pl.cwd)
	default:
		g.say("Ghostty: %s; bringing Ghostty forward only", pl.ttyWhy)
	}
}

// planWezTerm activates the pane with WezTerm's CLI ($WEZTERM_PANE).
func (g *planning) planWezTerm() {
	pl, p := g.pl, g.p
	pane := pl.env["WEZTERM_PANE"]
	switch {
	case !termid.ValidPaneNumber(pane):
		g.say("WezTerm: no pane id recorded; bringing WezTerm forward only")
	case !termid.ValidPath(g.f.Tools.WezTerm):
		g.say("WezTerm: the wezterm program was not found; bringing WezTerm forward only")
	default:
		step := Step{
			Name:  "WezTerm: activate pane " + pane,
			Argv:  []string{g.f.Tools.WezTerm, "cli", "--no-auto-start", "activate-pane", "--pane-id", pane},
			Gives: Pane, Kind: StepWezTermCLI,
		}
		if sock := pl.env["WEZTERM_UNIX_SOCKET"]; termid.ValidSocket(sock) {
			step.Env = []string{"WEZTERM_UNIX_SOCKET=" + sock}
		}
		p.Target.WezTermPane = pane
		p.Inner = append(p.Inner, step)
		p.InnerShowsHost = true
		// activate-pane selects the pane and its tab inside its WezTerm
		// window (the GUI's focus_pane_and_containing_tab); wezterm cli
		// has no command to raise a window or switch workspace
		// (wezterm#3542), so with several, WezTerm's front one shows.
		g.say("WezTerm: pane %s and its tab (with several WezTerm windows or workspaces, WezTerm's front one comes forward: wezterm cli cannot raise another)", pane)
	}
}

// planKitty focuses the window by kitty's remote control
// ($KITTY_WINDOW_ID, $KITTY_LISTEN_ON).
func (g *planning) planKitty() {
	pl, p := g.pl, g.p
	win, listen := pl.env["KITTY_WINDOW_ID"], pl.env["KITTY_LISTEN_ON"]
	switch {
	case !termid.ValidPaneNumber(win):
		g.say("kitty: no window id recorded; bringing kitty forward only")
	case !termid.ValidKittyListen(listen):
		g.say("kitty: remote control is off (no usable KITTY_LISTEN_ON); bringing kitty forward only")
	case !termid.ValidPath(g.f.Tools.Kitten):
		g.say("kitty: the kitten program was not found; bringing kitty forward only")
	default:
		p.Target.KittyWindow, p.Target.KittyListen = win, listen
		p.Inner = append(p.Inner, Step{
			Name:  "kitty: focus window " + win,
			Argv:  []string{g.f.Tools.Kitten, "@", "--to", listen, "focus-window", "--match", "id:" + win},
			Gives: Pane, Kind: StepKittyRemote,
		})
		p.InnerShowsHost = true
		g.say("kitty: window %s", win)
	}
}

// planEditor brings forward the window of the editor (VS Code and its
// forks) that has the session's folder open (macOS).
func (g *planning) planEditor() {
	name, p, h := g.name, g.p, *g.f.Host
	folder, reason := editorFolder(g.pl, g.f.Agent.Cwd, g.f.EditorFolders)
	switch {
	case folder != "" && g.activate != nil:
		p.Target.Folder = folder
		app := []string{"-b", h.BundleID}
		if termid.ValidAppPath(h.AppPath) {
			app = []string{"-a", h.AppPath}
		}
		p.Outer = append(p.Outer, Step{
			Name:  fmt.Sprintf("%s: bring the window of %s forward", name, folder),
			Argv:  append(append([]string{openPath}, app...), folder),
			Gives: Window, Kind: StepOpenFolder,
		})
		g.say("%s: the window of %s (opening a folder that is already open focuses its window)", name, folder)
	case g.darwin:
		g.say("%s: %s; bringing %s forward only", name, reason, name)
	}
}

// editorFolder picks the editor window to bring forward: the one open
// folder that contains the session's working directory. Opening any other
// folder would open a new window, so without exactly one match the plan only
// activates the editor.
func editorFolder(pl place, cwd string, open []string) (string, string) {
	switch {
	case pl.tmux || pl.zellij:
		return "", "the session runs in a multiplexer, so its editor window is not known"
	case !termid.ValidPath(cwd):
		return "", "no working directory recorded"
	case len(open) == 0:
		return "", "the editor's open folders are not known"
	}
	var found []string
	for _, f := range open {
		if termid.ValidPath(f) && (cwd == f || strings.HasPrefix(cwd, f+"/") || f == "/") {
			found = append(found, f)
		}
	}
	switch len(found) {
	case 0:
		return "", "no open folder contains " + cwd
	case 1:
		return found[0], ""
	}
	return "", fmt.Sprintf("%d open folders contain %s", len(found), cwd)
}

// planOther is a host Mew cannot reach into: it is only brought forward.
func (g *planning) planOther() {
	if g.darwin {
		g.say("%s: Mew cannot select its tabs; bringing %s forward", g.name, g.name)
	} else {
		g.say("%s: on Linux Mew reaches only into tmux, WezTerm and kitty", g.name)
	}
}

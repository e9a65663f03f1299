// Package jump takes the person from a session to the terminal tab or tmux
// pane it runs in. Planning is pure: Make turns the facts about a session
// (its record, its host application found from the process tree, its tmux
// client) into a Plan of argument vectors; Gather collects those facts;
// Execute and Runner carry a plan out, one jump at a time.
//
// A jump to the wrong tab is worse than none: when a plan cannot point at the
// exact tab or pane, it brings the right application forward and says so.
package jump

import (
	"fmt"
	"strings"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/terminal"
)

// Precision says how close a jump gets to the session.
type Precision string

const (
	None   Precision = "none"   // nothing was brought forward
	App    Precision = "app"    // the right application, not its tab
	Window Precision = "window" // the right window (an editor's folder)
	Tab    Precision = "tab"    // the right tab
	Pane   Precision = "pane"   // the right split pane or tmux pane
)

func (p Precision) rank() int {
	switch p {
	case Pane:
		return 4
	case Tab:
		return 3
	case Window:
		return 2
	case App:
		return 1
	}
	return 0
}

// AtLeast reports whether p is as precise as q or more.
func (p Precision) AtLeast(q Precision) bool { return p.rank() >= q.rank() }

func lower(a, b Precision) Precision {
	if a.rank() < b.rank() {
		return a
	}
	return b
}

// Program paths on macOS: absolute, so the app's minimal PATH can't
// substitute another program.
const (
	osascriptPath = terminal.OsascriptPath
	openPath      = "/usr/bin/open"
	lsappinfoPath = "/usr/bin/lsappinfo"
)

// Step is one command of a plan, run as an argument vector (never a shell
// line).
type Step struct {
	Name string   `json:"name"` // what it does, for messages
	Argv []string `json:"argv"`
	// ScriptName names the AppleScript (a constant in Scripts) that goes to
	// osascript on stdin; the values it needs are in Argv.
	ScriptName string    `json:"script,omitempty"`
	Env        []string  `json:"env,omitempty"`  // extra environment, "KEY=value"
	Want       string    `json:"want,omitempty"` // stdout that means success; "" means exit status 0
	Gives      Precision `json:"gives"`          // how close the step gets on its own
	// Asks names the application whose Automation permission the step
	// may make macOS ask for (AppleScript to it): see PromptTimeout.
	Asks string `json:"asks,omitempty"`
}

// Verify is the check, after the outer steps, that the host really is the
// frontmost application (macOS).
type Verify struct {
	BundleID  string `json:"bundle_id"`
	Lsappinfo string `json:"lsappinfo"` // /usr/bin/lsappinfo: asks LaunchServices, no permission needed
	Reopen    Step   `json:"reopen"`    // open -b: what is tried once when the host is not in front
}

// Script is the AppleScript text of the step, or "".
func (s Step) Script() string { return Scripts[s.ScriptName] }

// Target is what a plan points at, for messages and tests.
type Target struct {
	Tty          string `json:"tty,omitempty"`
	ITermSession string `json:"iterm_session,omitempty"`
	TmuxSocket   string `json:"tmux_socket,omitempty"`
	TmuxPane     string `json:"tmux_pane,omitempty"`
	TmuxClient   string `json:"tmux_client,omitempty"`
	WezTermPane  string `json:"wezterm_pane,omitempty"`
	KittyWindow  string `json:"kitty_window,omitempty"`
	KittyListen  string `json:"kitty_listen,omitempty"`
	ITermURL     string `json:"iterm_url,omitempty"`
	WarpURL      string `json:"warp_url,omitempty"`
	ZellijSess   string `json:"zellij_session,omitempty"`
	ZellijPane   string `json:"zellij_pane,omitempty"`
	Folder       string `json:"folder,omitempty"`
	Cwd          string `json:"cwd,omitempty"`
}

// Plan is how to jump to one session.
type Plan struct {
	SessionID string    `json:"session_id"`
	Host      string    `json:"host,omitempty"` // the host application's name
	BundleID  string    `json:"bundle_id,omitempty"`
	Mechanism string    `json:"mechanism"`
	Precision Precision `json:"precision"` // the best this plan reaches when every step works
	Why       string    `json:"why"`
	Target    Target    `json:"target"`
	// Inner steps select the pane inside its terminal (tmux switch-client,
	// WezTerm activate-pane, kitty focus-window); all of them run.
	Inner []Step `json:"inner,omitempty"`
	// InnerShowsHost: the inner steps also bring their pane's tab forward
	// inside the host (WezTerm, kitty), so activating the app shows it.
	InnerShowsHost bool `json:"inner_shows_host,omitempty"`
	// Outer steps bring the host's tab, window or app forward: alternatives
	// in order, the first that works ends the list.
	Outer []Step `json:"outer,omitempty"`
	// Verify, when set, checks the host came to the front (macOS).
	Verify *Verify `json:"verify,omitempty"`
}

// Outcome is the precision reached when the inner steps all worked
// (innerOK) and the outer ones reached outer.
func (p Plan) Outcome(innerOK bool, outer Precision) Precision {
	if len(p.Inner) == 0 {
		return outer
	}
	if !innerOK {
		// The pane was not selected: at best the right app is in front.
		return lower(outer, App)
	}
	switch {
	case len(p.Outer) == 0:
		return Pane // nothing to raise (Linux): the pane is selected in its terminal
	case outer == None:
		return None
	case p.InnerShowsHost || outer.AtLeast(Tab):
		return Pane
	}
	return outer
}

// Facts are what planning knows about a session. Gather fills them in.
type Facts struct {
	GOOS      string
	SessionID string
	Agent     Agent
	// Host is the application the session's terminal belongs to; under
	// tmux, the terminal of the tmux client the person used last.
	Host    *Host
	HostWhy string // why Host is nil
	Tmux    *Tmux
	Zellij  *Zellij
	// EditorFolders are the folders the host editor (VS Code family) has
	// open windows for, from its own state file.
	EditorFolders []string
	Tools         Tools
}

// Agent is the agent process as recorded, and whether it still runs.
type Agent struct {
	Pid   int
	Alive bool // the recorded process (pid and start time) is still running
	Tty   string
	Cwd   string
	Env   map[string]string // the variables the hook recorded
}

// Host is an application found from the process tree.
type Host struct {
	Kind     Kind
	BundleID string
	AppPath  string
	Exe      string // the host's executable (how Linux terminals are known)
	Pid      int
}

// Tmux is the tmux side of a session that runs in tmux.
type Tmux struct {
	Socket    string
	Pane      string
	ServerPid int
	// Why is set when the pane cannot be targeted (the server restarted,
	// the pane is gone, no client is attached).
	Why    string
	Client *Client
}

// Zellij is the zellij side of a session that runs in zellij: its
// session and pane as the pane's environment named them at SessionStart.
type Zellij struct {
	Session string
	Pane    string // $ZELLIJ_PANE_ID: a terminal pane's number
}

// Client is a tmux client: the terminal the person looks at the pane through.
type Client struct {
	Tty     string
	Pid     int
	Control bool              // a control-mode client (iTerm2's tmux integration)
	Env     map[string]string // its environment: names the host's tab or pane
}

// Tools are the programs a plan may run, resolved by Gather.
type Tools struct {
	Tmux    string // the tmux server's own binary
	WezTerm string // wezterm (the CLI beside the GUI)
	Kitten  string // kitty's kitten
	Zellij  string // zellij
}

// place is where the session is inside its host: the tty, environment and
// working directory that may identify its tab.
type place struct {
	tty    string
	ttyWhy string // why tty is not usable
	env    map[string]string
	cwd    string // "" when it must not be used to pick a tab
	tmux   bool   // the place is a tmux client's terminal
	zellij bool   // the session runs in zellij: its terminal's tab is not known
}

// Make plans the jump for one session. It decides everything and runs
// nothing.
func Make(f Facts) Plan {
	p := Plan{SessionID: f.SessionID, Precision: None, Mechanism: "none"}
	var why []string
	var pl place
	if t := f.Tmux; t != nil {
		p.Target.TmuxSocket, p.Target.TmuxPane = t.Socket, t.Pane
		if step, target, reason := tmuxStep(f); reason == "" {
			p.Inner = append(p.Inner, step)
			p.Target.TmuxClient = target
			why = append(why, fmt.Sprintf("tmux: switch the client on %s to pane %s", target, t.Pane))
			pl = place{tty: target, env: t.Client.Env, tmux: true}
		} else {
			why = append(why, "tmux: "+reason)
			pl = place{ttyWhy: "the tmux pane cannot be selected", tmux: true}
		}
	} else if z := f.Zellij; z != nil {
		p.Target.ZellijSess, p.Target.ZellijPane = z.Session, z.Pane
		switch {
		case !terminal.ValidZellijSession(z.Session):
			why = append(why, fmt.Sprintf("zellij: the recorded session name %q is not one Mew passes on", text.Clip(z.Session, maxQuoted)))
		case !terminal.ValidPaneNumber(z.Pane):
			why = append(why, fmt.Sprintf("zellij: the recorded pane %q is not a pane number", text.Clip(z.Pane, maxQuoted)))
		case !terminal.ValidPath(f.Tools.Zellij):
			why = append(why, "zellij: the zellij program was not found")
		default:
			p.Inner = append(p.Inner, Step{
				Name:  fmt.Sprintf("zellij: focus pane %s of session %s", z.Pane, z.Session),
				Argv:  []string{f.Tools.Zellij, "--session", z.Session, "action", "focus-pane-id", z.Pane},
				Gives: Pane,
			})
			why = append(why, fmt.Sprintf("zellij: pane %s of session %s", z.Pane, z.Session))
		}
		// The terminal showing the zellij client is known at best by its
		// app ($TERM_PROGRAM); ids inherited from the tab that created the
		// session may name another tab now: none of them is used.
		pl = place{ttyWhy: "which of its tabs shows the zellij session is not known", zellij: true}
	} else {
		pl = agentPlace(f)
	}
	if f.Host == nil {
		hw := f.HostWhy
		if hw == "" {
			hw = "no terminal application was found above the agent process"
		}
		if len(p.Inner) > 0 && f.GOOS != "darwin" {
			// Linux raises no windows: selecting the pane in its client
			// is the whole jump.
			why = append(why, hw)
			p.Precision, p.Mechanism = p.Outcome(true, None), mechanism(p)
		} else {
			// On macOS a pane switched in a terminal nobody can bring
			// forward (or a client over ssh) is no jump: change nothing.
			if len(p.Inner) > 0 && f.Tmux != nil {
				why = []string{fmt.Sprintf("tmux: pane %s is seen through the client on %s, but %s", p.Target.TmuxPane, p.Target.TmuxClient, hw)}
			} else if len(p.Inner) > 0 {
				why = append(why, hw)
			} else {
				why = append(why, hw)
			}
			why[len(why)-1] += "; nothing to bring forward"
			p.Inner, p.Target.TmuxClient = nil, ""
		}
		p.Why = strings.Join(why, "; ")
		return p
	}
	planHost(f, *f.Host, pl, &p, &why)
	p.Why = strings.Join(why, "; ")
	best := None
	for _, s := range p.Outer {
		if s.Gives.rank() > best.rank() {
			best = s.Gives
		}
	}
	p.Precision = p.Outcome(true, best)
	if len(p.Inner) == 0 && len(p.Outer) == 0 {
		p.Precision = None
	}
	p.Mechanism = mechanism(p)
	return p
}

// agentPlace is the agent's own terminal. A tty or a working directory
// identifies a tab only while the agent holds it: once the agent has exited,
// the same tty may belong to another tab.
func agentPlace(f Facts) place {
	a := f.Agent
	pl := place{env: a.Env}
	switch {
	case a.Tty == "":
		pl.ttyWhy = "no terminal device was recorded for the agent"
	case !terminal.ValidTty(f.GOOS, a.Tty):
		pl.ttyWhy = fmt.Sprintf("the recorded terminal %q is not a terminal device name", text.Clip(a.Tty, maxQuoted))
	case !a.Alive:
		pl.ttyWhy = fmt.Sprintf("the agent process has exited, so %s may belong to another tab now", a.Tty)
	default:
		pl.tty = a.Tty
	}
	if a.Alive && terminal.ValidPath(a.Cwd) {
		pl.cwd = a.Cwd
	}
	return pl
}

// tmuxStep is `tmux -S socket switch-client -c client -t pane`: the client
// shows the pane's session, window and pane in one step.
func tmuxStep(f Facts) (Step, string, string) {
	t := f.Tmux
	switch {
	case t.Why != "":
		return Step{}, "", t.Why
	case !terminal.ValidSocket(t.Socket):
		return Step{}, "", fmt.Sprintf("the recorded socket %q is not a usable socket path", text.Clip(t.Socket, maxQuoted))
	case !terminal.ValidTmuxPane(t.Pane):
		return Step{}, "", fmt.Sprintf("the recorded pane %q is not a tmux pane id", text.Clip(t.Pane, maxQuoted))
	case !terminal.ValidPath(f.Tools.Tmux):
		return Step{}, "", "the tmux program was not found"
	case t.Client == nil:
		return Step{}, "", "no client is attached to the tmux server"
	case t.Client.Control:
		return Step{}, "", "the only clients are control-mode clients (tmux integration), whose tabs Mew cannot select"
	case !terminal.ValidTty(f.GOOS, t.Client.Tty):
		return Step{}, "", fmt.Sprintf("the client's terminal %q is not a terminal device name", text.Clip(t.Client.Tty, maxQuoted))
	}
	return Step{
		Name:  fmt.Sprintf("tmux: show pane %s on the client %s", t.Pane, t.Client.Tty),
		Argv:  []string{f.Tools.Tmux, "-S", t.Socket, "switch-client", "-c", t.Client.Tty, "-t", t.Pane},
		Gives: Pane,
	}, t.Client.Tty, ""
}

// planHost adds the steps that reach into the host application.
func planHost(f Facts, h Host, pl place, p *Plan, why *[]string) {
	name := hostName(h)
	p.Host = name
	if terminal.ValidBundleID(h.BundleID) {
		p.BundleID = h.BundleID
	}
	darwin := f.GOOS == "darwin"
	var activate *Step
	if darwin {
		activate = activateStep(h, name)
	}
	say := func(format string, args ...any) { *why = append(*why, fmt.Sprintf(format, args...)) }
	osa := func(script, arg string, gives Precision, what string) Step {
		return Step{
			Name: what, Argv: []string{osascriptPath, "-", arg},
			ScriptName: script, Want: "ok", Gives: gives, Asks: name,
		}
	}

	kind := h.Kind
	if !darwin {
		kind = KindOfExe(h.Exe)
	}
	switch kind {
	case KindTerminal:
		if pl.tty != "" {
			p.Target.Tty = pl.tty
			p.Outer = append(p.Outer, osa("terminal-tab", pl.tty, Tab, "Terminal: select the tab on "+pl.tty))
			say("Terminal: the tab on %s", pl.tty)
		} else {
			say("Terminal: %s; bringing Terminal forward only", pl.ttyWhy)
		}
	case KindITerm:
		// Its own id first: the reveal URL selects window, tab and split
		// inside iTerm2, with no Automation prompt.
		if u := ITermRevealURL(pl.env["ITERM_SESSION_ID"]); u != "" {
			p.Target.ITermURL = u
			p.Outer = append(p.Outer, Step{Name: "iTerm2: reveal the session by its URL", Argv: []string{openPath, u}, Gives: Pane})
		}
		guid := terminal.ITermSession(pl.env["ITERM_SESSION_ID"])
		if guid != "" {
			p.Target.ITermSession = guid
			p.Outer = append(p.Outer, osa("iterm-by-id", guid, Pane, "iTerm2: select session "+guid))
		}
		if pl.tty != "" {
			p.Target.Tty = pl.tty
			p.Outer = append(p.Outer, osa("iterm-by-tty", pl.tty, Pane, "iTerm2: select the session on "+pl.tty))
		}
		if p.Target.ITermURL != "" {
			say("iTerm2: its reveal URL (no Automation prompt), else by AppleScript")
		}
		switch {
		case guid != "" && pl.tty != "":
			say("iTerm2: the session %s, else the one on %s", guid, pl.tty)
		case guid != "":
			say("iTerm2: the session %s", guid)
		case pl.tty != "":
			say("iTerm2: the session on %s (no session id recorded)", pl.tty)
		default:
			say("iTerm2: no session id, and %s; bringing iTerm2 forward only", pl.ttyWhy)
		}
	case KindWarp:
		u := pl.env["WARP_FOCUS_URL"]
		switch {
		case u == "":
			say("%s: no focus URL recorded (Warp before v0.2026.05.27); bringing %s forward only", name, name)
		case !terminal.ValidWarpURL(u):
			say("%s: the recorded focus URL %q is not a warp:// link; bringing %s forward only", name, text.Clip(u, maxQuoted), name)
		default:
			p.Target.WarpURL = u
			p.Outer = append(p.Outer, Step{Name: name + ": open the tab's focus URL", Argv: []string{openPath, u}, Gives: Tab})
			say("%s: the tab of its focus URL", name)
		}
	case KindGhostty:
		if pl.tty != "" {
			p.Target.Tty = pl.tty
			p.Outer = append(p.Outer, osa("ghostty-by-tty", pl.tty, Pane, "Ghostty: focus the terminal on "+pl.tty))
		}
		if pl.cwd != "" && !pl.tmux && !pl.zellij {
			p.Target.Cwd = pl.cwd
			p.Outer = append(p.Outer, osa("ghostty-by-cwd", pl.cwd, Pane, "Ghostty: focus the one terminal in "+pl.cwd))
		}
		switch {
		case pl.tty != "" && p.Target.Cwd != "":
			say("Ghostty: the terminal on %s (needs a Ghostty with the tty property), else the only terminal whose working directory is %s", pl.tty, pl.cwd)
		case pl.tty != "":
			say("Ghostty: the terminal on %s (needs a Ghostty with the tty property)", pl.tty)
		case p.Target.Cwd != "":
			say("Ghostty: the only terminal whose working directory is %s (two there: Ghostty forward only)", pl.cwd)
		default:
			say("Ghostty: %s; bringing Ghostty forward only", pl.ttyWhy)
		}
	case KindWezTerm:
		pane := pl.env["WEZTERM_PANE"]
		switch {
		case !terminal.ValidPaneNumber(pane):
			say("WezTerm: no pane id recorded; bringing WezTerm forward only")
		case !terminal.ValidPath(f.Tools.WezTerm):
			say("WezTerm: the wezterm program was not found; bringing WezTerm forward only")
		default:
			step := Step{
				Name:  "WezTerm: activate pane " + pane,
				Argv:  []string{f.Tools.WezTerm, "cli", "--no-auto-start", "activate-pane", "--pane-id", pane},
				Gives: Pane,
			}
			if sock := pl.env["WEZTERM_UNIX_SOCKET"]; terminal.ValidSocket(sock) {
				step.Env = []string{"WEZTERM_UNIX_SOCKET=" + sock}
			}
			p.Target.WezTermPane = pane
			p.Inner = append(p.Inner, step)
			p.InnerShowsHost = true
			say("WezTerm: pane %s", pane)
		}
	case KindKitty:
		win, listen := pl.env["KITTY_WINDOW_ID"], pl.env["KITTY_LISTEN_ON"]
		switch {
		case !terminal.ValidPaneNumber(win):
			say("kitty: no window id recorded; bringing kitty forward only")
		case !terminal.ValidKittyListen(listen):
			say("kitty: remote control is off (no usable KITTY_LISTEN_ON); bringing kitty forward only")
		case !terminal.ValidPath(f.Tools.Kitten):
			say("kitty: the kitten program was not found; bringing kitty forward only")
		default:
			p.Target.KittyWindow, p.Target.KittyListen = win, listen
			p.Inner = append(p.Inner, Step{
				Name:  "kitty: focus window " + win,
				Argv:  []string{f.Tools.Kitten, "@", "--to", listen, "focus-window", "--match", "id:" + win},
				Gives: Pane,
			})
			p.InnerShowsHost = true
			say("kitty: window %s", win)
		}
	case KindVSCode:
		folder, reason := editorFolder(pl, f.Agent.Cwd, f.EditorFolders)
		if folder != "" && activate != nil {
			p.Target.Folder = folder
			app := []string{"-b", h.BundleID}
			if terminal.ValidAppPath(h.AppPath) {
				app = []string{"-a", h.AppPath}
			}
			p.Outer = append(p.Outer, Step{
				Name:  fmt.Sprintf("%s: bring the window of %s forward", name, folder),
				Argv:  append(append([]string{openPath}, app...), folder),
				Gives: Window,
			})
			say("%s: the window of %s (opening a folder that is already open focuses its window)", name, folder)
		} else if darwin {
			say("%s: %s; bringing %s forward only", name, reason, name)
		}
	default:
		if darwin {
			say("%s: Mew cannot select its tabs; bringing %s forward", name, name)
		} else {
			say("%s: on Linux Mew reaches only into tmux, WezTerm and kitty", name)
		}
	}
	if activate != nil {
		p.Outer = append(p.Outer, *activate)
		if terminal.ValidBundleID(h.BundleID) {
			p.Verify = &Verify{
				BundleID: h.BundleID, Lsappinfo: lsappinfoPath,
				Reopen: Step{Name: "open " + name + " with LaunchServices", Argv: []string{openPath, "-b", h.BundleID}, Gives: App},
			}
		}
	} else if darwin {
		say("no valid bundle id or application path to bring %s forward", name)
	}
}

// activateStep brings the host application forward (macOS).
func activateStep(h Host, name string) *Step {
	var argv []string
	switch {
	case terminal.ValidBundleID(h.BundleID):
		argv = []string{openPath, "-b", h.BundleID}
	case terminal.ValidAppPath(h.AppPath):
		argv = []string{openPath, "-a", h.AppPath}
	default:
		return nil
	}
	return &Step{Name: "bring " + name + " forward", Argv: argv, Gives: App}
}

// editorFolder picks the editor window to bring forward: the one open
// folder that contains the session's working directory. Opening any other
// folder would open a new window, so without exactly one match the plan only
// activates the editor.
func editorFolder(pl place, cwd string, open []string) (string, string) {
	switch {
	case pl.tmux || pl.zellij:
		return "", "the session runs in a multiplexer, so its editor window is not known"
	case !terminal.ValidPath(cwd):
		return "", "no working directory recorded"
	case len(open) == 0:
		return "", "the editor's open folders are not known"
	}
	var found []string
	for _, f := range open {
		if terminal.ValidPath(f) && (cwd == f || strings.HasPrefix(cwd, f+"/") || f == "/") {
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

func mechanism(p Plan) string {
	var m []string
	add := func(s string) {
		for _, x := range m {
			if x == s {
				return
			}
		}
		m = append(m, s)
	}
	for _, s := range append(append([]Step{}, p.Inner...), p.Outer...) {
		switch {
		case s.ScriptName != "":
			add("applescript")
		case len(s.Argv) == 2 && s.Argv[0] == openPath:
			add("open-url")
		case len(s.Argv) > 3 && s.Argv[3] == "action":
			add("zellij")
		case len(s.Argv) > 3 && s.Argv[0] == openPath:
			add("open-folder")
		case len(s.Argv) > 0 && s.Argv[0] == openPath:
			add("activate")
		case len(s.Argv) > 3 && s.Argv[3] == "switch-client":
			add("tmux")
		case len(s.Argv) > 1 && s.Argv[1] == "cli":
			add("wezterm-cli")
		case len(s.Argv) > 1 && s.Argv[1] == "@":
			add("kitty-remote")
		}
	}
	if len(m) == 0 {
		return "none"
	}
	return strings.Join(m, "+")
}

// maxQuoted bounds a recorded value quoted in a plan's reason or a step's
// error (text.Clip): 80 characters and "…".
const maxQuoted = 81

// ITermRevealURL is iTerm2's URL that reveals a session (window, tab and
// split at once, no Automation prompt): iTerm2 takes the whole
// $ITERM_SESSION_ID ("w0t1p0:GUID") and looks the GUID up. "" when env is
// not such an id.
func ITermRevealURL(env string) string {
	if !terminal.ValidITermSessionID(env) {
		return ""
	}
	return "iterm2:reveal?sessionid=" + env
}

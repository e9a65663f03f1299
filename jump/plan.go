// Package jump takes the person from a session to the terminal tab or tmux
// pane it runs in. Planning is pure: Make turns the facts about a session
// (its record, its host application found from the process tree, its tmux
// client) into a Plan of argument vectors, with one planner per
// multiplexer and terminal (planners.go); Gather collects those facts;
// Execute and Runner carry a plan out, one jump at a time.
//
// A jump to the wrong tab is worse than none: when a plan cannot point at the
// exact tab or pane, it brings the right application forward and says so.
package jump

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/terminal"
	"github.com/mew-dev/mew/terminal/termid"
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
	// Kind is how the step reaches its target, set by the planner that
	// made it; Plan.Mechanism lists the kinds of a plan's steps.
	Kind StepKind `json:"-"`
	// OnlyUntilAllowed names an application: the step is skipped once
	// that application took Mew's Apple Events (Options.Allowed). For a
	// way that needs no permission but cannot tell whether it reached the
	// session (iTerm2's reveal URL), ahead of an AppleScript that can.
	OnlyUntilAllowed string `json:"only_until_allowed,omitempty"`
}

// StepKind is how a step reaches its target.
type StepKind string

const (
	StepAppleScript StepKind = "applescript"  // osascript with one of Scripts
	StepOpenURL     StepKind = "open-url"     // open(1) a terminal's URL for the tab
	StepOpenFolder  StepKind = "open-folder"  // open(1) a folder in its editor
	StepActivate    StepKind = "activate"     // open(1) the application: to the front
	StepTmux        StepKind = "tmux"         // tmux switch-client
	StepZellij      StepKind = "zellij"       // zellij action focus-pane-id
	StepWezTermCLI  StepKind = "wezterm-cli"  // wezterm cli activate-pane
	StepKittyRemote StepKind = "kitty-remote" // kitten @ focus-window
)

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
	// Version is the application's version (CFBundleShortVersionString),
	// "" when not known; read for iTerm2 (ITermReveal).
	Version string
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
// nothing: the multiplexer's planner (tmux, zellij) selects the pane and
// says where its terminal is, then the host's planner (hostPlanners)
// reaches into the terminal application.
func Make(f Facts) Plan {
	p := Plan{SessionID: f.SessionID, Precision: None, Mechanism: "none"}
	g := &planning{f: f, p: &p}
	switch {
	case f.Tmux != nil:
		g.pl = g.planTmux()
	case f.Zellij != nil:
		g.pl = g.planZellij()
	default:
		g.pl = agentPlace(f)
	}
	if f.Host == nil {
		g.noHost()
		p.Why = strings.Join(g.why, "; ")
		return p
	}
	g.planHost(*f.Host)
	p.Why = strings.Join(g.why, "; ")
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

// noHost ends a plan that found no host application.
func (g *planning) noHost() {
	f, p := g.f, g.p
	hw := f.HostWhy
	if hw == "" {
		hw = "no terminal application was found above the agent process"
	}
	if len(p.Inner) > 0 && f.GOOS != "darwin" {
		// Linux raises no windows: selecting the pane in its client
		// is the whole jump, and which terminal shows that client does
		// not matter (a tmux user hears nothing of WezTerm or kitty).
		p.Precision, p.Mechanism = p.Outcome(true, None), mechanism(*p)
		return
	}
	// On macOS a pane switched in a terminal nobody can bring forward (or
	// a client over ssh) is no jump: change nothing.
	if len(p.Inner) > 0 && f.Tmux != nil {
		g.why = []string{fmt.Sprintf("tmux: pane %s is seen through the client on %s, but %s", p.Target.TmuxPane, p.Target.TmuxClient, hw)}
	} else {
		g.why = append(g.why, hw)
	}
	g.why[len(g.why)-1] += "; nothing to bring forward"
	p.Inner, p.Target.TmuxClient = nil, ""
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
	case !termid.ValidTty(f.GOOS, a.Tty):
		pl.ttyWhy = fmt.Sprintf("the recorded terminal %q is not a terminal device name", text.Clip(a.Tty, maxQuoted))
	case !a.Alive:
		pl.ttyWhy = fmt.Sprintf("the agent process has exited, so %s may belong to another tab now", a.Tty)
	default:
		pl.tty = a.Tty
	}
	if a.Alive && termid.ValidPath(a.Cwd) {
		pl.cwd = a.Cwd
	}
	return pl
}

// mechanism lists the kinds of the plan's steps, in order, once each.
func mechanism(p Plan) string {
	var m []string
	for _, s := range append(append([]Step{}, p.Inner...), p.Outer...) {
		if k := string(s.Kind); k != "" && !slices.Contains(m, k) {
			m = append(m, k)
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

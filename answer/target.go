package answer

import (
	"runtime"
	"strconv"
	"time"

	runwrap "github.com/mew-dev/mew/screen/run"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/tmux"
	"github.com/mew-dev/mew/terminal/termid"
)

// Ways Mew types into a terminal (Target.Via, session.Shown.AnswerVia).
const (
	ViaTmux  = "tmux"
	ViaRun   = "run"
	ViaITerm = "iterm2"
)

// Target is where an answer to a session is typed. Every value in it was
// checked against the narrow shape it must have; Via is "" when Mew
// cannot type into the session's terminal, and Why says so.
type Target struct {
	Via string `json:"via"`
	// Pane and Socket: the tmux pane (%N) and the server's socket ("" for
	// the default server).
	Pane   string `json:"pane,omitempty"`
	Socket string `json:"socket,omitempty"`
	// Run is the `mew run` wrapper's answer socket.
	Run string `json:"run,omitempty"`
	// ITermSession is the iTerm2 session's unique id (a GUID).
	ITermSession string `json:"iterm_session,omitempty"`
	Why          string `json:"why"`
}

// iTermBundle is iTerm2's bundle id.
const iTermBundle = "com.googlecode.iterm2"

// Host is what Plan needs of the machine Mew runs on.
type Host struct {
	GOOS    string
	MewHome string // where `mew run` wrappers keep their answer sockets
	// TmuxSocket is the server Mew's tmux screen source reads ("" for
	// tmux's default): where a pane it saw is.
	TmuxSocket string
}

// LocalHost is this machine as Mew's sources see it.
func LocalHost(mewHome string) Host {
	return Host{GOOS: runtime.GOOS, MewHome: mewHome, TmuxSocket: tmux.SocketFromEnv()}
}

// Plan finds where to type an answer to rec. It is pure: a record's
// values are used only in the shapes terminal's validators accept.
func Plan(rec session.Record, h Host) Target {
	goos := h.GOOS
	sc, p := rec.Screen, rec.Process
	if sc != nil && sc.Via == ViaRun && !sc.Background {
		path := runwrap.Socket(h.MewHome, sc.Pid)
		if sc.Pid <= 0 || !termid.ValidSocket(path) {
			return Target{Why: "the `mew run` wrapper's answer socket is unknown (or its path too long): answer in the terminal"}
		}
		return Target{Via: ViaRun, Run: path, Why: "the `mew run` wrapper of pid " + strconv.Itoa(sc.Pid)}
	}
	if sc != nil && sc.Via == ViaTmux && !sc.Background && sc.Pane != "" {
		// The pane the screen source read, on the server it reads (the
		// hooks' record may name another: an agent's daemon started
		// elsewhere).
		socket := h.TmuxSocket
		if p != nil && p.Tmux != nil && p.Tmux.Pane == sc.Pane && p.Tmux.Socket != "" && p.Tmux.Socket != tmux.SocketPath(h.TmuxSocket) {
			// A screen Mew read on the session's own server, not the
			// one it watches (`mew answer` run outside that server):
			// the pane is that server's.
			socket = p.Tmux.Socket
		}
		switch {
		case !termid.ValidTmuxPane(sc.Pane):
			return Target{Why: "the tmux pane recorded for the session is not a pane id: answer in the terminal"}
		case socket != "" && !termid.ValidSocket(socket):
			return Target{Why: "the tmux socket Mew reads is not a plain path: answer in the terminal"}
		}
		return Target{Via: ViaTmux, Pane: sc.Pane, Socket: socket, Why: "tmux pane " + sc.Pane}
	}
	if p != nil && p.Tmux != nil && p.Tmux.Pane != "" {
		socket := p.Tmux.Socket
		if socket != "" && !termid.ValidSocket(socket) {
			return Target{Why: "the tmux socket recorded for the session is not a plain path: answer in the terminal"}
		}
		if !termid.ValidTmuxPane(p.Tmux.Pane) {
			return Target{Why: "the tmux pane recorded for the session is not a pane id: answer in the terminal"}
		}
		return Target{Via: ViaTmux, Pane: p.Tmux.Pane, Socket: socket, Why: "tmux pane " + p.Tmux.Pane}
	}
	if p != nil && p.Env["ITERM_SESSION_ID"] != "" && (p.Host == nil || p.Host.BundleID == "" || p.Host.BundleID == iTermBundle) {
		guid := termid.ITermSession(p.Env["ITERM_SESSION_ID"])
		switch {
		case guid == "":
			return Target{Why: "the iTerm2 session id recorded for the session is not one: answer in the terminal"}
		case goos != "darwin":
			return Target{Why: "iTerm2 runs on macOS: answer in the terminal"}
		}
		return Target{Via: ViaITerm, ITermSession: guid, Why: "iTerm2 session " + guid}
	}
	return Target{Why: "Mew types only into tmux panes, `mew run` sessions and iTerm2: answer in the terminal"}
}

// WantFor is the answer c to what rec shows: with the screen's rule and
// dialog text when the choices came from it, and the earliest time a
// source saw the wait begin (a prompt that just appeared drops keys).
func WantFor(rec session.Record, c session.Choice) Want {
	w := Want{SessionID: rec.ID, Agent: rec.Agent, Choice: c}
	sc := rec.Screen
	if sc != nil && sc.Agent != "" {
		w.Agent = sc.Agent
	}
	if sc != nil && sc.State == session.ScreenBlocked && len(sc.Choices) > 0 {
		w.Rule, w.Prompt = sc.Rule, sc.Prompt
	}
	earliest := func(t time.Time) {
		if !t.IsZero() && (w.ShownAt.IsZero() || t.Before(w.ShownAt)) {
			w.ShownAt = t
		}
	}
	if h := rec.Hook; h != nil && h.State == session.Waiting {
		earliest(h.Since)
	}
	if r := rec.Registry; r != nil && r.Status == "waiting" {
		earliest(r.At)
	}
	// A screen read once, just now (a one-shot scan), says nothing of when
	// the prompt appeared; one followed over time does.
	if sc != nil && sc.State == session.ScreenBlocked && sc.Since.Before(sc.At) {
		earliest(sc.Since)
	}
	return w
}

package board

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/terminal/termid"
)

// AlertFacts are what the person and the platform say at the moment alerts
// are due: which sessions the person muted or snoozed, and which ones they
// are looking at. The caller gathers them (files, tmux, the frontmost app);
// Decide only reads them, so the policy stays a table.
type AlertFacts struct {
	// Muted sessions never alert.
	Muted map[string]bool
	// Snoozed sessions do not alert until the time given.
	Snoozed map[string]time.Time
	// Focused sessions are on the terminal in front of the person: they
	// see it already, so no sound, banner or push (FocusedSessions).
	Focused map[string]bool
}

// Held says why an alert was not sent; "" sends it.
type Held string

const (
	Send        Held = ""
	HeldMuted   Held = "muted"
	HeldSnoozed Held = "snoozed"
	HeldFocused Held = "focused"
)

// Decision is one alert and whether it reaches the person.
type Decision struct {
	Alert
	Held Held
}

// Decide applies the person's mutes and snoozes and what is in front to
// the alerts of one update. The board's alerter has already kept only
// what needs the person: waiting, failed, a done that settled (so a turn
// followed at once by another, or a subagent's stop with the main turn
// re-engaging, never gets here) and nothing headless. Every sink — the
// sound, the banner, a webhook — takes the same decisions.
func Decide(alerts []Alert, f AlertFacts, now time.Time) []Decision {
	out := make([]Decision, 0, len(alerts))
	for _, a := range alerts {
		d := Decision{Alert: a}
		switch {
		case f.Muted[a.ID]:
			d.Held = HeldMuted
		case now.Before(f.Snoozed[a.ID]):
			d.Held = HeldSnoozed
		case f.Focused[a.ID]:
			d.Held = HeldFocused
		}
		out = append(out, d)
	}
	return out
}

// Sent returns the alerts of ds that are sent, in order.
func Sent(ds []Decision) []Alert {
	var out []Alert
	for _, d := range ds {
		if d.Held == Send {
			out = append(out, d.Alert)
		}
	}
	return out
}

// Focus is what the platform code reports about the terminal in front of
// the person. The zero value knows nothing and marks nothing focused: an
// unknown focus alerts rather than stays quiet.
type Focus struct {
	// App is the frontmost application's bundle id (macOS), "" when
	// unknown or not on a Mac.
	App string
	// ITermSession is the unique id of iTerm2's current session (the part
	// of ITERM_SESSION_ID after the colon), when iTerm2 is in front.
	ITermSession string
	// TTY is the terminal device of the front tab (Terminal.app reports
	// it for its selected tab; iTerm2 for its current session).
	TTY string
	// Panes are the tmux panes in front: the active pane of each attached
	// client's current window (FrontPanes chooses which clients count).
	Panes []FocusPane
}

// FocusPane is one tmux client's active pane.
type FocusPane struct {
	ServerPid int    // the tmux server's pid, 0 when unknown
	Socket    string // the server's socket path, "" when unknown
	Pane      string // %N
	ClientTTY string // the client's terminal, to match the front tab on a Mac
}

// Bundle ids of the terminals whose front tab Mew can tell.
const (
	BundleITerm2   = "com.googlecode.iterm2"
	BundleTerminal = "com.apple.Terminal"
)

// TmuxClient is one line of `tmux list-clients`: what FrontPanes needs.
type TmuxClient struct {
	Flags     string // #{client_flags}: "attached,focused,UTF-8"
	Pane      string // #{pane_id}: the active pane of the client's current window
	ServerPid int    // #{pid}
	Socket    string // #{socket_path}
	TTY       string // #{client_tty}
}

// FrontPanes picks the panes in front from a server's clients: only
// attached clients of a terminal count; when the server has focus-events
// on, only those whose terminal has focus ("focused"): a client in a
// window behind others is not in front. (Any client that says it has
// focus is believed, whatever the option says now.)
func FrontPanes(clients []TmuxClient, focusEvents bool) []FocusPane {
	var attached, focused []FocusPane
	for _, c := range clients {
		flags := strings.Split(c.Flags, ",")
		// A control-mode client is a program, not a person's terminal.
		if !hasFlag(flags, "attached") || hasFlag(flags, "control-mode") || !termid.ValidTmuxPane(c.Pane) {
			continue
		}
		p := FocusPane{ServerPid: c.ServerPid, Socket: c.Socket, Pane: c.Pane, ClientTTY: c.TTY}
		attached = append(attached, p)
		if hasFlag(flags, "focused") {
			focused = append(focused, p)
		}
	}
	if len(focused) > 0 || focusEvents {
		return focused
	}
	return attached
}

func hasFlag(flags []string, want string) bool {
	for _, f := range flags {
		if f == want {
			return true
		}
	}
	return false
}

// FocusedSessions says which sessions are on the terminal in front, from
// their records (where each runs) and the platform's report.
func FocusedSessions(recs []session.Record, f Focus) map[string]bool {
	out := map[string]bool{}
	for _, r := range recs {
		if focusedOn(r, f) {
			out[r.ID] = true
		}
	}
	return out
}

func focusedOn(r session.Record, f Focus) bool {
	p := recordProcess(r)
	pane, tmux := recordPane(r, p)
	if pane != "" {
		// In tmux the pane decides: the terminal app may be in front
		// while the client shows another window.
		for _, fp := range f.Panes {
			if fp.Pane != pane || !sameServer(fp, tmux) {
				continue
			}
			if f.App == "" {
				return true // no window system report: the attached client is in front
			}
			// On a Mac the client's own tab must be the front one.
			return f.TTY != "" && fp.ClientTTY == f.TTY
		}
		return false
	}
	if p == nil || f.App == "" {
		return false
	}
	switch f.App {
	case BundleITerm2:
		id := termid.ITermSession(p.Env["ITERM_SESSION_ID"])
		return id != "" && id == f.ITermSession
	case BundleTerminal:
		return p.Tty != "" && p.Tty == f.TTY
	}
	// Another terminal in front: its tabs are not known, so only a tty
	// it reported counts.
	return f.TTY != "" && p.Tty == f.TTY
}

func recordProcess(r session.Record) *session.Process {
	if r.Terminal != nil && !r.Terminal.Gone {
		return &r.Terminal.Process
	}
	return r.Process
}

func recordPane(r session.Record, p *session.Process) (string, *session.Tmux) {
	if p != nil && p.Tmux != nil && p.Tmux.Pane != "" {
		return p.Tmux.Pane, p.Tmux
	}
	if r.Screen != nil && r.Screen.Via == "tmux" && r.Screen.Pane != "" {
		return r.Screen.Pane, nil
	}
	return "", nil
}

// sameServer: a pane id is unique only within its tmux server; the server
// pid, else the socket, tells servers apart when both sides know it.
func sameServer(fp FocusPane, t *session.Tmux) bool {
	if t == nil {
		return true // a screen read from the server the focus came from
	}
	if t.ServerPid != 0 && fp.ServerPid != 0 {
		return t.ServerPid == fp.ServerPid
	}
	if t.Socket != "" && fp.Socket != "" {
		return filepath.Clean(t.Socket) == filepath.Clean(fp.Socket)
	}
	return true
}

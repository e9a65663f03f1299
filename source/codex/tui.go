package codex

// Which Codex process shows which session.
//
// Measured on the real Codex 0.169.0 (Linux, default daemon mode): the TUI
// (`codex [prompt]`, on the person's terminal) starts one `codex app-server
// --listen unix:// --managed-daemon` per CODEX_HOME (no terminal; its pid is
// in $CODEX_HOME/app-server-daemon/daemon.pid) and talks to it over a unix
// socket. Every later TUI of the same CODEX_HOME shares that daemon. The
// daemon runs the turns, writes the rollouts, holds each loaded session's
// rollout and thread-writer-locks/<id>.lock open, and runs the hooks as its
// children with its own environment — the first TUI's, so a hook cannot tell
// which terminal its session is on. It outlives the TUIs: a turn goes on
// after its TUI exits, and sessions stay loaded after that. Nothing a TUI
// holds open, nor its log lines, names its session; the session's id is a
// UUIDv7 whose time is when the TUI created it (right after start-up, or
// after the "Hooks need review" dialog; again on /new).
//
// So a session is tied to its TUI by what both know: the working directory
// (the TUI's, or its -C/--cd; the session's from its rollout or hooks) and
// time (the TUI started before the session was created). Within one
// directory, sessions are given to TUIs in order: the first session created
// to the first TUI started (FIFO), each TUI at most one until every TUI has
// one; a session created after that (a /new, or a resume by picker) goes to
// the newest TUI started before it, and a TUI's older sessions count as
// gone (a TUI shows one session). `codex resume <id>` names its session
// outright; `codex resume --last` (and the picker, `codex resume`) takes
// the most recently active session of its folder created before it
// started, however long before. Known limit: the picker's TUI counts as
// showing that session before the person picks one. Known limit: two TUIs started in the same directory within a
// second or two of each other, whose sessions are created in the other
// order, are swapped.

import (
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/procscan"
)

// UI is a Codex process that shows a session on a terminal (the TUI, or
// `codex exec` in a terminal).
type UI struct {
	procscan.Proc
	Dir    string // the session's working directory: -C/--cd, else the process's
	Resume string // the session `codex resume <id>` names
	// Resuming: `codex resume --last` (or `codex resume`, its picker): it
	// continues a session that may be older than the TUI itself.
	Resuming bool
}

// Daemon reports whether p is Codex's app-server daemon.
func Daemon(p procscan.Proc) bool {
	return p.Name == "codex" && slices.Contains(p.Args, "app-server")
}

// subcommands that run no session of their own.
var noSession = []string{
	"login", "logout", "mcp", "plugin", "app-server", "remote-control", "completion", "update",
	"doctor", "sandbox", "debug", "apply", "a", "features", "help", "cloud", "exec-server",
	"archive", "delete", "migrate-rollouts", "migrate-nfs-db", "unarchive", "queue", "agents",
	"mcp-server",
}

// flags that take a value (the value is not the prompt or a subcommand).
var valueFlags = []string{
	"-c", "--config", "-m", "--model", "-C", "--cd", "-p", "--profile", "-s", "--sandbox",
	"-a", "--ask-for-approval", "-i", "--image", "--enable", "--disable", "--remote",
	"--add-dir", "--local-provider", "--output-schema", "-o", "--output-last-message", "--color",
}

// AsUI reads a Codex process as a terminal UI: ok is false for the daemon,
// for subcommands that run no session and for processes with no terminal.
func AsUI(p procscan.Proc) (UI, bool) {
	if p.Name != "codex" || p.Tty == "" || Daemon(p) {
		return UI{}, false
	}
	u := UI{Proc: p, Dir: p.Cwd}
	var positional []string
	for i := 1; i < len(p.Args); i++ {
		a := p.Args[i]
		name, value, hasValue := strings.Cut(a, "=")
		switch {
		case a == "--":
			positional = append(positional, p.Args[i+1:]...)
			i = len(p.Args)
		case slices.Contains(valueFlags, name) && strings.HasPrefix(a, "-"):
			if !hasValue && i+1 < len(p.Args) {
				i++
				value = p.Args[i]
			}
			if name == "-C" || name == "--cd" {
				u.Dir = resolve(p.Cwd, value)
			}
		case strings.HasPrefix(a, "-"):
		default:
			positional = append(positional, a)
		}
	}
	if len(positional) > 0 {
		switch cmd := positional[0]; {
		case slices.Contains(noSession, cmd):
			return UI{}, false
		case cmd == "resume" && len(positional) > 1 && session.ValidID(positional[1]):
			u.Resume = positional[1]
		case cmd == "resume":
			u.Resuming = true
		}
	}
	return u, true
}

func resolve(cwd, dir string) string {
	if dir == "" || filepath.IsAbs(dir) || cwd == "" {
		return filepath.Clean(dir)
	}
	return filepath.Join(cwd, dir)
}

// Session is what the assignment knows of one Codex session.
type Session struct {
	ID      string
	Cwd     string
	Created time.Time
	// Active is when the session last did anything (its rollout's newest
	// event): `codex resume --last` continues the newest of its folder.
	Active time.Time
}

// CreatedFromID is when a session was created, from its UUIDv7 id (the
// first 48 bits are Unix milliseconds); zero for an id that is not one.
func CreatedFromID(id string) time.Time {
	hex := strings.ReplaceAll(id, "-", "")
	if len(hex) != 32 || id[14] != '7' {
		return time.Time{}
	}
	ms, err := strconv.ParseInt(hex[:12], 16, 64)
	if err != nil {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// startSlack absorbs clock rounding between a process start time and a
// session id's time.
const startSlack = 2 * time.Second

// Assign ties sessions to the UIs showing them (see the comment at the top
// of this file). It returns, by session id, the index in uis of its UI;
// sessions without one are absent (their UI is gone, or they never had
// one).
func Assign(sessions []Session, uis []UI) map[string]int {
	out := map[string]int{}
	taken := make([]bool, len(uis))
	rest := make([]Session, 0, len(sessions))
	for _, s := range sessions {
		i := slices.IndexFunc(uis, func(u UI) bool { return u.Resume != "" && u.Resume == s.ID })
		if i >= 0 {
			out[s.ID], taken[i] = i, true
			continue
		}
		rest = append(rest, s)
	}
	// `codex resume --last` continues the newest session of its folder,
	// however old (a session created before the TUI started is no other
	// TUI's then): the one most recently active when the TUI started, or
	// since (its turns are that session's).
	for i, u := range uis {
		if !u.Resuming || taken[i] {
			continue
		}
		pick := -1
		for k, s := range rest {
			if !sameDir(u.Dir, s.Cwd) || !s.Created.Before(time.UnixMilli(u.StartMs).Add(-startSlack)) {
				continue
			}
			if _, other := out[s.ID]; other {
				continue
			}
			if pick < 0 || s.Active.After(rest[pick].Active) {
				pick = k
			}
		}
		if pick >= 0 {
			out[rest[pick].ID], taken[i] = i, true
			rest = slices.Delete(rest, pick, pick+1)
		}
	}
	sort.SliceStable(rest, func(a, b int) bool { return rest[a].Created.Before(rest[b].Created) })
	order := make([]int, len(uis))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return uis[order[a]].StartMs < uis[order[b]].StartMs })
	current := map[int]string{} // UI → its newest session
	for _, s := range rest {
		before := func(u UI) bool {
			return s.Created.IsZero() || !time.UnixMilli(u.StartMs).After(s.Created.Add(startSlack))
		}
		pick := -1
		for _, i := range order { // the first free UI started before it
			if !taken[i] && sameDir(uis[i].Dir, s.Cwd) && before(uis[i]) {
				pick = i
				break
			}
		}
		if pick < 0 { // every UI has a session: the newest started before it
			for _, i := range order {
				if sameDir(uis[i].Dir, s.Cwd) && before(uis[i]) && uis[i].Resume == "" {
					pick = i
				}
			}
		}
		if pick < 0 {
			continue
		}
		if old, ok := current[pick]; ok {
			delete(out, old) // a TUI shows one session: the older one's is gone
		}
		out[s.ID], taken[pick], current[pick] = pick, true, s.ID
	}
	return out
}

func sameDir(a, b string) bool {
	return a != "" && b != "" && filepath.Clean(a) == filepath.Clean(b)
}

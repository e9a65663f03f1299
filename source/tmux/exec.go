// Package tmux reads agents' screens in tmux panes: the screen source for
// sessions that run in tmux, with or without Mew's hooks.
//
// Every command runs as a plain `tmux` process, and one sweep batches all
// its captures into one. Mew never attaches a control-mode client to the
// person's server, because a control client exposes the whole server (and
// every agent in it) to crashes: before tmux 3.7, a session or window
// created while one is connecting crashes it (SIGSEGV in control_write,
// tmux pull request #4980; Mew's clients came and went often enough to do
// it within 50 ms); and with one attached, ordinary commands can still
// crash it in every release so far (tmux issue #5243, fixed after 3.7).
package tmux

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mew-dev/mew/terminal"
	"github.com/mew-dev/mew/terminal/termid"
)

// Runner runs one tmux command and returns its output lines.
type Runner interface {
	Run(ctx context.Context, args ...string) ([]string, error)
}

// commandTimeout bounds one command: tmux answers in milliseconds; a
// stuck server must not stall a sweep (or an answer) forever.
const commandTimeout = 3 * time.Second

// ErrNoServer means no tmux server runs on the socket.
var ErrNoServer = errors.New("no tmux server")

// Exec runs each command as its own `tmux` process. A command that needs
// a server (all of Mew's) never starts one.
type Exec struct {
	Socket string // -S path; "" for tmux's default
}

// Run runs `tmux [-S socket] args…`, tmux by its absolute path
// (terminal.LookPath: an app started from Finder has launchd's PATH, and
// Homebrew's tmux is not on it).
func (e Exec) Run(ctx context.Context, args ...string) ([]string, error) {
	loginTmp := ""
	if e.Socket == "" {
		loginTmp = terminal.KnownLoginTmuxTmpdir()
	}
	// No socket, no server (tmux would only say so): and no lookup of a
	// tmux that may not be installed, which can cost a login shell.
	if !socketExists(e.socketPath(loginTmp)) {
		return nil, ErrNoServer
	}
	tmux, err := terminal.LookPath("tmux")
	if err != nil {
		return nil, fmt.Errorf("tmux: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tmux, socketArgs(e.Socket, args)...)
	if loginTmp != "" {
		// Launched by launchd: the default server's socket is where the
		// person's shell puts it.
		cmd.Env = append(os.Environ(), "TMUX_TMPDIR="+loginTmp)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg := strings.TrimSpace(string(ee.Stderr))
			if notYours(msg) {
				// Else taken for no server ("error connecting to"): the
				// person would see no tmux sessions and no reason.
				return nil, fmt.Errorf("the tmux server at %s is not one this user may use (%s): Mew reads the tmux of the user it runs as; MEW_TMUX_SOCKET names another server", SocketPath(e.Socket), firstLine(msg))
			}
			if noServer(msg) {
				return nil, ErrNoServer
			}
			return nil, fmt.Errorf("tmux %s: %s", args[0], firstLine(msg))
		}
		return nil, err
	}
	return splitLines(string(out)), nil
}

// socketPath is the socket the command goes to: -S, else tmux's default
// (under loginTmp when the login shell's TMUX_TMPDIR is passed on).
func (e Exec) socketPath(loginTmp string) string {
	if e.Socket == "" && loginTmp != "" {
		return filepath.Join(loginTmp, fmt.Sprintf("tmux-%d", os.Getuid()), "default")
	}
	return SocketPath(e.Socket)
}

// socketArgs starts every tmux command line: -u, because without a UTF-8
// locale (an app started by launchd has no LANG) tmux prints a tab in a
// format as "_" and every non-ASCII character of a screen as "_" too, and
// no pane would be read at all.
func socketArgs(socket string, args []string) []string {
	if socket == "" {
		return append([]string{"-u"}, args...)
	}
	return append([]string{"-u", "-S", socket}, args...)
}

// notYours: the socket is another user's (connect is refused), or a
// server refuses this user (tmux 3.3's server-access).
func notYours(msg string) bool {
	return strings.Contains(msg, "Permission denied") || strings.Contains(msg, "access not allowed")
}

func noServer(msg string) bool {
	return strings.Contains(msg, "no server running") || strings.Contains(msg, "error connecting to") ||
		strings.Contains(msg, "No such file or directory") ||
		strings.Contains(msg, "server exited unexpectedly") // it went while we asked (killed)
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// maxCommandBytes bounds the arguments of one batched tmux command: the
// client sends a command list to the server as one message of at most
// 16 KiB ("command too long" past it, about 180 captures), so a sweep's
// captures are cut into lists of half that.
const maxCommandBytes = 8 << 10

// UnreadPanes is a sweep's panes whose screens could not be read (the
// others were): each is listed with its last state, and said.
type UnreadPanes struct {
	IDs []string
	Err error // the first reason
}

func (u *UnreadPanes) Error() string {
	return fmt.Sprintf("could not read %d panes (%s): %v", len(u.IDs), strings.Join(u.IDs, " "), u.Err)
}

func (u *UnreadPanes) Unwrap() error { return u.Err }

// captureAll captures the visible rows of several panes with few `tmux`
// processes: the captures run as command lists (each under
// maxCommandBytes), each capture followed by a line no pane can show (a
// fresh random mark), and the output is cut there. A pane that went since
// it was listed fails its list; then each pane of that list is captured on
// its own and the gone one left out. The panes that could not be read
// otherwise (a failing server, no time left) are returned as *UnreadPanes.
func captureAll(ctx context.Context, r Runner, ids []string) (map[string][]string, error) {
	out := make(map[string][]string, len(ids))
	var valid []string
	for _, id := range ids {
		if termid.ValidTmuxPane(id) {
			valid = append(valid, id)
		}
	}
	var nonce [16]byte
	rand.Read(nonce[:])
	mark := "mew-capture-" + hex.EncodeToString(nonce[:])
	unread := &UnreadPanes{}
	for len(valid) > 0 {
		var args []string
		size, n := 0, 0
		for _, id := range valid {
			pane := []string{"capture-pane", "-p", "-t", id, ";", "display-message", "-p", mark, ";"}
			b := 0
			for _, a := range pane {
				b += len(a) + 1
			}
			if n > 0 && size+b > maxCommandBytes {
				break
			}
			args, size, n = append(args, pane...), size+b, n+1
		}
		chunk := valid[:n]
		valid = valid[n:]
		captureChunk(ctx, r, chunk, args[:len(args)-1], mark, out, unread)
	}
	if len(unread.IDs) > 0 {
		return out, unread
	}
	return out, nil
}

// captureChunk captures panes with one command list (args), else one by
// one, into out; the panes it could not read go to unread.
func captureChunk(ctx context.Context, r Runner, panes, args []string, mark string, out map[string][]string, unread *UnreadPanes) {
	fail := func(id string, err error) {
		if unread.Err == nil {
			unread.Err = err
		}
		unread.IDs = append(unread.IDs, id)
	}
	lines, err := r.Run(ctx, args...)
	if err == nil {
		got := make(map[string][]string, len(panes))
		i := 0
		var rows []string
		for _, l := range lines {
			if l != mark {
				rows = append(rows, l)
				continue
			}
			if i < len(panes) {
				got[panes[i]] = rows
			}
			i, rows = i+1, nil
		}
		if i == len(panes) {
			maps.Copy(out, got)
			return
		}
		err = fmt.Errorf("tmux capture-pane: %d of %d screens in its output", i, len(panes))
	}
	for _, id := range panes {
		if errors.Is(err, ErrNoServer) || ctx.Err() != nil {
			fail(id, cmp.Or(ctx.Err(), err))
			continue
		}
		var rows []string
		if rows, err = Capture(ctx, r, id); err == nil {
			out[id] = rows
		} else if !paneGone(err) {
			fail(id, err)
		}
	}
}

// paneGone reports the error of a pane that closed since it was listed:
// no screen to read, nothing to say.
func paneGone(err error) bool {
	return strings.Contains(err.Error(), "can't find pane") || strings.Contains(err.Error(), "can't find window")
}

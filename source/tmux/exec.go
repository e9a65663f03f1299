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
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/mew-dev/mew/terminal"
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

// Run runs `tmux [-S socket] args…`.
func (e Exec) Run(ctx context.Context, args ...string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", socketArgs(e.Socket, args)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg := strings.TrimSpace(string(ee.Stderr))
			if noServer(msg) {
				return nil, ErrNoServer
			}
			return nil, fmt.Errorf("tmux %s: %s", args[0], firstLine(msg))
		}
		return nil, err
	}
	return splitLines(string(out)), nil
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

// captureAll captures the visible rows of several panes with one `tmux`
// process: the captures run as one command list, each followed by a line
// no pane can show (a fresh random mark), and the output is cut there. A
// pane that went since it was listed fails the list; then each pane is
// captured on its own and the gone one left out.
func captureAll(ctx context.Context, r Runner, ids []string) map[string][]string {
	out := make(map[string][]string, len(ids))
	var valid []string
	for _, id := range ids {
		if terminal.ValidTmuxPane(id) {
			valid = append(valid, id)
		}
	}
	if len(valid) == 0 {
		return out
	}
	var nonce [16]byte
	rand.Read(nonce[:])
	mark := "mew-capture-" + hex.EncodeToString(nonce[:])
	var args []string
	for i, id := range valid {
		if i > 0 {
			args = append(args, ";")
		}
		args = append(args, "capture-pane", "-p", "-t", id, ";", "display-message", "-p", mark)
	}
	lines, err := r.Run(ctx, args...)
	if err == nil {
		i := 0
		var rows []string
		for _, l := range lines {
			if l != mark {
				rows = append(rows, l)
				continue
			}
			if i < len(valid) {
				out[valid[i]] = rows
			}
			i, rows = i+1, nil
		}
		if i == len(valid) {
			return out
		}
		clear(out)
	}
	if errors.Is(err, ErrNoServer) || ctx.Err() != nil {
		return out
	}
	for _, id := range valid {
		if rows, err := Capture(ctx, r, id); err == nil {
			out[id] = rows
		}
	}
	return out
}

// Package tmux reads agents' screens in tmux panes: the screen source for
// sessions that run in tmux, with or without Mew's hooks.
//
// One persistent control-mode client (`tmux -C`) runs every command: a
// capture costs ~0.04 ms through it, where a `tmux` process per capture
// costs a fork and exec. The client sits in a session of its own (so it
// never resizes the person's windows) that tmux destroys as soon as the
// client goes, and Mew leaves the server alone when nothing else is in it.
package tmux

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Runner runs one tmux command and returns its output lines.
type Runner interface {
	Run(ctx context.Context, args ...string) ([]string, error)
}

// ErrNoServer means no tmux server runs on the socket.
var ErrNoServer = errors.New("no tmux server")

// Exec runs each command as its own `tmux` process: for one-shot reads
// (`mew status`) and for checking that a server runs before a control
// client attaches (a control client would start one).
type Exec struct {
	Socket string // -S path; "" for tmux's default
}

// Run runs `tmux [-S socket] args…`.
func (e Exec) Run(ctx context.Context, args ...string) ([]string, error) {
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
		strings.Contains(msg, "No such file or directory")
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

// Control is a control-mode client. Commands run one at a time; tmux
// answers them in order, each in a %begin … %end (or %error) block.
type Control struct {
	Session string // the client's own session

	cmd   *exec.Cmd
	stdin io.WriteCloser
	mu    sync.Mutex // one command at a time
	reply chan block
	done  chan struct{}
	err   error // why the client ended, once done is closed
	quit  chan struct{}
	close sync.Once
}

type block struct {
	lines []string
	err   bool
}

// commandTimeout bounds one command: tmux answers in well under a
// millisecond; a stuck server must not stall the sweep forever.
const commandTimeout = 3 * time.Second

// StartControl attaches a control client to a new session of its own on
// the server at socket. It does not start a server: ErrNoServer when none
// runs.
func StartControl(ctx context.Context, socket string) (*Control, error) {
	return StartControlAs(ctx, socket, "monitor")
}

// StartControlAs is StartControl for another part of Mew (role names the
// session, mew-<role>-<pid>: one process may run two clients).
func StartControlAs(ctx context.Context, socket, role string) (*Control, error) {
	if _, err := (Exec{Socket: socket}).Run(ctx, "list-sessions", "-F", "#{session_id}"); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("mew-%s-%d", role, os.Getpid())
	// The session's only pane waits on its terminal and prints nothing;
	// tmux runs the command with sh -c.
	args := socketArgs(socket, []string{"-C", "new-session", "-s", name, "-x", "80", "-y", "24", "cat"})
	cmd := exec.Command("tmux", args...)
	// No controlling terminal and nothing on the person's: a tmux client
	// started from a pane would otherwise share (and set up) its terminal.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &Control{Session: name, cmd: cmd, stdin: stdin, reply: make(chan block, 1), done: make(chan struct{}), quit: make(chan struct{})}
	go c.read(stdout)
	// The first block answers the new-session on the command line.
	if _, err := c.wait(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("starting the tmux control client: %w", err)
	}
	// The session goes with the client; the client never gets pane output
	// it does not ask for (tmux 3.2+; older servers refuse the flag).
	if _, err := c.Run(ctx, "set-option", "-t", name, "destroy-unattached", "on"); err != nil {
		c.Close()
		return nil, err
	}
	c.Run(ctx, "refresh-client", "-f", "no-output")
	return c, nil
}

// read splits the client's output into command replies; notifications
// (%output, %window-add, …) outside a block are dropped.
func (c *Control) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var cur *block
	var tag string // "<time> <number>" of the open block
	for sc.Scan() {
		line := sc.Text()
		if cur == nil {
			if rest, ok := strings.CutPrefix(line, "%begin "); ok {
				cur, tag = &block{}, blockTag(rest)
			}
			continue
		}
		// A pane's text may hold a line that looks like %end: the real one
		// repeats the number of its %begin.
		if rest, ok := strings.CutPrefix(line, "%end "); ok && blockTag(rest) == tag {
			c.deliver(*cur)
			cur = nil
			continue
		}
		if rest, ok := strings.CutPrefix(line, "%error "); ok && blockTag(rest) == tag {
			cur.err = true
			c.deliver(*cur)
			cur = nil
			continue
		}
		cur.lines = append(cur.lines, line)
	}
	c.err = sc.Err()
	if c.err == nil {
		c.err = errors.New("the tmux control client ended")
	}
	close(c.done)
}

// deliver hands a reply to the waiting command; after Close nobody waits.
func (c *Control) deliver(b block) {
	select {
	case c.reply <- b:
	case <-c.quit:
	}
}

// blockTag is "<time> <command number>" of a %begin/%end/%error line.
func blockTag(rest string) string {
	f := strings.Fields(rest)
	if len(f) < 2 {
		return rest
	}
	return f[0] + " " + f[1]
}

func (c *Control) wait(ctx context.Context) ([]string, error) {
	timer := time.NewTimer(commandTimeout)
	defer timer.Stop()
	select {
	case b := <-c.reply:
		if b.err {
			return nil, fmt.Errorf("tmux: %s", firstLine(strings.Join(b.lines, "\n")))
		}
		return b.lines, nil
	case <-c.done:
		return nil, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-timer.C:
		c.Close() // replies would be out of step from here on
		return nil, errors.New("tmux did not answer in time")
	}
}

// Run sends one command. Arguments are quoted for tmux's parser; callers
// pass only values they checked (pane ids, fixed formats).
func (c *Control) Run(ctx context.Context, args ...string) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	select {
	case <-c.done:
		return nil, c.err
	default:
	}
	line := make([]string, len(args))
	for i, a := range args {
		line[i] = quote(a)
	}
	if _, err := io.WriteString(c.stdin, strings.Join(line, " ")+"\n"); err != nil {
		return nil, err
	}
	return c.wait(ctx)
}

// Done is closed when the client has ended.
func (c *Control) Done() <-chan struct{} { return c.done }

// Close detaches the client; tmux then destroys its session.
func (c *Control) Close() {
	c.close.Do(func() {
		close(c.quit)
		c.stdin.Close()
		select {
		case <-c.done:
		case <-time.After(time.Second):
			c.cmd.Process.Kill()
			<-c.done
		}
		c.cmd.Wait()
	})
}

// quote makes a for tmux's command parser: single quotes, with ' itself
// written as '\”. Newlines never reach here (callers check their values).
func quote(a string) string {
	if a != "" && strings.IndexFunc(a, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_%@$:./=", r))
	}) < 0 {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// validPane reports whether s is a tmux pane id (%N).
func validPane(s string) bool {
	if len(s) < 2 || len(s) > 12 || s[0] != '%' {
		return false
	}
	_, err := strconv.ParseUint(s[1:], 10, 32)
	return err == nil
}

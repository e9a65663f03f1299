package driver

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Tmux is one private tmux server (its own socket file), holding one pane.
// Every call is an argument vector; nothing goes through a shell except the
// pipe-pane command, whose only variable part is checked by shellQuote.
type Tmux struct {
	Socket string    // socket path (tmux -S)
	Env    []string  // environment of the server, hence of the pane
	Target string    // the pane, e.g. "%0"
	ctl    *control  // set by Control
	job    *shellJob // the CLI typed into the pane's shell; nil when it runs directly
}

// tmuxConf keeps a dead pane readable (/exit, crashes) and its scrollback
// small; it replaces the person's ~/.tmux.conf.
const tmuxConf = "set -g remain-on-exit on\nset -g history-limit 2000\nset -g status off\n"

// ErrNoTmux means tmux is not on PATH; tests skip on it.
var ErrNoTmux = errors.New("tmux is not installed")

// LookTmux finds tmux.
func LookTmux() (string, error) {
	p, err := exec.LookPath("tmux")
	if err != nil {
		return "", ErrNoTmux
	}
	return p, nil
}

func (t *Tmux) command(args ...string) *exec.Cmd {
	c := exec.Command("tmux", append([]string{"-S", t.Socket}, args...)...)
	c.Env = t.Env
	return c
}

func (t *Tmux) run(args ...string) (string, error) {
	var stderr bytes.Buffer
	c := t.command(args...)
	c.Stderr = &stderr
	out, err := c.Output()
	if err != nil {
		return "", fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// StartTmux starts a server whose single pane runs hold (a placeholder that
// waits), cols×rows big, in dir. Call Respawn to run the real program, after
// PipeTo when the raw output is wanted from its first byte.
func StartTmux(dir, socket string, env []string, cols, rows int) (*Tmux, error) {
	conf := filepath.Join(filepath.Dir(socket), "tmux.conf")
	if err := os.WriteFile(conf, []byte(tmuxConf), 0o600); err != nil {
		return nil, err
	}
	t := &Tmux{Socket: socket, Env: env}
	out, err := t.run("-f", conf, "new-session", "-d", "-P", "-F", "#{pane_id}", "-s", "mew-e2e",
		"-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), "-c", dir, "--", "cat")
	if err != nil {
		return nil, err
	}
	t.Target = strings.TrimSpace(out)
	if !strings.HasPrefix(t.Target, "%") {
		t.Kill()
		return nil, fmt.Errorf("tmux new-session printed %q, not a pane id", out)
	}
	return t, nil
}

// Respawn replaces the pane's program with argv (run directly, no shell).
func (t *Tmux) Respawn(dir string, argv ...string) error {
	_, err := t.run(append([]string{"respawn-pane", "-k", "-t", t.Target, "-c", dir, "--"}, argv...)...)
	return err
}

// PipeTo appends everything the pane's program writes to file.
func (t *Tmux) PipeTo(file string) error {
	q, err := shellQuote(file)
	if err != nil {
		return err
	}
	_, err = t.run("pipe-pane", "-o", "-t", t.Target, "cat >> "+q)
	return err
}

// shellQuote single-quotes a path for tmux's pipe-pane shell. Only plain
// paths are accepted: anything unusual is refused rather than escaped.
func shellQuote(p string) (string, error) {
	for _, r := range p {
		ok := r == '/' || r == '.' || r == '-' || r == '_' || r == '+' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		if !ok {
			return "", fmt.Errorf("path %q has characters not allowed in a pipe-pane command", p)
		}
	}
	return "'" + p + "'", nil
}

// Keys sends tmux key names (Enter, Escape, BTab, Down…).
func (t *Tmux) Keys(keys ...string) error {
	_, err := t.run(append([]string{"send-keys", "-t", t.Target}, keys...)...)
	return err
}

// Type sends text literally, as typed characters.
func (t *Tmux) Type(text string) error {
	_, err := t.run("send-keys", "-t", t.Target, "-l", text)
	return err
}

// Capture returns the visible screen as plain text.
func (t *Tmux) Capture() (string, error) {
	if t.ctl != nil {
		return t.ctl.run("capture-pane -p -t " + t.Target)
	}
	return t.run("capture-pane", "-p", "-t", t.Target)
}

// PaneState is the pane's program and whether it has exited. When the CLI
// was typed into the pane's shell, the program is that job: Pid is the
// job's, and Dead means the shell is back in the foreground (the CLI
// exited); ExitStatus is then unknown (0).
type PaneState struct {
	Pid        int
	Dead       bool
	ExitStatus int
}

// Pane reports the pane's program pid and whether it is dead.
func (t *Tmux) Pane() (PaneState, error) {
	out, err := t.run("display-message", "-p", "-t", t.Target, "#{pane_pid} #{pane_dead} #{pane_dead_status}")
	if err != nil {
		return PaneState{}, err
	}
	f := strings.Fields(out)
	if len(f) < 2 {
		return PaneState{}, fmt.Errorf("tmux display-message printed %q", out)
	}
	var st PaneState
	st.Pid, _ = strconv.Atoi(f[0])
	st.Dead = f[1] == "1"
	if len(f) > 2 {
		st.ExitStatus, _ = strconv.Atoi(f[2])
	}
	if j := t.job; j != nil && !st.Dead {
		if pid := int(j.job.Load()); pid > 0 {
			st.Pid = pid
		}
		st.Dead = j.back()
	}
	return st, nil
}

// Kill ends the server and with it the pane's program (SIGHUP).
func (t *Tmux) Kill() error {
	_, err := t.run("kill-server")
	if t.ctl != nil {
		t.ctl.close()
		t.ctl = nil
	}
	return err
}

// control is a tmux control-mode client (tmux -C): one long-lived process
// that runs commands sent on its stdin. Captures go through it so sampling
// the screen many times a second does not start a process each time (on a
// two-core machine running eight CLIs that matters).
type control struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
	mu    sync.Mutex
}

// Control attaches a control-mode client without pane output (no-output):
// only the replies to its own commands come back.
func (t *Tmux) Control() error {
	c := t.command("-C", "attach-session", "-f", "no-output,read-only", "-t", t.Target)
	stdin, err := c.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := c.StdoutPipe()
	if err != nil {
		return err
	}
	if err := c.Start(); err != nil {
		return err
	}
	ctl := &control{cmd: c, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<16)}
	// The attach answers with a block of its own first.
	for {
		l, err := ctl.out.ReadString('\n')
		if err != nil {
			ctl.close()
			return fmt.Errorf("tmux control client: %w", err)
		}
		if strings.HasPrefix(l, "%error ") {
			ctl.close()
			return fmt.Errorf("tmux control client: attach failed")
		}
		if strings.HasPrefix(l, "%end ") {
			break
		}
	}
	t.ctl = ctl
	return nil
}

// run sends one command line and returns its output block. Lines outside a
// %begin/%end block are notifications and are skipped.
func (c *control) run(line string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		return "", err
	}
	var b strings.Builder
	in := false
	for {
		l, err := c.out.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("tmux control client: %w", err)
		}
		l = strings.TrimSuffix(l, "\n")
		switch {
		case !in && strings.HasPrefix(l, "%begin "):
			in = true
		case in && (strings.HasPrefix(l, "%end ") || strings.HasPrefix(l, "%error ")) && len(strings.Fields(l)) == 4:
			if strings.HasPrefix(l, "%error ") {
				return "", fmt.Errorf("tmux %s: %s", line, strings.TrimSpace(b.String()))
			}
			return b.String(), nil
		case in:
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
}

func (c *control) close() {
	c.stdin.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}

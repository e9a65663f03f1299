package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mew-dev/mew/internal/text"
)

// RunFunc runs a command (an ssh argv) and returns its standard output; an
// error says why it failed (ssh's own message when there is one). The
// actions on a remote (install.DoctorRemotes, answer.OnRemote) run through
// one, so tests can stand in for the host.
type RunFunc func(ctx context.Context, argv []string) (string, error)

// DoctorTimeout bounds the checks of one remote (install.DoctorRemotes);
// RunSSH names it when the host does not answer in time.
const DoctorTimeout = 20 * time.Second

// RunSSH runs argv, as `mew doctor` does for each remote.
func RunSSH(ctx context.Context, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out bytes.Buffer
	var tail stderrTail
	cmd.Stdout, cmd.Stderr = &out, &tail
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return out.String(), fmt.Errorf("no answer within %v", DoctorTimeout)
	}
	return out.String(), explain(err, tail.last())
}

// FeedCommand is what runs on a host: its mew's feed.
func FeedCommand(r Remote) []string {
	return []string{r.MewCommand(), "status", "--watch", "--json", FeedFlag}
}

// FindSSH is the person's ssh: the one on PATH.
func FindSSH() (string, error) {
	p, err := exec.LookPath("ssh")
	if err != nil {
		return "", errors.New("ssh is not on the PATH; Mew uses the system's ssh to reach remotes")
	}
	return p, nil
}

// DialSSH returns a Dial that runs the feed over the ssh at sshPath.
func DialSSH(sshPath string) func(ctx context.Context, r Remote) (Conn, error) {
	return func(ctx context.Context, r Remote) (Conn, error) {
		argv, err := r.SSHArgv(sshPath, FeedCommand(r)...)
		if err != nil {
			return Conn{}, err
		}
		return Start(argv)
	}
}

// Start runs argv (an ssh command) with its standard output as the
// connection. It runs in its own process group: a Ctrl-C meant for `mew
// status --watch` in a terminal reaches Mew, which then ends ssh itself.
func Start(argv []string) (Conn, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return Conn{}, err
	}
	var tail stderrTail
	cmd.Stderr = &tail
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return Conn{}, fmt.Errorf("cannot start ssh: %w", err)
	}
	var once sync.Once
	var waitErr error
	waited := make(chan struct{})
	wait := func() error {
		once.Do(func() {
			waitErr = explain(cmd.Wait(), tail.last())
			close(waited)
		})
		<-waited
		return waitErr
	}
	stop := func() {
		select {
		case <-waited:
			return // reaped: the pid may be another process's now
		default:
		}
		// SIGTERM: ssh closes the channel and exits at once. The group,
		// in case a ProxyJump or ProxyCommand of ~/.ssh/config runs below.
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
	}
	return Conn{Out: out, Close: stop, Wait: wait}, nil
}

// explain turns how ssh ended into what the person should know.
func explain(err error, stderr string) error {
	if err == nil {
		return nil
	}
	var ee *exec.ExitError
	code := -1
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	switch {
	case code == 127 || strings.Contains(stderr, "command not found"):
		return fmt.Errorf("mew is not on the PATH there (install it, or give its path with `mew remote add … --mew PATH`): %s", stderr)
	case strings.Contains(stderr, "flag provided but not defined"):
		return errors.New("the mew there is older and has no --feed: install the same Mew there")
	case stderr != "":
		return errors.New(stderr)
	case code == 255:
		return errors.New("ssh could not connect")
	case code < 0:
		return errors.New("ssh was stopped")
	}
	return fmt.Errorf("the host's mew exited with status %d", code)
}

// stderrTail keeps the last non-empty line ssh wrote to its standard error.
type stderrTail struct {
	mu   sync.Mutex
	buf  []byte
	line string
}

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	for {
		i := strings.IndexByte(string(t.buf), '\n')
		if i < 0 {
			break
		}
		if l := strings.TrimSpace(string(t.buf[:i])); l != "" {
			t.line = l
		}
		t.buf = t.buf[i+1:]
	}
	if len(t.buf) > 4096 {
		t.buf = t.buf[len(t.buf)-4096:]
	}
	return len(p), nil
}

func (t *stderrTail) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if l := strings.TrimSpace(string(t.buf)); l != "" {
		return text.OneLine(l, 80)
	}
	return text.OneLine(t.line, 80)
}

// ForHome is a hub for the remotes `mew remote add` configured in mewHome,
// dialing with the system's ssh and keeping its cache there; nil when
// there are none. Run it (or Once) before reading it.
func ForHome(mewHome string) (*Hub, error) {
	cfg, err := Load(mewHome)
	if err != nil || len(cfg.Remotes) == 0 {
		return nil, err
	}
	ssh, sshErr := FindSSH()
	dial := DialSSH(ssh)
	if sshErr != nil {
		dial = func(context.Context, Remote) (Conn, error) { return Conn{}, sshErr }
	}
	return New(Options{Remotes: cfg.Remotes, Dial: dial, CacheDir: CacheDir(mewHome)}), nil
}

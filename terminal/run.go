package terminal

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mew-dev/mew/internal/text"
)

// OsascriptPath is macOS's osascript, by its absolute path so the app's
// minimal PATH cannot substitute another program.
const OsascriptPath = "/usr/bin/osascript"

// maxOutput bounds what RunProcess keeps of a command's output.
const maxOutput = 64 << 10

// RunProcess runs argv (no shell) with stdin and env added to Mew's, and
// returns its output (the first maxOutput bytes); the error names the
// program and the first line of what it said. A process that outlives ctx
// is killed with its whole process group, and ctx's error is returned.
func RunProcess(ctx context.Context, argv []string, stdin string, env []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr capped
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		return stdout.String(), ctx.Err()
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg != "" {
			return stdout.String(), fmt.Errorf("%s: %v: %s", filepath.Base(argv[0]), err, text.Clip(msg, 81))
		}
		return stdout.String(), fmt.Errorf("%s: %v", filepath.Base(argv[0]), err)
	}
	return stdout.String(), nil
}

// capped keeps the first maxOutput bytes written to it.
type capped struct{ b []byte }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - len(c.b); room > 0 {
		if len(p) > room {
			c.b = append(c.b, p[:room]...)
		} else {
			c.b = append(c.b, p...)
		}
	}
	return len(p), nil
}

func (c *capped) String() string { return string(c.b) }

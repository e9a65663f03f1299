package terminal

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/mew-dev/mew/internal/text"
)

// OsascriptPath is macOS's osascript, by its absolute path so the app's
// minimal PATH cannot substitute another program.
const OsascriptPath = "/usr/bin/osascript"

// What RunProcess keeps of a command's output: its first headOutput
// bytes and its last tailOutput bytes. The tail, because what matters of
// a long output is at its end: iTerm2's `contents` is the whole scrollback,
// oldest first, with the screen (the prompt) last; the head, because the
// first lines are what a script says about itself ("ok", a title).
const (
	headOutput = 4 << 10
	tailOutput = 60 << 10
)

// RunProcess runs argv (no shell) with stdin and env added to Mew's, and
// returns its output (capped: the first and last bytes); the error names the
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
		if msg := ClipError(stderr.String()); msg != "" {
			return stdout.String(), fmt.Errorf("%s: %v: %s", filepath.Base(argv[0]), err, msg)
		}
		return stdout.String(), fmt.Errorf("%s: %v", filepath.Base(argv[0]), err)
	}
	return stdout.String(), nil
}

// errorCode is an error number as osascript ends its message with, e.g.
// "(-1743)".
var errorCode = regexp.MustCompile(`\((-[0-9]{1,6})\)`)

// ClipError is the first line of what a program said, clipped, with the
// error number the whole text carries kept: the messages act on it
// (-1743: the tccutil advice), and Terminal's English line alone is 82
// characters, a localized one longer, so clipping first cut it off.
func ClipError(stderr string) string {
	whole := strings.TrimSpace(stderr)
	msg := whole
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg == "" {
		return ""
	}
	msg = text.Clip(msg, 81)
	if m := errorCode.FindStringSubmatch(whole); m != nil && !strings.Contains(msg, m[1]) {
		msg += " (" + m[1] + ")"
	}
	return msg
}

// capped keeps the first headOutput and the last tailOutput bytes written
// to it (the middle of a longer output is dropped), in bounded memory.
type capped struct {
	head []byte
	tail []byte // a ring of tailOutput bytes once full; next is its start
	next int
}

func (c *capped) Write(p []byte) (int, error) {
	n := len(p)
	if room := headOutput - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) >= tailOutput {
		c.tail = append(c.tail[:0], p[len(p)-tailOutput:]...)
		c.next = 0
		return n, nil
	}
	for len(p) > 0 {
		if len(c.tail) < tailOutput {
			k := min(tailOutput-len(c.tail), len(p))
			c.tail = append(c.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := copy(c.tail[c.next:], p)
		c.next = (c.next + k) % tailOutput
		p = p[k:]
	}
	return n, nil
}

func (c *capped) String() string {
	return string(c.head) + string(c.tail[c.next:]) + string(c.tail[:c.next])
}

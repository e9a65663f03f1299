package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mew-dev/mew/terminal"
)

// commandTimeout bounds a subcommand run from the menu: `mew doctor` asks
// `claude --version`, which may hang.
const commandTimeout = 30 * time.Second

// maxCommandOutput bounds what a dialog shows of a command's output.
const (
	maxCommandOutput = 64 << 10
	dialogLines      = 40
)

// runCommand runs an argument vector (no shell) with its output
// collected, bounded by ctx.
func runCommand(ctx context.Context, argv []string) (string, error) {
	if len(argv) == 0 || !filepath.IsAbs(argv[0]) {
		return "", errors.New("the program must be an absolute path")
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var out limitedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Stdin = nil
	cmd.WaitDelay = time.Second // a child that keeps the pipes open
	err := cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("no answer within the time limit: %w", ctx.Err())
	}
	return out.String(), err
}

// limitedBuffer keeps the first maxCommandOutput bytes written to it.
type limitedBuffer struct{ b bytes.Buffer }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := maxCommandOutput - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return l.b.String() }

// selfCommand is a menu item that runs one of mew's own subcommands.
type selfCommand struct {
	Name string   // for the dialog's title
	Args []string // after the executable
}

// The menu's commands: the same text as in a terminal.
var (
	installCommand = selfCommand{Name: "Install Hooks", Args: []string{"install"}}
	doctorCommand  = selfCommand{Name: "Doctor", Args: []string{"doctor"}}
)

// runSelf runs exe (this mew) with c's arguments and returns the dialog
// that reports it. It blocks: call it off the main thread.
func runSelf(ctx context.Context, exe string, c selfCommand) dialog {
	ctx, cancel := context.WithTimeout(ctx, commandTimeout)
	defer cancel()
	out, err := runCommand(ctx, append([]string{exe}, c.Args...))
	return commandDialog(c, out, err)
}

// commandDialog words a command's outcome.
func commandDialog(c selfCommand, out string, err error) dialog {
	text := clipLines(strings.TrimSpace(out), dialogLines, "mew "+strings.Join(c.Args, " "))
	var exit *exec.ExitError
	switch {
	case err == nil:
		if text == "" {
			text = "Done."
		}
		return dialog{Title: c.Name, Text: text}
	case errors.As(err, &exit) && exit.Exited():
		if text == "" {
			text = fmt.Sprintf("mew %s failed with status %d.", strings.Join(c.Args, " "), exit.ExitCode())
		}
		return dialog{Title: c.Name + ": problems found", Text: text, Failed: true}
	}
	msg := fmt.Sprintf("Could not run mew %s: %v", strings.Join(c.Args, " "), err)
	if text != "" {
		msg += "\n\n" + text
	}
	return dialog{Title: c.Name + " failed", Text: msg, Failed: true}
}

// clipLines keeps the first n lines of s, saying how many were left out
// and which command shows them all.
func clipLines(s string, n int, command string) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= n {
		return s
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… %d more lines (run `%s` in a terminal to see all)", len(lines)-n, command)
}

// executable is this program's path with symlinks resolved.
func executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(exe)
}

// foundProgramsLine says which tmux and agents' CLIs this process found,
// and where (terminal.LookPath), for the log.
func foundProgramsLine() string {
	var parts []string
	for _, name := range []string{"tmux", "claude", "codex"} {
		p, err := terminal.LookPath(name)
		if err != nil {
			p = "not found"
		}
		parts = append(parts, name+": "+p)
	}
	return strings.Join(parts, ", ")
}

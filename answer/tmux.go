package answer

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/source/tmux"
	"github.com/mew-dev/mew/terminal/termid"
)

// TmuxTerminal is a tmux pane: read with capture-pane (the visible rows,
// no scrollback) and its title, typed into with send-keys, one tmux
// process per command (tmux.Exec; never a control-mode client: see package
// tmux).
type TmuxTerminal struct {
	Runner tmux.Runner
	Pane   string // %N, checked by NewTmuxTerminal
	// Procs reads the process table of the tmux server's machine: a pane
	// whose foreground job is a shell holds no agent, whatever its rows
	// say (text a person printed is no prompt). Nil: not checked.
	Procs tmux.Procs
}

// NewTmuxTerminal checks the pane id; the pane's foreground job is read
// from this machine's process table.
func NewTmuxTerminal(r tmux.Runner, pane string) (*TmuxTerminal, error) {
	if !termid.ValidTmuxPane(pane) {
		return nil, fmt.Errorf("%q is not a tmux pane id", pane)
	}
	return &TmuxTerminal{Runner: r, Pane: pane, Procs: tmux.LocalProcs{}}, nil
}

// Read implements Terminal.
func (t *TmuxTerminal) Read(ctx context.Context) (rules.Frame, error) {
	info, err := t.Runner.Run(ctx, "display-message", "-p", "-t", t.Pane, "#{pane_pid}\t#{pane_title}")
	if err != nil {
		return rules.Frame{}, err
	}
	pid, title, _ := strings.Cut(strings.Join(info, "\n"), "\t")
	if t.Procs != nil {
		if err := t.agentInFront(pid); err != nil {
			return rules.Frame{}, err
		}
	}
	rows, err := tmux.Capture(ctx, t.Runner, t.Pane)
	if err != nil {
		return rules.Frame{}, err
	}
	return rules.Frame{Rows: rows, Title: title}, nil
}

// agentInFront fails when the pane's foreground job is a shell.
func (t *TmuxTerminal) agentInFront(panePid string) error {
	pid, err := strconv.Atoi(panePid)
	if err != nil || pid <= 0 {
		return fmt.Errorf("tmux gave no process for pane %s", t.Pane)
	}
	fg, err := t.Procs.ForegroundGroup(pid)
	if err != nil || fg <= 0 {
		fg = pid
	}
	p, err := t.Procs.Get(fg)
	if err != nil {
		return fmt.Errorf("cannot read the foreground job of pane %s: %v", t.Pane, err)
	}
	if proctree.IsShell(p.Name) {
		// `tmux new-session "claude; …"` runs sh -c, which stays the
		// foreground job with the agent its child (the tmux source lists
		// the pane so): a shell running a command is no person's prompt.
		if argv, err := t.Procs.Cmdline(fg); err == nil && runsCommand(argv) {
			return nil
		}
		return fmt.Errorf("a shell (%s) is in the foreground of pane %s: no agent runs there now", p.Name, t.Pane)
	}
	return nil
}

// runsCommand reports a shell's command line that runs a command string
// (sh -c '…', bash -lc '…') rather than reading a person's commands.
func runsCommand(argv []string) bool {
	for i := 1; i+1 < len(argv); i++ {
		a := argv[i]
		if !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "--") {
			return false // the options end here
		}
		if strings.ContainsRune(a, 'c') {
			return true
		}
	}
	return false
}

// Type implements Terminal (TypeRead without the read).
func (t *TmuxTerminal) Type(ctx context.Context, live Live) error {
	args, err := t.sendKeys(live.Keys)
	if err != nil {
		return err
	}
	_, err = t.Runner.Run(ctx, args...)
	return err
}

// TypeRead implements FrameTyper. One tmux command list reads the title
// and the rows, then sends the keys: the server reads no output of the
// pane between two commands of a list, so the frame returned is the one
// the keys went to (a separate capture, then send-keys, left 4-76 ms for
// the prompt to change under the keys).
func (t *TmuxTerminal) TypeRead(ctx context.Context, live Live) (rules.Frame, error) {
	send, err := t.sendKeys(live.Keys)
	if err != nil {
		return rules.Frame{}, err
	}
	args := append([]string{"display-message", "-p", "-t", t.Pane, "#{pane_title}", ";", "capture-pane", "-p", "-t", t.Pane, ";"}, send...)
	lines, err := t.Runner.Run(ctx, args...)
	if err != nil || len(lines) == 0 {
		// Whether the keys went is unknown: the caller says they may have.
		if err == nil {
			err = fmt.Errorf("tmux gave no screen")
		}
		return rules.Frame{}, err
	}
	return rules.Frame{Title: lines[0], Rows: lines[1:]}, nil
}

// sendKeys is the send-keys commands (a list) that type keys: a
// character with -l (literally, never read as a key name), a name as the
// tmux key of that name (rules.ValidKey's names are tmux's).
func (t *TmuxTerminal) sendKeys(keys []string) ([]string, error) {
	var args []string
	for i, k := range keys {
		if !rules.ValidKey(k) {
			return nil, fmt.Errorf("%q is not a key", k)
		}
		if i > 0 {
			args = append(args, ";")
		}
		if len(k) == 1 {
			args = append(args, "send-keys", "-t", t.Pane, "-l", k)
		} else {
			args = append(args, "send-keys", "-t", t.Pane, k)
		}
	}
	if len(args) == 0 {
		return nil, fmt.Errorf("no keys to type")
	}
	return args, nil
}

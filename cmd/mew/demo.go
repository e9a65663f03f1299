package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/board/tui"
	"github.com/mew-dev/mew/demo"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/source/registry"
)

func init() {
	add(&command{name: "demo", summary: "watch simulated sessions light up the board (no agent needed)", setup: demoFlags})
}

type demoOptions struct {
	once      bool
	speed     float64
	agentHook string
}

func demoFlags(fs *flag.FlagSet) runFunc {
	var o demoOptions
	fs.BoolVar(&o.once, "once", false, "play the script, print the board at each narrated step, and exit")
	fs.Float64Var(&o.speed, "speed", 0, "play the script this many times faster (default 1; 20 with --once)")
	fs.StringVar(&o.agentHook, "agent", "", "internal: be a stand-in agent that runs this mew-hook for each payload line on stdin")
	return func(args []string, stdout, stderr io.Writer) int { return runDemo(o, args, stdout, stderr) }
}

func runDemo(opt demoOptions, args []string, stdout, stderr io.Writer) int {
	once, speed, agentHook := &opt.once, &opt.speed, &opt.agentHook
	if *agentHook != "" {
		if err := demo.Agent(*agentHook, os.Stdin, stdout); err != nil {
			fmt.Fprintf(stderr, "mew demo: stand-in agent: %v\n", err)
			return 1
		}
		return 0
	}
	switch {
	case *speed < 0 || *speed > 1000:
		fmt.Fprintln(stderr, "mew demo: --speed must be between 0 and 1000")
		return 2
	case *speed == 0 && *once:
		*speed = 20
	case *speed == 0:
		*speed = 1
	}
	hook, err := findHook()
	if err != nil {
		return fail(stderr, "mew demo", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return fail(stderr, "mew demo", err)
	}
	dir, err := os.MkdirTemp("", "mew-demo-")
	if err != nil {
		return fail(stderr, "mew demo", err)
	}
	defer os.RemoveAll(dir)
	// The board, the monitor and jumps read these: everything happens in
	// the demo's own scratch directory, never in the person's ~/.mew.
	os.Setenv("MEW_HOME", demo.Home(dir))
	os.Setenv("CLAUDE_CONFIG_DIR", demo.ClaudeDir(dir))
	o, err := monitorOptions()
	if err != nil {
		return fail(stderr, "mew demo", err)
	}
	o.Sources = demoSources()
	d, err := demo.Start(demo.Options{HookPath: hook, AgentArgv: []string{exe, "demo", "--agent", hook}, Dir: dir, Speed: *speed})
	if err != nil {
		return fail(stderr, "mew demo", err)
	}
	defer d.Close()

	// SIGPIPE too (`mew demo --once | head`): end the demo cleanly, so the
	// stand-ins stop and the scratch directory goes.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGPIPE)
	defer stop()
	if *once || !isTerminal(stdout) {
		return playOnce(ctx, d, o, stdout, stderr)
	}
	return runTerminalBoard(ctx, o, "mew demo", stdout, stderr, func(p *tea.Program) {
		d.SetNote(func(s string) { p.Send(tui.NoteMsg(s)) })
		go func() {
			if err := d.Play(ctx); err != nil && !errors.Is(err, context.Canceled) {
				p.Send(tui.NoteMsg("the demo stopped: " + err.Error()))
			}
		}()
	})
}

// demoSources is what the demo reads besides its session files: the
// Claude Code registry of its scratch directory, and nothing of the
// machine (no process scan, no tmux server, no Codex or Copilot logs).
func demoSources() []monitor.Source {
	dir, err := registry.Dir() // $CLAUDE_CONFIG_DIR: the demo's own
	if err != nil {
		return nil
	}
	return []monitor.Source{registry.New(dir)}
}

// lastNote is the script's closing note with the board's own keys, which
// a printed board has not.
const lastNoteOnce = "That's the demo: `mew watch` is the live board (enter jumps to a session, q quits)."

// playOnce plays the script and prints the board after each narrated step.
// The states are printed as soon as they are recorded, without the settle
// time the live boards wait for.
func playOnce(ctx context.Context, d *demo.Demo, o monitor.Options, stdout, stderr io.Writer) int {
	var note string
	d.SetNote(func(s string) { note = s })
	n := 0 // the printed steps, numbered 1, 2, 3…
	d.SetStepped(func(i int, st demo.Step) {
		if st.Note == "" {
			return
		}
		shown := snapshot(o, "demo", stderr)
		if strings.Contains(note, "press Enter") {
			note = lastNoteOnce
		}
		n++
		fmt.Fprintf(stdout, "== step %d: %s\n%s\n\n", n, note, tui.Render(shown, board.Config{ShowQuiet: true}, time.Now(), 120))
	})
	if err := d.Play(ctx); err != nil {
		return fail(stderr, "mew demo", err)
	}
	return 0
}

// findHook finds mew-hook next to this mew (where `make build` and the
// packages put it), else on PATH.
func findHook() (string, error) {
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), "mew-hook")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath("mew-hook"); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs, nil
		}
	}
	return "", errors.New("cannot find mew-hook next to mew or on PATH (`make build` puts both in bin/)")
}

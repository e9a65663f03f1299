package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/store"
)

// Options say how to play the script.
type Options struct {
	// HookPath is the real mew-hook binary.
	HookPath string
	// AgentArgv starts a stand-in agent: a process that runs HookPath once
	// per payload line on its stdin (see Agent). Each simulated session has
	// its own, so each has a live pid for liveness and the registry.
	AgentArgv []string
	// Dir is the demo's scratch directory: MEW_HOME, CLAUDE_CONFIG_DIR and
	// the projects' folders are made inside it.
	Dir string
	// Speed scales time: 1 plays the script in real time, 10 ten times
	// faster.
	Speed float64
	// Note, when set, gets the narration of each step.
	Note func(string)
	// Stepped, when set, is called after each step is recorded.
	Stepped func(i int, st Step)
}

// Home and ClaudeDir are where the demo's state lives inside dir.
func Home(dir string) string      { return filepath.Join(dir, "mew-home") }
func ClaudeDir(dir string) string { return filepath.Join(dir, "claude") }

// Demo is a running demo.
type Demo struct {
	o      Options
	agents map[int]*StandIn // by session index
	start  time.Time
}

// Start prepares the demo's directories. Nothing runs until Play.
func Start(o Options) (*Demo, error) {
	if !filepath.IsAbs(o.HookPath) {
		return nil, fmt.Errorf("the mew-hook path %q is not absolute", o.HookPath)
	}
	if _, err := os.Stat(o.HookPath); err != nil {
		return nil, fmt.Errorf("cannot find mew-hook: %w", err)
	}
	if len(o.AgentArgv) == 0 {
		return nil, errors.New("no command for the stand-in agents")
	}
	if o.Speed <= 0 {
		o.Speed = 1
	}
	for _, d := range []string{Home(o.Dir), filepath.Join(ClaudeDir(o.Dir), "sessions")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	for _, sim := range Sims {
		if err := os.MkdirAll(projectDir(o.Dir, sim), 0o700); err != nil {
			return nil, err
		}
	}
	return &Demo{o: o, agents: map[int]*StandIn{}}, nil
}

func projectDir(dir string, sim Sim) string { return filepath.Join(dir, "src", sim.Project) }

// Play runs the script, sleeping between steps, until it ends or ctx does.
func (d *Demo) Play(ctx context.Context) error {
	d.start = time.Now()
	for i, st := range Script {
		wait := time.Until(d.start.Add(time.Duration(float64(st.At) / d.o.Speed)))
		if wait > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
		}
		if err := d.step(st); err != nil {
			return fmt.Errorf("step %d (%s): %w", i, Sims[st.Session].Project, err)
		}
		if st.Note != "" && d.o.Note != nil {
			d.o.Note(st.Note)
		}
		if d.o.Stepped != nil {
			d.o.Stepped(i, st)
		}
	}
	return nil
}

func (d *Demo) step(st Step) error {
	sim := Sims[st.Session]
	a := d.agents[st.Session]
	if a == nil {
		var err error
		if a, err = d.spawn(); err != nil {
			return err
		}
		d.agents[st.Session] = a
	}
	for _, e := range st.Events {
		payload, err := d.payload(sim, e)
		if err != nil {
			return err
		}
		if err := a.Hook(payload); err != nil {
			return err
		}
	}
	switch st.Registry {
	case "":
	case "gone":
		if err := os.Remove(d.registryPath(a)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		a.Stop() // the session ended: its process goes too
	default:
		if err := d.writeRegistry(sim, a, st.Registry, st.WaitingFor); err != nil {
			return err
		}
	}
	return nil
}

// payload is a hook payload shaped like Claude Code 2.1's.
func (d *Demo) payload(sim Sim, e Event) ([]byte, error) {
	m := map[string]any{
		"session_id":      sim.ID,
		"transcript_path": filepath.Join(d.o.Dir, "transcripts", sim.ID+".jsonl"),
		"cwd":             projectDir(d.o.Dir, sim),
		"hook_event_name": e.Name,
	}
	if e.Name != "SessionStart" && e.Name != "SessionEnd" {
		m["permission_mode"] = "default"
	}
	for k, v := range e.Fields {
		m[k] = v
	}
	return json.Marshal(m)
}

func (d *Demo) registryPath(a *StandIn) string {
	return filepath.Join(ClaudeDir(d.o.Dir), "sessions", strconv.Itoa(a.Pid)+".json")
}

// writeRegistry writes the session's document the way Claude Code keeps
// ~/.claude/sessions/<pid>.json.
func (d *Demo) writeRegistry(sim Sim, a *StandIn, status, waitingFor string) error {
	now := time.Now().UnixMilli()
	doc := map[string]any{
		"pid": a.Pid, "sessionId": sim.ID, "cwd": projectDir(d.o.Dir, sim),
		"startedAt": a.Started.UnixMilli(), "version": "2.1.328", "kind": "interactive", "entrypoint": "cli",
		"name": sim.Project, "nameSource": "derived", "status": status, "updatedAt": now, "statusUpdatedAt": now,
	}
	if waitingFor != "" {
		doc["waitingFor"] = waitingFor
	}
	// Linux's procStart is the start time in clock ticks since boot: what
	// liveness checks a pid against. Elsewhere the start time does.
	if runtime.GOOS == "linux" {
		if p, err := (proctree.Lean{}).Get(a.Pid); err == nil {
			doc["procStart"] = strconv.FormatUint(p.StartTicks, 10)
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return store.WriteFileAtomic(d.registryPath(a), data, 0o600)
}

// spawn starts a stand-in agent for one session.
func (d *Demo) spawn() (*StandIn, error) {
	cmd := exec.Command(d.o.AgentArgv[0], d.o.AgentArgv[1:]...)
	cmd.Env = append(os.Environ(), "MEW_HOME="+Home(d.o.Dir), "CLAUDE_CONFIG_DIR="+ClaudeDir(d.o.Dir))
	cmd.Dir = d.o.Dir
	return StartStandIn(cmd)
}

// SetNote sets the narration callback (before Play).
func (d *Demo) SetNote(f func(string)) { d.o.Note = f }

// SetStepped sets the per-step callback (before Play).
func (d *Demo) SetStepped(f func(int, Step)) { d.o.Stepped = f }

// Close ends every stand-in agent.
func (d *Demo) Close() {
	var wg sync.WaitGroup
	for _, a := range d.agents {
		wg.Add(1)
		go func() { defer wg.Done(); a.Stop() }()
	}
	wg.Wait()
}

// Agent is the stand-in agent's loop: for each line on in (a hook payload)
// it runs hookPath with the line on stdin, as Claude Code runs its hooks,
// and answers "ok" (or the error) on out. It returns when in closes.
func Agent(hookPath string, in io.Reader, out io.Writer) error {
	if !filepath.IsAbs(hookPath) {
		return fmt.Errorf("the mew-hook path %q is not absolute", hookPath)
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		cmd := exec.Command(hookPath)
		cmd.Stdin = bytes.NewReader(sc.Bytes())
		cmd.Env = append(os.Environ(), hookbin.RunEnv) // as `mew install` runs it
		reply := "ok"
		if err := cmd.Run(); err != nil {
			reply = strings.ReplaceAll("mew-hook: "+err.Error(), "\n", " ")
		}
		if _, err := fmt.Fprintln(out, reply); err != nil {
			return err
		}
	}
	return sc.Err()
}

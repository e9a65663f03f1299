package monitor_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/store"
)

// The recorded OpenCode 1.18.33 and Gemini CLI 0.61.0 runs
// (testdata/fixtures, AGENTS-README.md) replayed through the real code
// paths, no CLI needed: every event through mew-hook's Run into a store
// (OpenCode's plugin events as Mew's plugin forwards them, Gemini's hook
// payloads as Gemini sends them), every screen through the embedded rules
// and a screen tracker as the tmux source reads a pane, the agent's process
// in the process table until it exits; `monitor.Snapshot` every 100 ms is
// checked against the state the agent's own events and the keys give.
// Samples within 0.5 s of a change are left out, and those before the
// agent's first event (only the screen knows the session then). Each run is
// replayed with the screen and with the agent's events alone.

const (
	replayAgentPid = 4242 // the agent process (Gemini: the node that runs hooks)
	replayOuterPid = 4241 // Gemini's first node, the pane's foreground process
	replayShellPid = 4300 // the shell Gemini runs a hook command through
	replayHookPid  = 4301
	replayPane     = "%1"
)

type agentRun struct {
	agent, dir string
	t0         float64
	events     []agentEvent
	screens    []agentScreen
	keys       []float64 // seconds after t0
	exited     float64
}

type agentEvent struct {
	at      float64 // seconds after t0
	name    string  // OpenCode: type; Gemini: hook_event_name
	payload []byte  // what reaches mew-hook
	kind    string  // status type, reply, error name or notification type
	session string
}

type agentScreen struct {
	at   float64
	rows []string
}

func TestReplayOpenCodeAndGemini(t *testing.T) {
	for _, agent := range []struct{ name, dir string }{
		{session.AgentOpenCode, "opencode-1.18.33"},
		{session.AgentGemini, "gemini-cli-0.61.0"},
	} {
		runs, _ := filepath.Glob(filepath.Join("..", "testdata", "fixtures", agent.dir, "*", "events.jsonl"))
		if len(runs) == 0 {
			t.Fatalf("no recorded %s runs", agent.name)
		}
		for _, ev := range runs {
			dir := filepath.Dir(ev)
			for _, screens := range []bool{true, false} {
				name := agent.name + "/" + filepath.Base(dir) + "/events+screen"
				if !screens {
					name = agent.name + "/" + filepath.Base(dir) + "/events-only"
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					replayAgent(t, loadAgentRun(t, agent.name, dir), screens)
				})
			}
		}
	}
}

func loadAgentRun(t *testing.T, agent, dir string) agentRun {
	t.Helper()
	r := agentRun{agent: agent, dir: dir}
	var meta struct {
		T0 float64 `json:"t0"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil || json.Unmarshal(b, &meta) != nil {
		t.Fatalf("meta.json: %v", err)
	}
	r.t0 = meta.T0
	cwd := ""
	eachLine(t, filepath.Join(dir, "events.jsonl"), func(line []byte) {
		if agent == session.AgentGemini {
			var l struct {
				T  float64         `json:"t"`
				Ev json.RawMessage `json:"ev"`
			}
			var p struct {
				SessionID string `json:"session_id"`
				Name      string `json:"hook_event_name"`
				Note      string `json:"notification_type"`
			}
			if json.Unmarshal(line, &l) != nil || json.Unmarshal(l.Ev, &p) != nil {
				t.Fatalf("bad line %.80s", line)
			}
			r.events = append(r.events, agentEvent{at: l.T - r.t0, name: p.Name, payload: l.Ev, kind: p.Note, session: p.SessionID})
			return
		}
		var l struct {
			T          float64         `json:"t"`
			Type       string          `json:"type"`
			Properties json.RawMessage `json:"properties"`
		}
		var p struct {
			SessionID string `json:"sessionID"`
			Directory string `json:"directory"`
			Status    struct {
				Type string `json:"type"`
			} `json:"status"`
			Reply string `json:"reply"`
			Error struct {
				Name string `json:"name"`
			} `json:"error"`
		}
		if json.Unmarshal(line, &l) != nil || json.Unmarshal(l.Properties, &p) != nil {
			t.Fatalf("bad line %.80s", line)
		}
		if l.Type == "plugin.init" {
			cwd = p.Directory // what the plugin is given as its directory
		}
		if p.SessionID == "" || strings.HasPrefix(l.Type, "hook:") {
			return // not a session's event (or the recorder's own hook log)
		}
		// As Mew's plugin forwards it.
		payload, _ := json.Marshal(map[string]any{"cwd": cwd, "type": l.Type, "properties": l.Properties})
		kind := p.Status.Type + p.Reply + p.Error.Name
		r.events = append(r.events, agentEvent{at: l.T - r.t0, name: l.Type, payload: payload, kind: kind, session: p.SessionID})
	})
	eachLine(t, filepath.Join(dir, "screens.jsonl"), func(line []byte) {
		var s struct {
			T      float64 `json:"t"`
			Screen string  `json:"screen"`
		}
		if json.Unmarshal(line, &s) != nil {
			t.Fatalf("bad screen %.80s", line)
		}
		r.screens = append(r.screens, agentScreen{at: s.T, rows: strings.Split(s.Screen, "\n")})
	})
	eachLine(t, filepath.Join(dir, "timeline.jsonl"), func(line []byte) {
		var e struct {
			T    float64 `json:"t"`
			Kind string  `json:"kind"`
		}
		json.Unmarshal(line, &e)
		switch e.Kind {
		case "keys":
			r.keys = append(r.keys, e.T)
		case "agent-exited":
			r.exited = e.T
		}
	})
	if r.exited == 0 || len(r.events) == 0 {
		t.Fatalf("%s: no exit or no events", dir)
	}
	return r
}

func eachLine(t *testing.T, path string, f func([]byte)) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			f(sc.Bytes())
		}
	}
}

type replayChange struct {
	at    float64
	state session.State
}

// truth is what the recording says, from the agent's own events and the
// keys (AGENTS-README: OpenCode's session.status busy/idle and
// permission.asked…permission.replied; Gemini's BeforeAgent…AfterAgent and
// ToolPermission…the answering key).
func (r agentRun) truth() []replayChange {
	var out []replayChange
	cur := session.Idle
	set := func(at float64, s session.State) {
		if s != cur {
			out = append(out, replayChange{at, s})
			cur = s
		}
	}
	for _, e := range r.events {
		switch r.agent + " " + e.name {
		case "opencode session.status":
			switch {
			case e.kind == "busy" && cur != session.Waiting:
				set(e.at, session.Working)
			case e.kind == "idle" && cur == session.Working:
				set(e.at, session.Done)
			}
		case "opencode permission.asked":
			set(e.at, session.Waiting)
		case "opencode permission.replied":
			if e.kind == "reject" {
				set(e.at, session.Idle)
			} else {
				set(e.at, session.Working)
			}
		case "opencode session.error":
			if e.kind == "MessageAbortedError" {
				set(e.at, session.Idle)
			} else {
				set(e.at, session.Failed)
			}
		case "gemini BeforeAgent":
			set(e.at, session.Working)
		case "gemini Notification":
			if e.kind == "ToolPermission" {
				set(e.at, session.Waiting)
				for _, k := range r.keys {
					if k > e.at {
						set(k, session.Working)
						break
					}
				}
			}
		case "gemini AfterAgent":
			set(e.at, session.Done)
		case "gemini SessionEnd":
			set(e.at, session.Exited)
		}
	}
	set(r.exited, session.Exited)
	sort.SliceStable(out, func(i, j int) bool { return out[i].at < out[j].at })
	return out
}

// replaySource is the tmux pane as the screen source would see it.
type replaySource struct{ obs *[]source.Observation }

func (s replaySource) Name() string { return "tmux" }
func (s replaySource) Scan(context.Context) ([]source.Observation, error) {
	return *s.obs, nil
}
func (s replaySource) Watch(context.Context, chan<- []source.Observation) error { return nil }

// replayProcs is the process table: the agent until it exits.
type replayProcs struct {
	agent string
	alive func() bool
}

func (p replayProcs) Get(pid int) (proctree.Proc, error) {
	switch {
	case pid == replayHookPid && p.agent == session.AgentGemini:
		return proctree.Proc{Pid: pid, PPid: replayShellPid, Name: "mew-hook"}, nil
	case pid == replayHookPid:
		return proctree.Proc{Pid: pid, PPid: replayAgentPid, Name: "mew-hook"}, nil
	case pid == replayShellPid:
		return proctree.Proc{Pid: pid, PPid: replayAgentPid, Name: "sh"}, nil
	case pid == replayAgentPid && p.alive():
		return proctree.Proc{Pid: pid, PPid: replayOuterPid, Name: p.agent, StartMs: 1000}, nil
	case pid == replayOuterPid && p.alive():
		return proctree.Proc{Pid: pid, PPid: 1, Name: p.agent, StartMs: 1000}, nil
	}
	return proctree.Proc{}, proctree.ErrNoProcess
}

func replayAgent(t *testing.T, r agentRun, withScreen bool) {
	t0 := time.Unix(0, int64(r.t0*1e9)).UTC()
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	var now time.Time
	mewHome := t.TempDir()
	st := store.Store{Home: mewHome, Fold: hookbin.Fold}
	set := rules.Embedded().Set(r.agent)
	procs := replayProcs{agent: r.agent, alive: func() bool { return now.Before(at(r.exited)) }}
	var obs []source.Observation
	var tracker screen.Tracker
	opts := monitor.Options{Store: st, Sources: []source.Source{replaySource{&obs}}, Procs: procs, Now: func() time.Time { return now }}
	paneEnv := map[string]string{"TMUX": "/tmp/tmux-0/default,77,0", "TMUX_PANE": replayPane, "TERM_PROGRAM": "tmux"}

	sid := ""
	for _, e := range r.events {
		if e.session != "" {
			sid = e.session
			break
		}
	}
	changes := r.truth()
	events, screens := r.events, r.screens
	first := events[0].at
	var bad []string
	scored, matched := 0, 0
	for s := 0.0; s <= r.exited+2; s += 0.1 {
		now = at(s)
		for len(events) > 0 && events[0].at <= s {
			e := events[0]
			events = events[1:]
			hookbin.Run(hookbin.Options{
				Stdin: bytes.NewReader(e.payload), Getenv: func(k string) string { return paneEnv[k] }, Environ: os.Environ,
				Now: at(e.at), Pid: replayHookPid, Procs: procs, Store: st, LockTimeout: time.Second,
				Log: &hookbin.Log{Path: filepath.Join(mewHome, "mew-hook.log")}, Agent: r.agent,
			})
		}
		for len(screens) > 0 && screens[0].at <= s {
			tracker.Observe(set, rules.Frame{Rows: screens[0].rows}, at(screens[0].at))
			screens = screens[1:]
		}
		obs = nil
		if withScreen && tracker.Seen && now.Before(at(r.exited)) {
			sc := tracker.State
			sc.Via, sc.Pane, sc.Pid, sc.Tty = "tmux", replayPane, replayOuterPid, "/dev/pts/3"
			obs = []source.Observation{{Fallback: "tmux:" + replayPane, Agent: r.agent, Screen: &sc,
				Process: session.Process{Pid: replayOuterPid, Tty: "/dev/pts/3", Tmux: &session.Tmux{Pane: replayPane}}}}
		}
		if s < first {
			continue
		}
		shown, errs := monitor.Snapshot(opts)
		if len(errs) > 0 {
			t.Fatalf("at %.1f s: %v", s, errs)
		}
		var got session.Shown
		for _, sh := range shown {
			if sh.ID == sid {
				got = sh
			} else if sh.State != session.Exited {
				t.Fatalf("at %.1f s: %s listed beside the session (%+v)", s, sh.ID, sh)
			}
		}
		want, certain := stateAt(changes, s)
		if !certain {
			continue
		}
		scored++
		if got.State == want && (want != session.Waiting || got.Reason == session.ReasonPermission) && got.Agent == r.agent {
			matched++
		} else {
			bad = append(bad, fmt.Sprintf("%.1f s: %s(%s) from %s, want %s", s, got.State, got.Reason, got.Source, want))
		}
	}
	t.Logf("%d/%d samples right", matched, scored)
	if scored < 20 || matched != scored {
		t.Errorf("%d of %d samples wrong:\n%s", scored-matched, scored, strings.Join(bad, "\n"))
	}
}

func stateAt(changes []replayChange, t float64) (session.State, bool) {
	st := session.Idle
	for _, c := range changes {
		if d := c.at - t; d < 0.5 && d > -0.5 {
			return st, false
		}
		if c.at <= t {
			st = c.state
		}
	}
	return st, true
}

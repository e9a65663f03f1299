// Package recording reads recordings of real agent runs (the project's are
// in testdata/fixtures; ARCHITECTURE.md, "Fixtures"): Claude Code's hook payloads and
// registry documents in time order with the checkpoints a correct Mew must
// report, Codex's runs (hooks, rollout lines, keys, marks), and screens.
// It only parses; package replay plays them through the monitor, and the
// tests' internal/fixture names where the project's own copies are.
package recording

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

// Event is one line of events.jsonl.
type Event struct {
	T      float64         `json:"t"`
	Source string          `json:"source"` // "hook" | "registry"
	Doc    json.RawMessage `json:"doc"`    // null: the registry file is absent
	// Hook is how a census hook log's command line named the hook
	// (argv[0]: "cc-agentStop" for Copilot CLI's camelCase events).
	Hook string `json:"hook,omitempty"`
}

// IsNull reports whether a registry event says the file is gone.
func (e Event) IsNull() bool { return len(e.Doc) == 0 || string(bytes.TrimSpace(e.Doc)) == "null" }

// Checkpoint is one line of expect.jsonl.
type Checkpoint struct {
	At     float64 `json:"at"`
	State  string  `json:"state"`
	Reason string  `json:"reason,omitempty"`
}

// Run is one recorded run.
type Run struct {
	Name        string
	Dir         string
	Events      []Event
	Checkpoints []Checkpoint
	SessionID   string
}

// Load reads every Claude Code run under root.
func Load(root string) ([]Run, error) { return loadRuns(root, LoadRun) }

// loadRuns reads every run folder under root with load.
func loadRuns[R any](root string, load func(dir string) (R, error)) ([]R, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var runs []R
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		r, err := load(filepath.Join(root, e.Name()))
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("no runs in %s", root)
	}
	return runs, nil
}

// LoadRun reads one run's folder.
func LoadRun(dir string) (Run, error) {
	r := Run{Name: filepath.Base(dir), Dir: dir}
	var err error
	if r.Events, err = LoadEvents(filepath.Join(dir, "events.jsonl")); err != nil {
		return Run{}, err
	}
	if err := readLines(filepath.Join(dir, "expect.jsonl"), func(line []byte) error {
		var c Checkpoint
		if err := json.Unmarshal(line, &c); err != nil {
			return err
		}
		r.Checkpoints = append(r.Checkpoints, c)
		return nil
	}); err != nil {
		return Run{}, err
	}
	r.SessionID = SessionID(r.Events)
	if r.SessionID == "" {
		return Run{}, fmt.Errorf("%s: no session id in events", dir)
	}
	return r, nil
}

// LoadEvents reads an events.jsonl: one {"t": s, "source": "hook" |
// "registry", "doc": payload or registry document} a line, in time order.
func LoadEvents(path string) ([]Event, error) {
	var out []Event
	err := readLines(path, func(line []byte) error {
		var e Event
		if err := json.Unmarshal(line, &e); err != nil {
			return err
		}
		if e.Source != "hook" && e.Source != "registry" {
			return fmt.Errorf(`"source" is %q, want "hook" or "registry"`, e.Source)
		}
		out = append(out, e)
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out, err
}

// SessionID is the first session id the events name (a hook payload's
// session_id, a registry document's sessionId).
func SessionID(events []Event) string {
	for _, e := range events {
		var doc struct {
			SessionID  string `json:"session_id"`
			RegistryID string `json:"sessionId"`
		}
		if e.IsNull() || json.Unmarshal(e.Doc, &doc) != nil {
			continue
		}
		if doc.SessionID != "" {
			return doc.SessionID
		}
		if doc.RegistryID != "" {
			return doc.RegistryID
		}
	}
	return ""
}

func readLines(path string, each func([]byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := each(line); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	return sc.Err()
}

// LoadHookLog reads a census hook log (../shared/fixtures/census/
// hooklog.py: one {"t": epoch, "argv": [event], "env": {…}, "stdin":
// payload} a line, a hook run each) as hook events, t made relative to the
// first line. Runs whose stdin was not a JSON object are left out.
func LoadHookLog(path string) ([]Event, error) {
	var out []Event
	err := readLines(path, func(line []byte) error {
		var l struct {
			T     *float64        `json:"t"`
			Argv  []string        `json:"argv"`
			Stdin json.RawMessage `json:"stdin"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			return err
		}
		if l.T == nil || l.Argv == nil {
			return fmt.Errorf(`want {"t": epoch, "argv": [...], "stdin": payload}`)
		}
		if s := bytes.TrimSpace(l.Stdin); len(s) == 0 || s[0] != '{' {
			return nil
		}
		ev := Event{T: *l.T, Source: "hook", Doc: l.Stdin}
		if len(l.Argv) > 0 {
			ev.Hook = l.Argv[0]
		}
		out = append(out, ev)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return fromFirst(out), nil
}

// LoadAgentEvents reads the agent's own events as the OpenCode, Gemini CLI
// and Kilo recordings keep them: {"t": epoch, "type": …, "properties": …}
// (a plugin event, forwarded whole) or {"t": epoch, "ev": hook payload}, a
// line each, t made relative to the first line.
func LoadAgentEvents(path string) ([]Event, error) {
	var out []Event
	err := readLines(path, func(line []byte) error {
		var l struct {
			T     *float64        `json:"t"`
			Type  string          `json:"type"`
			Props json.RawMessage `json:"properties"`
			Ev    json.RawMessage `json:"ev"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			return err
		}
		switch {
		case l.T == nil:
			return fmt.Errorf(`want {"t": epoch, "type": …, "properties": …} or {"t": epoch, "ev": payload}`)
		case len(l.Ev) > 0:
			out = append(out, Event{T: *l.T, Source: "hook", Doc: l.Ev})
		case l.Type != "":
			out = append(out, Event{T: *l.T, Source: "hook", Doc: append(json.RawMessage(nil), line...)})
		default:
			return fmt.Errorf(`want {"t": epoch, "type": …, "properties": …} or {"t": epoch, "ev": payload}`)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return fromFirst(out), nil
}

// fromFirst sorts events by time (stable: a log's order breaks ties) and
// makes their times relative to the first.
func fromFirst(out []Event) []Event {
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	if len(out) > 0 {
		t0 := out[0].T
		for i := range out {
			out[i].T -= t0
		}
	}
	return out
}

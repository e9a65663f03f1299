package replay

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/recording"
	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/source/registry"
	"github.com/mew-dev/mew/store"
)

// Events replays a hook payload log (events.jsonl: {"t": s, "source":
// "hook" | "registry", "doc": …} a line, t seconds from the start): each
// hook payload through the hook program as agent's hook (session.Agent*;
// "" or "claude" for Claude Code, whose hook command names none), each
// registry document written to a Claude Code registry directory the
// registry source reads (a null doc: the file is removed). The agent's
// process runs throughout; the session ends when its events say so.
func Events(events []recording.Event, agent string) ([]Change, error) {
	if agent == session.AgentClaude {
		agent = "" // Claude Code's hook command carries no --agent
	}
	if agent != "" && !session.ValidAgent(agent) {
		return nil, fmt.Errorf("unknown agent %q (one of %v)", agent, session.Agents)
	}
	sid := sessionOf(events, agent)
	if sid == "" {
		return nil, fmt.Errorf("no session id in the events (a hook payload's session_id, a registry document's sessionId)")
	}
	name := agent
	if name == "" {
		name = session.AgentClaude
	}
	e, err := newEngine(time.Unix(0, 0).UTC().Add(24*time.Hour), name)
	if err != nil {
		return nil, err
	}
	defer e.close()
	regDir := filepath.Join(e.dir, "registry")
	if err := os.MkdirAll(regDir, 0o700); err != nil {
		return nil, err
	}
	e.sources = append(e.sources, registry.New(regDir))
	e.follow = followID(&sid)
	var werr error
	var evs []event
	end := 0.0
	for _, ev := range events {
		ev := ev
		end = max(end, ev.T)
		switch ev.Source {
		case "hook":
			name, ok := hookName(agent, ev.Hook)
			if !ok {
				continue
			}
			evs = append(evs, event{ev.T, func() { e.hook(agent, name, ev.Doc) }})
		case "registry":
			evs = append(evs, event{ev.T, func() {
				if err := e.registry(regDir, ev); err != nil && werr == nil {
					werr = err
				}
			}})
		}
	}
	out := e.run(end+1, evs)
	if werr != nil {
		return nil, werr
	}
	return out, firstErr(e.errs)
}

// hookName is the event name the hook's command line gives, for an agent
// whose payloads name none: the census registered Copilot CLI's camelCase
// events as "cc-<event>" (and its Claude-compatible PascalCase ones as
// "pc-<Event>", the same events again: left out). ok is false for an
// event to leave out.
func hookName(agent, argv0 string) (string, bool) {
	if agent != session.AgentCopilot {
		return "", true
	}
	if name, ok := strings.CutPrefix(argv0, "cc-"); ok {
		return name, true
	}
	return "", !strings.HasPrefix(argv0, "pc-")
}

// sessionOf is the first session the events name, as the hook reads them
// (a plugin event names it in its properties).
func sessionOf(events []recording.Event, agent string) string {
	for _, e := range events {
		if e.Source != "hook" {
			continue
		}
		var ev reducer.Event
		if _, err := reducer.ParseFor(agent, e.Doc, &ev); err == nil && ev.SessionID != "" {
			return ev.SessionID
		}
	}
	return recording.SessionID(events)
}

// registry writes (or removes) the registry document of the agent's
// process, rewritten to the made-up process and the virtual clock.
func (e *engine) registry(dir string, ev recording.Event) error {
	path := filepath.Join(dir, strconv.Itoa(agentPid)+".json")
	if ev.IsNull() {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			return err
		}
		return nil
	}
	var doc map[string]any
	if err := json.Unmarshal(ev.Doc, &doc); err != nil {
		return fmt.Errorf("at %.3f s: registry document: %w", ev.T, err)
	}
	now := e.now().UnixMilli()
	doc["pid"] = agentPid
	delete(doc, "procStart") // clock ticks of another boot: the start time below stands in
	doc["startedAt"] = e.procs[agentPid].StartMs + 1000
	for _, k := range []string{"updatedAt", "statusUpdatedAt"} {
		if _, ok := doc[k]; ok {
			doc[k] = now
		}
	}
	return store.WriteFileAtomic(path, jsonOf(doc), 0o600)
}

// Screens replays screens of agent (its rules: the embedded ones and
// $MEW_HOME/rules overrides, as book has them) as the tmux source reads a
// pane: each frame classified at its time by the screen tracker, the pane
// read again every Step, the agent the pane's foreground process
// throughout.
func Screens(frames []recording.Frame, agent string, book *rules.Book) ([]Change, error) {
	set := book.Set(agent)
	if set == nil {
		return nil, fmt.Errorf("no rules for agent %q", agent)
	}
	if len(frames) == 0 {
		return nil, fmt.Errorf("no screens")
	}
	e, err := newEngine(time.Unix(0, 0).UTC().Add(24*time.Hour), agent)
	if err != nil {
		return nil, err
	}
	defer e.close()
	src := &staticSource{name: "tmux"}
	e.sources = append(e.sources, src)
	id := "tmux:" + agentPane
	e.follow = followID(&id)
	var tr screen.Tracker
	observe := func(f *recording.Frame) {
		if f != nil {
			tr.Observe(set, rules.Frame{Rows: f.Rows, Title: f.Title}, e.now())
		}
		if !tr.Seen {
			src.obs = nil // nothing read yet: the pane is not listed
			return
		}
		st := tr.State
		st.Agent, st.Via, st.Pane, st.Tty, st.At = agent, "tmux", agentPane, agentTty, e.now()
		st.Pid, st.StartMs = agentPid, e.procs[agentPid].StartMs
		src.obs = []source.Observation{{
			Fallback: id, Agent: agent, Screen: &st,
			Process: session.Process{Pid: agentPid, StartMs: st.StartMs, Name: agent, Tty: agentTty,
				Tmux: &session.Tmux{Pane: agentPane}},
		}}
	}
	var evs []event
	for i := range frames {
		f := &frames[i]
		evs = append(evs, event{f.T, func() { observe(f) }})
	}
	// Between frames the pane is read again: the same screen, a later time.
	e.beforeObserve = func() { observe(nil) }
	return e.run(frames[len(frames)-1].T+1, evs), firstErr(e.errs)
}

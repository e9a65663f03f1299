package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mew-dev/mew/internal/recording"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// maxInput bounds a recording file read whole (a Codex rollout is read
// line by line, each line bounded).
const maxInput = 64 << 20

// File replays the recording at path, whichever of the formats it is
// (README.md, "mew replay"):
//
//   - a Codex run folder (marks.json, hooks.jsonl, rollout.jsonl);
//   - a Codex rollout file, with agent "codex";
//   - an events.jsonl of hook payloads and registry documents (or a folder
//     holding one), as agent's hooks (default Claude Code's);
//   - a census hook log (hook-events.jsonl: {"t", "argv", "stdin"} lines),
//     or an agent's own events as the OpenCode, Gemini CLI and Kilo
//     recordings keep them ({"t", "type", "properties"}, {"t", "ev"}), as
//     agent's hooks or plugin events;
//   - a screens.jsonl, or a census run folder of NN-<label>.txt screens,
//     with agent's screen rules.
//
// A folder holding events and screens replays its events (the richer
// signal); give the screens file itself to replay the screens.
func File(path, agent string, book *rules.Book) ([]Change, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return folder(path, agent, book)
	}
	if info.Size() > maxInput {
		return nil, fmt.Errorf("%s: larger than %d MB", path, maxInput>>20)
	}
	kind, err := sniffFile(path)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "rollout":
		if agent != session.AgentCodex {
			return nil, fmt.Errorf("%s: lines with a \"timestamp\" and no \"t\": a Codex rollout? say --agent codex", path)
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return CodexRollout(f)
	case "events":
		events, err := recording.LoadEvents(path)
		if err != nil {
			return nil, err
		}
		return Events(events, agent)
	case "hooklog", "agentevents":
		if agent == "" {
			return nil, fmt.Errorf("%s: the agent's own events: say whose (--agent NAME)", path)
		}
		load := recording.LoadHookLog
		if kind == "agentevents" {
			load = recording.LoadAgentEvents
		}
		events, err := load(path)
		if err != nil {
			return nil, err
		}
		return Events(events, agent)
	case "screens":
		if agent == "" {
			return nil, fmt.Errorf("%s: screens: say whose (--agent NAME) so its rules read them", path)
		}
		frames, err := recording.LoadScreensJSONL(path)
		if err != nil {
			return nil, err
		}
		return Screens(frames, agent, book)
	}
	return nil, fmt.Errorf("%s: not a recording Mew replays (see `mew replay --help`)", path)
}

func folder(dir, agent string, book *rules.Book) ([]Change, error) {
	has := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
	switch {
	case has("marks.json") && has("rollout.jsonl"):
		if agent != "" && agent != session.AgentCodex {
			return nil, fmt.Errorf("%s: a Codex run, not %s's", dir, agent)
		}
		return CodexRun(dir)
	case has("events.jsonl"):
		return File(filepath.Join(dir, "events.jsonl"), agent, book)
	case has("hook-events.jsonl"):
		return File(filepath.Join(dir, "hook-events.jsonl"), agent, book)
	case has("screens.jsonl"):
		return File(filepath.Join(dir, "screens.jsonl"), agent, book)
	}
	if agent == "" {
		return nil, fmt.Errorf("%s: screens: say whose (--agent NAME) so its rules read them", dir)
	}
	frames, err := recording.LoadCensusRun(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: not a recording Mew replays: %w", dir, err)
	}
	return Screens(frames, agent, book)
}

// sniffFile tells the format of a JSON-lines file by its first line.
func sniffFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(io.LimitReader(f, maxRolloutLine), maxRolloutLine).ReadBytes('\n')
	if err != nil && err != io.EOF {
		return "", err
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(line), &keys) != nil {
		return "", fmt.Errorf("%s: the first line is not a JSON object", path)
	}
	_, t := keys["t"]
	_, src := keys["source"]
	_, scr := keys["screen"]
	_, ts := keys["timestamp"]
	_, argv := keys["argv"]
	_, typ := keys["type"]
	_, ev := keys["ev"]
	switch {
	case t && argv:
		return "hooklog", nil
	case t && (typ || ev):
		return "agentevents", nil
	case t && src:
		return "events", nil
	case t && scr:
		return "screens", nil
	case ts && !t:
		return "rollout", nil
	}
	return "", nil
}

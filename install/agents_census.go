package install

import (
	"encoding/json"
	"path/filepath"

	"github.com/mew-dev/mew/internal/hookcli"
	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
)

// The agents of the npm census (testdata/fixtures/<agent>-<version>) that
// Mew registers with (Cline by hook files of its own: cline.go; pi by an
// in-process extension: pi.go; Copilot CLI by a hooks file of its own).
// The others are seen by their screen and process only: Continue fires
// none.
var (
	// Qwen Code's settings.json takes Claude Code's "hooks" shape, with
	// Claude-compatible payloads; command hook timeouts are seconds (its
	// docs/features/hooks.md: values of 1000 or more are still read as
	// milliseconds).
	Qwen = Agent{
		Name: session.AgentQwen, Title: "Qwen Code", File: "settings.json",
		Dir:    func(e Env) string { return filepath.Join(e.Home, ".qwen") },
		Events: reducer.EventsFor(session.AgentQwen), Matchers: true, Program: "qwen",
	}
	// Kilo is an OpenCode fork: it loads every plugins/*.{js,ts} of
	// ~/.config/kilo with OpenCode's plugin API, so OpenCode's plugin
	// serves it unchanged (the hook command names the agent).
	Kilo = Agent{
		Name: session.AgentKilo, Title: "Kilo CLI", File: "mew.js",
		Dir:     func(e Env) string { return filepath.Join(e.ConfigHome, "kilo", "plugins") },
		Program: "kilo", Plugin: openCodePlugin,
	}
	// pi loads every extensions/*.ts of its agent folder into its own
	// process: Mew's extension is a plugin file like Amp's (piPlugin).
	Pi = Agent{
		Name: session.AgentPi, Title: "pi", File: "mew.ts",
		Dir:     func(e Env) string { return filepath.Join(piDir(e), "extensions") },
		Program: "pi", Plugin: piPlugin,
	}
	// Copilot CLI loads every hooks/*.json of $COPILOT_HOME (~/.copilot):
	// Mew's is a file of its own, written and removed whole.
	Copilot = Agent{
		Name: session.AgentCopilot, Title: "GitHub Copilot CLI", File: "mew.json",
		Dir:    func(e Env) string { return filepath.Join(e.copilotHome(), "hooks") },
		Events: reducer.EventsFor(session.AgentCopilot), Program: "copilot", Plugin: copilotHooks,
	}
)

// piDir is pi's agent folder: $PI_CODING_AGENT_DIR, or ~/.pi/agent.
func piDir(e Env) string {
	if e.PiDir != "" {
		return e.PiDir
	}
	return filepath.Join(e.Home, ".pi", "agent")
}

func (e Env) copilotHome() string {
	if e.CopilotHome != "" {
		return e.CopilotHome
	}
	return filepath.Join(e.Home, ".copilot")
}

// copilotTimeout bounds each of Mew's hooks (seconds): Copilot runs hooks
// one after another and waits for each, and mew-hook never waits (a few ms).
const copilotTimeout = 5

// copilotHooks is Mew's hooks file for Copilot CLI: version 1, one command
// per camelCase event, each naming its event (Copilot's payloads do not).
// The marker is a field of its own: Copilot ignores fields it does not
// know (measured on 1.0.102).
var copilotHooks = &Plugin{Render: func(a Agent, e Env) ([]byte, error) {
	cmd, err := a.Command(e.MewHome, e.Home)
	if err != nil {
		return nil, err
	}
	type entry struct {
		Type       string `json:"type"`
		Bash       string `json:"bash"`
		TimeoutSec int    `json:"timeoutSec"`
	}
	hooks := map[string][]entry{}
	for _, ev := range a.Events {
		hooks[ev] = []entry{{Type: "command", Bash: cmd + " " + hookcli.EventFlag + ev, TimeoutSec: copilotTimeout}}
	}
	doc := struct {
		Mew     string             `json:"mew"`
		Version int                `json:"version"`
		Hooks   map[string][]entry `json:"hooks"`
	}{pluginMarker + " --agent " + a.Name + "; `mew uninstall` removes this file", 1, hooks}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}}

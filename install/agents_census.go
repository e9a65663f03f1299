package install

import (
	"path/filepath"

	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
)

// The agents of the npm census (testdata/fixtures/<agent>-<version>) that
// Mew registers with (Cline by hook files of its own: cline.go; pi by an
// in-process extension: pi.go). The others are seen by their screen and
// process only: Copilot's hooks live in files of their own shape
// (~/.copilot/hooks/*.json), Continue fires none.
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
)

// piDir is pi's agent folder: $PI_CODING_AGENT_DIR, or ~/.pi/agent.
func piDir(e Env) string {
	if e.PiDir != "" {
		return e.PiDir
	}
	return filepath.Join(e.Home, ".pi", "agent")
}

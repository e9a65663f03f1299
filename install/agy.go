package install

import (
	"path/filepath"

	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
)

// Agy is Antigravity CLI (`agy`), Gemini CLI's successor for consumers
// since 2026-06: hooks of its own in ~/.gemini/config/hooks.json, in Claude
// Code's {"hooks": {event: [groups]}} shape, with the same guarantees
// (Mew's entries only, byte-exact uninstall). Unverified: built from its
// published shapes; agy is not on npm here and no run is recorded.
var Agy = Agent{
	Name: session.AgentAgy, Title: "Antigravity CLI", File: "hooks.json",
	Dir:    func(e Env) string { return filepath.Join(e.GeminiDir, "config") },
	Events: reducer.EventsFor(session.AgentAgy), Matchers: true, Program: "agy", EntryName: "mew",
	Caveat: "Mew's Antigravity CLI support is unverified (built from its published hook shapes; no run recorded): its hooks say turns and tools, its screen and process the rest",
}

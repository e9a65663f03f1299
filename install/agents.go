package install

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mew-dev/mew/internal/hookcli"
	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
)

// Agent is one agent Mew can register its hook with: which file holds the
// hooks, which events, and how Mew's entries look there. Every agent's file
// has the same shape ({"hooks": {event: [matcher groups]}}), so install,
// uninstall and doctor are one code path over this table.
type Agent struct {
	Name  string // session.Agent*
	Title string // how people call it
	// Dir is the agent's configuration directory in env; File the hooks
	// file in it.
	Dir  func(Env) string
	File string
	// Events are the hook events Mew registers for (the reducer's list).
	Events []string
	// Matchers: Mew's groups carry "matcher": "*" for the events that take
	// one (Claude Code). Codex's are written without: a matcher is part of
	// what Codex hashes for trust, and none matches everything there too.
	Matchers bool
	// Program is the agent's executable, for detecting it on PATH.
	Program string
	// EntryName is the short "name" of Mew's entries, for an agent that
	// shows it in place of the command line (Gemini CLI's status row).
	EntryName string
	// Timeout of Mew's entry in the agent's unit (Gemini CLI: ms); 0 is
	// install.Timeout seconds.
	Timeout int
	// Plugin is set for agents Mew reaches through a plugin file of its
	// own instead of a hooks file (OpenCode, Amp): File in Dir is that
	// plugin, written and removed whole.
	Plugin *Plugin
	// HookFiles is set for agents that run executable files named after
	// their events from a folder (Cline): File in Dir is that folder, and
	// Mew writes one script of its own per event in it.
	HookFiles bool
	// Checks are the doctor's checks this agent needs beside its hooks
	// (doctor.go), in the order they are said; Tested is the version Mew
	// is tested with (CheckVersion).
	Checks []Check
	Tested string
	// Caveat is what `mew doctor` says of what the agent cannot report
	// (a dialog no hook tells of, an unverified integration).
	Caveat string
}

// Path is the agent's hooks file in env.
func (a Agent) Path(e Env) string { return filepath.Join(a.Dir(e), a.File) }

// Command is Mew's hook command for the agent: HookCommand, and for every
// agent but Claude Code the agent's name (hookcli.AgentFlag). It must never
// change between releases for Codex: Codex trusts a hook by a hash of its
// command line and would ask the person again.
func (a Agent) Command(mewHome, home string) (string, error) {
	cmd, err := HookCommand(mewHome, home)
	if err != nil || a.Name == session.AgentClaude {
		return cmd, err
	}
	return cmd + " " + hookcli.AgentFlag + a.Name, nil
}

// Want is what install writes into the agent's file for env.
func (a Agent) Want(e Env) (Want, error) {
	cmd, err := a.Command(e.MewHome, e.Home)
	if err != nil {
		return Want{}, err
	}
	timeout := a.Timeout
	if timeout == 0 {
		timeout = Timeout
	}
	return Want{Command: cmd, Events: a.Events, Timeout: timeout, NoMatchers: !a.Matchers, Name: a.EntryName}, nil
}

// Installed says whether the agent looks installed: its configuration
// directory exists or its program is on PATH (lookPath, exec.LookPath's
// shape).
func (a Agent) Installed(e Env, lookPath func(string) (string, error)) bool {
	dir := a.Dir(e)
	if a.Plugin != nil {
		dir = filepath.Dir(dir) // the plugins folder's parent: the agent's configuration
	}
	if a.HookFiles {
		dir = a.Dir(e) // ~/.cline, whose hooks folder need not exist yet
	}
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return true
	}
	if lookPath == nil {
		return false
	}
	_, err := lookPath(a.Program)
	return err == nil
}

// The agents `mew install` registers with.
var (
	Claude = Agent{
		Name: session.AgentClaude, Title: "Claude Code", File: "settings.json",
		Dir:    func(e Env) string { return e.ClaudeDir },
		Events: reducer.EventsFor(session.AgentClaude), Matchers: true, Program: "claude",
		Checks: []Check{CheckHooksEnabled, CheckRegistry, CheckVersion, CheckStatusline, CheckEventsKnown}, Tested: "2.1",
	}
	Codex = Agent{
		Name: session.AgentCodex, Title: "Codex", File: "hooks.json",
		Dir:    func(e Env) string { return e.CodexHome },
		Events: reducer.EventsFor(session.AgentCodex), Program: "codex",
		Checks: []Check{CheckCodexTrust, CheckVersion}, Tested: "0.169",
	}
	// OpenCode loads every plugins/*.{js,ts} of its configuration folder.
	OpenCode = Agent{
		Name: session.AgentOpenCode, Title: "OpenCode", File: "mew.js",
		Dir:     func(e Env) string { return filepath.Join(e.ConfigHome, "opencode", "plugins") },
		Program: "opencode", Plugin: openCodePlugin,
		Checks: []Check{CheckVersion, CheckOffline}, Tested: "1.18",
	}
	// Gemini CLI's settings.json has Claude Code's "hooks" shape, with
	// timeouts in milliseconds.
	Gemini = Agent{
		Name: session.AgentGemini, Title: "Gemini CLI", File: "settings.json",
		Dir:    func(e Env) string { return e.GeminiDir },
		Events: reducer.EventsFor(session.AgentGemini), Matchers: true, Program: "gemini",
		Timeout: Timeout * 1000, EntryName: "mew",
		Checks: []Check{CheckHooksOn, CheckVersion}, Tested: "0.61",
	}
	// Amp loads plugins from $XDG_CONFIG_HOME/amp/plugins on every
	// platform (its plugin API is experimental; see README).
	Amp = Agent{
		Name: session.AgentAmp, Title: "Amp", File: "mew.ts",
		Dir:     func(e Env) string { return filepath.Join(e.ConfigHome, "amp", "plugins") },
		Program: "amp", Plugin: ampPlugin,
		Caveat: "Amp's plugin API is experimental (Mew's plugin is tested with Amp 0.0.1790142911); Amp's approval dialog is read from its screen only, and Amp sessions are found by their process and screen either way",
	}
)

// Agents lists them in the order Mew documents them.
var Agents = []Agent{Claude, Codex, OpenCode, Gemini, Amp, Qwen, Kilo, Pi, Cline, Copilot, Agy}

// AgentNamed finds an agent of the table by name.
func AgentNamed(name string) (Agent, error) {
	var names []string
	for _, a := range Agents {
		if a.Name == name {
			return a, nil
		}
		names = append(names, a.Name)
	}
	return Agent{}, fmt.Errorf("unknown agent %q: `mew install` knows %s", name, strings.Join(names, ", "))
}

// Detect returns the agents that look installed; when none does, Claude
// Code (what Mew has always installed for, and the file it creates is
// harmless).
func Detect(e Env, lookPath func(string) (string, error)) []Agent {
	var out []Agent
	for _, a := range Agents {
		if a.Installed(e, lookPath) {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		out = append(out, Claude)
	}
	return out
}

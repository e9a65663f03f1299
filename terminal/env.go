// Package terminal is what every input and action of Mew shares about the
// terminal an agent runs in: what identifies it (the environment variables
// that name its tab or pane, and the agent's process up to the terminal
// app: Env, DescribeAgent), the validators for terminal ids (ValidTmuxPane,
// ValidTty, ValidPath, …) every value passes before it reaches a command,
// and the bounded process runner used to talk to terminals (RunProcess,
// and ITermScript, the iTerm2 session loop jump and answer run with it).
//
// It imports no part of the write side, so the hook, `mew run`, the
// sources, jump and answer all use it; the hook links it, so nothing here
// may cost at start (see pattern).
package terminal

import (
	"fmt"
	"strings"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
)

// envVars are the variables a jump needs to find the terminal tab or
// pane: each terminal's own handle for the session's tab, recorded at
// SessionStart (README, "Jump precision"), and what tells which app it is.
var envVars = []string{
	"TERM_PROGRAM", "TERM_PROGRAM_VERSION", "TERM_SESSION_ID", "ITERM_SESSION_ID",
	"TMUX", "TMUX_PANE", "WEZTERM_PANE", "WEZTERM_UNIX_SOCKET",
	"KITTY_WINDOW_ID", "KITTY_LISTEN_ON", "KITTY_PID", "__CFBundleIdentifier",
	"WARP_FOCUS_URL", "ZELLIJ", "ZELLIJ_PANE_ID", "ZELLIJ_SESSION_NAME", "GHOSTTY_SURFACE_ID",
	// Set by `mew run` for its child: the person's terminal, outside the
	// wrapper's own PTY.
	RunTtyEnv,
	"VSCODE_IPC_HOOK_CLI", "VSCODE_GIT_IPC_HANDLE", "VSCODE_PID", "VSCODE_CWD",
}

// EnvVars lists the variables Env keeps (for sources that read another
// process's environment, such as Codex's TUI).
func EnvVars() []string { return envVars }

// RunTtyEnv names the terminal `mew run` itself runs in; its child's own
// terminal is the wrapper's PTY, which no terminal app knows.
const RunTtyEnv = "MEW_RUN_TTY"

// maxEnvValue bounds a kept variable: longer values are dropped.
const maxEnvValue = 512

// Env keeps the variables a jump needs from an environment (plain,
// bounded values only) and the tmux pane they name.
func Env(getenv func(string) string) (map[string]string, *session.Tmux) {
	env := map[string]string{}
	for _, k := range envVars {
		v := getenv(k)
		if v != "" && len(v) <= maxEnvValue && printable(v) {
			env[k] = v
		}
	}
	return env, tmuxFromEnv(env["TMUX"], env["TMUX_PANE"])
}

// DescribeAgent records an agent process for liveness and jumps: its start
// time, terminal, the environment variables that name its tab or pane, and
// its ancestors up to the terminal app (the hook and `mew run` record
// their agents this way). A zero agent records the environment only.
func DescribeAgent(agent proctree.Proc, procs proctree.Table, getenv func(string) string, tty func(int) (string, error)) *session.Process {
	p := &session.Process{}
	p.Env, p.Tmux = Env(getenv)
	p.Headless = headless(getenv)
	if agent.Pid <= 0 {
		return p
	}
	p.Pid, p.StartMs, p.Name = agent.Pid, agent.StartMs, agent.Name
	if tty != nil {
		p.Tty, _ = tty(agent.Pid)
	}
	for i, a := range proctree.Ancestors(procs, agent.Pid) {
		if i == 16 {
			break
		}
		p.Ancestors = append(p.Ancestors, session.Ancestor{Pid: a.Pid, Name: a.Name, Exe: a.Exe})
		if p.Host == nil {
			// The host app by path alone (no plist read here); jump
			// confirms it from the bundle's Info.plist.
			if app := proctree.OutermostApp(a.Exe); app != "" {
				p.Host = &session.Host{AppPath: app, Pid: a.Pid}
			}
		}
	}
	return p
}

// headless says whether no person attends the session: Claude Code tells
// its hooks in CLAUDE_CODE_SESSION_ATTENDED (0 for `claude -p` and SDK
// apps, 1 for the interactive CLI, in 2.1.328); without it, an sdk-*
// CLAUDE_CODE_ENTRYPOINT (sdk-cli for -p, sdk-ts, sdk-py) says the same.
func headless(getenv func(string) string) bool {
	switch getenv("CLAUDE_CODE_SESSION_ATTENDED") {
	case "0":
		return true
	case "1":
		return false
	}
	return strings.HasPrefix(getenv("CLAUDE_CODE_ENTRYPOINT"), "sdk-")
}

// tmuxFromEnv parses $TMUX ("socket,server-pid,session") and $TMUX_PANE.
func tmuxFromEnv(tmux, pane string) *session.Tmux {
	if tmux == "" {
		return nil
	}
	t := &session.Tmux{Pane: pane}
	parts := strings.Split(tmux, ",")
	t.Socket = parts[0]
	if len(parts) > 1 {
		fmt.Sscanf(parts[1], "%d", &t.ServerPid)
	}
	return t
}

func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

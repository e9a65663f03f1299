// Package install puts Mew's hook into every agent it supports and takes
// it out again (`mew install`, `mew uninstall`), and checks the set-up
// (`mew doctor`). The agents are one table (Agents), one entry per agent
// with everything install and the doctor know of it (its file, events,
// plugin, Checks, Caveat): Claude Code, Codex, Gemini CLI, Qwen Code and
// Antigravity CLI run the hook command from their settings or hooks files;
// Copilot CLI from a hooks file of Mew's own; Cline from hook files of Mew's
// own; OpenCode, Kilo, Amp and pi load a small plugin or extension that
// forwards to it (plugin.go). Screen-only agents (Continue, Grok CLI) are not
// in it: there is nothing to install.
//
// A settings file is the person's dotfile: only the value of its top-level
// "hooks" key ever changes, every other byte stays, and the person's own hooks
// are kept. Mew's entries are recognised by their command (IsMewCommand).
package install

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/mew-dev/mew/internal/hookcli"
	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
)

// Timeout is the seconds Claude Code gives one run of Mew's hook. The hook
// gives up by itself after hookcli.Deadline (7 s), so this only matters if
// the machine is badly stalled; it is kept short so a stall never holds the
// agent long.
const Timeout = 10

// HookName is the hook binary's file name; MewHome/bin/HookName is where
// `mew install` puts it.
const HookName = "mew-hook"

// Events are the hook events Mew registers for: exactly the reducer's.
var Events = reducer.Events

// noMatcher lists the events for which Claude Code has no matcher (it
// ignores one if given); every other event of ours filters on a matcher
// (tool name, notification type, session source, agent type…), where "*"
// matches everything.
var noMatcher = map[string]bool{
	reducer.UserPromptSubmit: true,
	reducer.Stop:             true,
}

// usesMatcher says whether event's groups carry a "matcher".
func usesMatcher(event string) bool { return !noMatcher[event] }

// ErrUnsafePath means a path cannot be put into a shell command safely.
var ErrUnsafePath = errors.New("path cannot be quoted safely for the shell")

// HookPath is where the installed hook binary lives.
func HookPath(mewHome string) string { return filepath.Join(mewHome, "bin", HookName) }

// HookCommand is the command string written to settings.json for the hook
// installed under mewHome; home is the person's home directory.
//
// Claude Code runs hook commands through a shell, and settings.json is often
// shared in a dotfiles repository, so the command never contains the
// person's absolute home path: under home it is written as "$HOME/…" (in
// double quotes, so a space in the path is fine and $HOME still expands).
// With a MEW_HOME other than ~/.mew the hook must also be told where its
// state lives (Claude Code's environment may not have MEW_HOME), so the
// command sets it: MEW_HOME="$HOME/x" "$HOME/x/bin/mew-hook". Every command
// starts with hookcli.RunEnv, which makes each hook call start faster.
func HookCommand(mewHome, home string) (string, error) {
	if !filepath.IsAbs(mewHome) {
		return "", fmt.Errorf("MEW_HOME %q is not an absolute path", mewHome)
	}
	mewHome = filepath.Clean(mewHome)
	dir, err := shellPath(mewHome, home)
	if err != nil {
		return "", err
	}
	cmd := `"` + dir + "/bin/" + HookName + `"`
	if home == "" || mewHome != filepath.Join(filepath.Clean(home), ".mew") {
		cmd = `MEW_HOME="` + dir + `" ` + cmd
	}
	return hookcli.RunEnv + " " + cmd, nil
}

// shellPath is p as it goes between double quotes in a shell command:
// "$HOME/rel" when p is under home, else p itself.
func shellPath(p, home string) (string, error) {
	out := p
	if home != "" && filepath.IsAbs(home) {
		home = filepath.Clean(home)
		rel, err := filepath.Rel(home, p)
		switch {
		case err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)):
		case rel == ".":
			out, p = "$HOME", ""
		default:
			out = "$HOME/" + filepath.ToSlash(rel)
			p = rel // only the part written literally needs checking
		}
	}
	if err := checkQuotable(p); err != nil {
		return "", err
	}
	return out, nil
}

// checkQuotable refuses what double quotes don't make literal in a POSIX
// shell ($, `, \, ") and what has no business in a path written to a JSON
// file (control characters, newlines, invalid UTF-8).
func checkQuotable(p string) error {
	if !utf8.ValidString(p) {
		return fmt.Errorf("%w: %q is not valid UTF-8", ErrUnsafePath, p)
	}
	for _, r := range p {
		switch {
		case r == '"' || r == '$' || r == '`' || r == '\\':
			return fmt.Errorf("%w: %q contains %q; choose a MEW_HOME without it", ErrUnsafePath, p, r)
		case r < 0x20 || r == 0x7f:
			return fmt.Errorf("%w: %q contains a control character; choose a MEW_HOME without it", ErrUnsafePath, p)
		}
	}
	return nil
}

// IsMewCommand says whether a hook command is one Mew wrote: exactly what
// HookCommand writes for some MEW_HOME, with or without the RunEnv prefix
// (older Mews wrote none), and with or without one final --agent=NAME of a
// known agent (what other agents' commands end in). So GOMAXPROCS=1
// "$HOME/.mew/bin/mew-hook", the same with --agent=codex,
// "$HOME/.mew/bin/mew-hook" and MEW_HOME="/opt/mew" "/opt/mew/bin/mew-hook"
// are Mew's; the person's /home/me/homework/bin/mew-hook,
// ~/.mew/bin/mew-hook, "$HOME/.mew/bin/mew-hook" --verbose or
// --agent=vim are not, however alike: a command Mew did not write is never
// touched.
func IsMewCommand(cmd string) bool {
	s := strings.TrimPrefix(cmd, hookcli.RunEnv+" ")
	if i := strings.LastIndex(s, " "+hookcli.AgentFlag); i >= 0 {
		if !session.ValidAgent(s[i+1+len(hookcli.AgentFlag):]) {
			return false
		}
		s = s[:i]
	}
	dir := "$HOME/.mew" // the one MEW_HOME written without MEW_HOME=
	if rest, ok := strings.CutPrefix(s, `MEW_HOME="`); ok {
		d, after, ok := strings.Cut(rest, `"`)
		if !ok || !isWrittenDir(d) {
			return false
		}
		dir, s = d, strings.TrimPrefix(after, " ")
		if len(after) == len(s) {
			return false
		}
	}
	return s == `"`+dir+"/bin/"+HookName+`"`
}

// isWrittenDir says whether d is a MEW_HOME as HookCommand writes it:
// $HOME, $HOME/… or an absolute path, quotable as it stands.
func isWrittenDir(d string) bool {
	literal, ok := strings.CutPrefix(d, "$HOME")
	if ok && literal != "" && literal[0] != '/' {
		return false
	}
	if !ok && !strings.HasPrefix(d, "/") {
		return false
	}
	return checkQuotable(literal) == nil
}

package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/mew-dev/mew/install"
	programs "github.com/mew-dev/mew/terminal"
)

// What `mew install --plan` prints (the panel reads the first line).
const (
	planHeading     = "`mew install` will make these changes:"
	nothingToChange = "Nothing to change: Mew is installed as it should be."
)

// consentIn is where `mew install` asks; a var for tests.
var consentIn = os.Stdin

// askConsent asks on the terminal whether to make the listed changes. An
// error means there is no terminal to ask on.
func askConsent(w io.Writer) (bool, error) {
	if !term.IsTerminal(int(consentIn.Fd())) {
		return false, errors.New("there is no terminal to ask on")
	}
	fmt.Fprint(w, "Make these changes? [y/N] ")
	line, err := bufio.NewReader(io.LimitReader(consentIn, 256)).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(w)
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// stepMode is how `mew install` reaches one agent.
type stepMode int

const (
	viaSettings     stepMode = iota // Mew's entries in the agent's hooks file (or its plugin file)
	viaClaudePlugin                 // Claude Code: Mew's plugin; settings.json keeps no entry of Mew's
	viaCodexPlugin                  // Codex: the person's `codex plugin add mew@mew`; hooks.json keeps no entry of Mew's
)

// installStep is one agent's part of `mew install`: planned by a dry run,
// then made.
type installStep struct {
	agent  install.Agent
	mode   stepMode
	first  bool // copies the hook binary
	env    install.Env
	rep    install.Report
	remove install.Report // viaClaudePlugin: Mew's settings.json entries taken out
	plugin install.ClaudePlugin
	// codexNote: --plugin asked for Codex, which keeps hooks.json.
	codexNote bool
	failed    bool
	ver       *string // version's answer, once read
}

// planSteps decides how each agent is reached. Claude Code goes by its
// plugin when asked (--plugin), or when the plugin is there already (the
// person's /plugin install mew@mew, or an earlier --plugin): a person who
// has the plugin never gets the settings.json entries too.
func planSteps(env install.Env, agents []install.Agent, plugin bool) []installStep {
	var steps []installStep
	for i, a := range agents {
		st := installStep{agent: a, env: env, first: i == 0}
		switch a.Name {
		case install.Claude.Name:
			st.plugin = install.ClaudePluginState(env)
			if plugin || st.plugin.Active() {
				st.mode = viaClaudePlugin
			}
		case install.Codex.Name:
			if install.CodexPluginEnabled(env) {
				st.mode = viaCodexPlugin
			} else {
				st.codexNote = plugin
			}
		}
		steps = append(steps, st)
	}
	return steps
}

// version is the installed agent's `--version`, read once per step: install
// registers only the events that version knows.
func (st *installStep) version() string {
	if st.ver == nil {
		v := ""
		if exe, err := programs.LookPath(st.agent.Program); err == nil {
			v = install.AgentVersion(exe, 3*time.Second)
		}
		st.ver = &v
	}
	return *st.ver
}

// run makes the step's change (dry: computes it).
func (st *installStep) run(src string, dry bool) error {
	o := install.Options{Env: st.env, Agent: st.agent, DryRun: dry, Version: st.version()}
	if st.first {
		o.HookSource = src
	}
	var err error
	switch st.mode {
	case viaClaudePlugin, viaCodexPlugin:
		if st.mode == viaClaudePlugin {
			st.rep, err = install.InstallClaudePlugin(o)
		} else {
			st.rep, err = install.InstallHookOnly(o)
		}
		if err != nil {
			return err
		}
		o.HookSource = ""
		st.remove, err = install.Uninstall(o)
		return err
	}
	st.rep, err = install.Install(o)
	return err
}

// plan is what the step changes (or, after a dry run, would change).
func (st *installStep) plan() []install.Planned {
	out := install.PlanOf(st.agent, st.rep)
	if st.mode != viaSettings {
		out = append(out, install.RemovalPlanOf(st.agent, st.remove)...)
	}
	return out
}

// report says what the step did.
func (st *installStep) report(w io.Writer, env install.Env, src string, dry bool) {
	if st.mode == viaSettings {
		if st.codexNote {
			fmt.Fprintf(w, "Codex keeps Mew's hooks in hooks.json: Codex asks again to trust a plugin's hooks after every update of the plugin (measured with Codex 0.171.0), and the hooks.json entries stay trusted across Mew's updates. (`codex plugin add %s` installs the plugin anyway.)\n", install.PluginID)
		}
		reportInstall(w, env, st.agent, src, st.rep, dry)
		return
	}
	rep := st.rep
	switch {
	case st.mode == viaCodexPlugin:
		fmt.Fprintf(w, "Mew's plugin %s is enabled in Codex; it delivers Codex's events and Mew writes no file of Codex's. Codex asks again to trust its hooks after every update of the plugin.\n", install.PluginID)
	case st.plugin.Enabled:
		fmt.Fprintf(w, "Mew's plugin %s is installed through Claude Code; it delivers Claude Code's events and Mew writes no file of Claude Code's.\n", install.PluginID)
	case !rep.Wrote:
		fmt.Fprintf(w, "Mew's plugin is already at %s; nothing to change.\n", rep.Settings)
	case dry:
		fmt.Fprintf(w, "Would write Mew's plugin %s (a folder of its own that Claude Code loads by itself; no settings file changes).\n", rep.Settings)
	default:
		fmt.Fprintf(w, "Wrote Mew's plugin %s (a folder of its own; no settings file changed).\n", rep.Settings)
		fmt.Fprintln(w, "Claude Code sessions started from now on report to Mew; restart the ones already running.")
	}
	if st.remove.Wrote {
		if dry {
			fmt.Fprintf(w, "Would take Mew's hook entries out of %s: the plugin delivers the same events.\n", st.remove.Settings)
		} else {
			reportUninstall(w, st.remove, false)
		}
	}
}

// uninstallClaudePlugin takes out the plugin folder `mew install --plugin`
// wrote, and says how to take out a mew@mew installed through Claude Code
// (its own setting, which Mew leaves to it). false: it failed.
func uninstallClaudePlugin(stdout, stderr io.Writer, env install.Env, dry bool) bool {
	st := install.ClaudePluginState(env)
	ok := true
	if st.Copy != "" {
		rep, err := install.UninstallClaudePlugin(install.Options{Env: env, DryRun: dry})
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "mew uninstall: %v\n", err)
			ok = false
		case dry:
			fmt.Fprintf(stdout, "Would remove Mew's plugin %s.\n", rep.Settings)
		default:
			fmt.Fprintf(stdout, "Removed Mew's plugin %s.\n", rep.Settings)
			_ = install.ForgetInstalled(env.MewHome, rep.Settings)
		}
	}
	if st.Enabled {
		fmt.Fprintf(stdout, "Mew's plugin %s is installed through Claude Code, which keeps that in its own settings: `claude plugin uninstall %s` (or /plugin in Claude Code) takes it out.\n", install.PluginID, install.PluginID)
	}
	return ok
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/mew-dev/mew/install"
	"github.com/mew-dev/mew/internal/logfile"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/source/tmux"
	"github.com/mew-dev/mew/store"
	programs "github.com/mew-dev/mew/terminal" // a test type is named terminal
)

func init() {
	add(&command{name: "install", summary: "register Mew's hook with the agents (Claude Code, Codex, OpenCode, Gemini CLI, …)", help: installHelp, setup: installFlags})
	add(&command{
		name: "uninstall", summary: "take Mew's hook out of the agents' settings",
		help: "Takes Mew's hook out of each agent's settings (the person's own hooks stay) and removes Mew's own plugin files.",
		setup: func(fs *flag.FlagSet) runFunc {
			dry := fs.Bool("dry-run", false, "show the change and write nothing")
			agent := fs.String("agent", "", "only this agent: "+agentNames+" (default: all of them)")
			return func(args []string, stdout, stderr io.Writer) int {
				return runUninstall(*dry, *agent, args, stdout, stderr)
			}
		},
	})
	add(&command{
		name: "doctor", summary: "check that Mew can see your sessions (--bundle: a file for a bug report)",
		help:  "Checks Mew's hook, its state directory and the agents' settings; exits 1 when something stops Mew from working.",
		setup: doctorFlags,
	})
}

// agentsFor is the agents a command works on: the one --agent names, or
// every agent found installed (Claude Code when none is).
func agentsFor(name string, env install.Env) ([]install.Agent, error) {
	if name != "" {
		a, err := install.AgentNamed(name)
		return []install.Agent{a}, err
	}
	return install.Detect(env, programs.LookPath), nil
}

// agentNames lists the names --agent takes.
var agentNames = func() string {
	var names []string
	for _, a := range install.Agents {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}()

// agentHeader starts an agent's part of the output when there are several.
func agentHeader(w io.Writer, agents []install.Agent, a install.Agent) {
	if len(agents) > 1 {
		fmt.Fprintf(w, "%s:\n", a.Title)
	}
}

type installOptions struct {
	dry, yes, planOnly, plugin, statusline bool
	hook, agent                            string
}

func installFlags(fs *flag.FlagSet) runFunc {
	var o installOptions
	fs.BoolVar(&o.dry, "dry-run", false, "show the change and write nothing (the summary first, then each file's change in full)")
	fs.BoolVar(&o.yes, "yes", false, "make the changes listed without asking (for scripts)")
	fs.BoolVar(&o.planOnly, "plan", false, "only list the changes, write nothing (what the panel asks with)")
	fs.BoolVar(&o.plugin, "plugin", false, "Claude Code: install Mew's plugin into $CLAUDE_CONFIG_DIR/skills/mew (Claude Code loads it as "+install.PluginName+"@skills-dir) instead of editing settings.json")
	fs.StringVar(&o.hook, "hook", "", "the mew-hook binary to install (default: the one next to mew)")
	fs.StringVar(&o.agent, "agent", "", "only this agent: "+agentNames+" (default: every one found installed)")
	fs.BoolVar(&o.statusline, "statusline", false, "also make Mew Claude Code's statusline source: it runs your own statusline command and records usage and quota (asked when run in a terminal)")
	return func(args []string, stdout, stderr io.Writer) int { return runInstall(o, args, stdout, stderr) }
}

const installHelp = `Copies mew-hook to $MEW_HOME/bin and registers it with each agent found installed:
Claude Code in $CLAUDE_CONFIG_DIR/settings.json (~/.claude), or with --plugin as Mew's plugin in
$CLAUDE_CONFIG_DIR/skills/mew (no settings file changes); Codex in $CODEX_HOME/hooks.json (~/.codex),
Gemini CLI in ~/.gemini/settings.json; for OpenCode and Amp it writes a plugin file of its own
($XDG_CONFIG_HOME/opencode/plugins/mew.js, $XDG_CONFIG_HOME/amp/plugins/mew.ts; ~/.config by default).
It lists every change first and asks; without a terminal to ask on it changes nothing unless --yes.`

// installRun is one `mew install`: its options, the agents' steps and
// their plan, computed by dry runs before anything is written.
type installRun struct {
	installOptions
	env    install.Env
	src    string
	agents []install.Agent
	steps  []installStep
	plan   []install.Planned
	code   int
	stdout io.Writer
	stderr io.Writer
}

func runInstall(opt installOptions, args []string, stdout, stderr io.Writer) int {
	stdout = text.NewWriter(stdout) // paths and commands from settings.json
	r := &installRun{installOptions: opt, stdout: stdout, stderr: stderr}
	if code, ok := r.prepare(); !ok {
		return code
	}
	switch {
	case r.planOnly:
		if len(r.plan) == 0 {
			fmt.Fprintln(stdout, nothingToChange)
		} else {
			fmt.Fprintln(stdout, planHeading)
			install.WritePlan(stdout, r.plan)
		}
	case r.dry:
		r.dryRun()
	case len(r.plan) == 0:
		r.reportAll(false)
		r.statuslineStep()
	default:
		r.apply()
	}
	return r.code
}

// prepare finds the environment, the hook binary and the agents, and
// plans every step; false: stop with the code.
func (r *installRun) prepare() (int, bool) {
	var err error
	if r.env, err = install.EnvFromOS(); err != nil {
		fmt.Fprintf(r.stderr, "mew install: %v\n", err)
		return 1, false
	}
	r.src = r.hook
	if r.src == "" {
		exe, err := os.Executable()
		if err == nil {
			r.src, err = install.HookNextTo(exe)
		}
		if err != nil {
			fmt.Fprintf(r.stderr, "mew install: %v\n", err)
			return 1, false
		}
	}
	if r.agents, err = agentsFor(r.agent, r.env); err != nil {
		fmt.Fprintf(r.stderr, "mew install: %v\n", err)
		return 2, false
	}
	r.steps = planSteps(r.env, r.agents, r.plugin)
	// First the whole list, computed by dry runs; nothing is written
	// before the person said yes.
	for i := range r.steps {
		st := &r.steps[i]
		if err := st.run(r.src, true); err != nil {
			fmt.Fprintf(r.stderr, "mew install: %v\n", err)
			r.code = 1
			st.failed = true
			continue
		}
		r.plan = append(r.plan, st.plan()...)
	}
	return 0, true
}

// dryRun shows the change: the summary first, then each agent's part in
// full (the "hooks" values can run to hundreds of lines).
func (r *installRun) dryRun() {
	if len(r.plan) > 0 {
		fmt.Fprintln(r.stdout, "In short, `mew install` would:")
		install.WritePlan(r.stdout, r.plan)
		fmt.Fprintln(r.stdout)
		fmt.Fprintln(r.stdout, "In full:")
	}
	r.reportAll(true)
	if r.statusline && !installStatusline(r.env, true, r.stdout, r.stderr) {
		r.code = 1
	}
	fmt.Fprintln(r.stdout, "Nothing was written (--dry-run).")
}

// reportAll says each agent's part, after the hook binary's own line.
func (r *installRun) reportAll(dry bool) {
	for _, st := range r.steps {
		if st.failed {
			continue
		}
		reportHookCopy(r.stdout, st, r.src, dry)
	}
	for _, st := range r.steps {
		if !st.failed {
			agentHeader(r.stdout, r.agents, st.agent)
			st.report(r.stdout, r.env, r.src, dry)
		}
	}
}

// statuslineStep offers the statusline source on its own, after the hooks
// (off unless the person says yes, or --statusline): also when the hooks
// need no change.
func (r *installRun) statuslineStep() {
	for _, st := range r.steps {
		if st.agent.Name == install.Claude.Name && !st.failed {
			if offerStatusline(r.statusline, false, r.env, r.stdout) && !installStatusline(r.env, false, r.stdout, r.stderr) {
				r.code = 1
			}
			return
		}
	}
}

// apply asks (unless --yes) and makes the listed changes.
func (r *installRun) apply() {
	stdout := r.stdout
	fmt.Fprintln(stdout, planHeading)
	install.WritePlan(stdout, r.plan)
	if !r.yes {
		ok, err := askConsent(stdout)
		if err != nil {
			fmt.Fprintf(r.stderr, "mew install: nothing was changed: %v; run `mew install --yes` to make the changes listed above (`--dry-run` shows them in full)\n", err)
			r.code = 1
			return
		}
		if !ok {
			fmt.Fprintln(stdout, "Nothing was changed.")
			r.code = 1
			return
		}
	}
	var done []install.Planned
	for i := range r.steps {
		st := &r.steps[i]
		if st.failed {
			continue
		}
		if err := st.run(r.src, false); err != nil {
			// One agent's file refused leaves the others to do.
			fmt.Fprintf(r.stderr, "mew install: %v\n", err)
			r.code = 1
			st.failed = true
			continue
		}
		done = append(done, st.plan()...)
	}
	r.reportAll(false)
	r.statuslineStep()
	if err := install.RecordInstalled(r.env.MewHome, done, time.Now()); err != nil {
		fmt.Fprintf(r.stderr, "mew install: cannot keep the list of what was installed: %v\n", err)
	}
}

// reportHookCopy says, once and before the agents' parts, that the hook
// binary was (or would be) copied: it belongs to no one agent.
func reportHookCopy(w io.Writer, st installStep, src string, dry bool) {
	if !st.first || !st.rep.HookUpdated {
		return
	}
	if dry {
		fmt.Fprintf(w, "Would copy %s to %s.\n", src, st.rep.Hook)
	} else {
		fmt.Fprintf(w, "Installed the hook binary at %s.\n", st.rep.Hook)
	}
}

// reportInstall says what Install did for one agent.
func reportInstall(w io.Writer, env install.Env, a install.Agent, src string, rep install.Report, dry bool) {
	if rep.HookFiles {
		reportHookFiles(w, a, src, rep, dry)
		return
	}
	if rep.Plugin {
		reportPlugin(w, a, src, rep, dry)
		return
	}
	if dry {
		if !rep.Wrote {
			fmt.Fprintf(w, "Mew's hook is already registered in %s; nothing to change.\n", rep.Settings)
		} else {
			printChanges(w, rep)
		}
		return
	}
	if !rep.Wrote {
		fmt.Fprintf(w, "Mew's hook is already registered in %s; nothing to change.\n", rep.Settings)
	} else {
		added, removed := rep.Counts()
		fmt.Fprintf(w, "Registered Mew's hook for %d events in %s; only its \"hooks\" value changed", added, rep.Target())
		if removed > 0 {
			fmt.Fprintf(w, " (%d outdated entries of Mew's taken out)", removed)
		}
		fmt.Fprintln(w, ".")
		if rep.Backup != "" {
			fmt.Fprintf(w, "The previous version is saved as %s.\n", rep.Backup)
		}
	}
	switch {
	case a.Name == install.Codex.Name && !install.CodexTrusted(env):
		// Trusting a hook is the person's consent: Mew never writes it.
		fmt.Fprintln(w, "Codex asks once, at its next start, whether to trust Mew's hooks (\"Hooks need review\"): choose \"Trust all and continue\", or review them. Until then it runs none of them; `mew doctor` tells when they are trusted.")
	case rep.Wrote:
		fmt.Fprintf(w, "%s sessions started from now on report to Mew; restart the ones already running.\n", a.Title)
	}
}

func runUninstall(dryRun bool, agentName string, args []string, stdout, stderr io.Writer) int {
	stdout = text.NewWriter(stdout) // paths and commands from settings.json
	dry, agent := &dryRun, &agentName
	env, err := install.EnvFromOS()
	if err != nil {
		return fail(stderr, "mew uninstall", err)
	}
	agents := install.Agents
	if *agent != "" {
		a, err := install.AgentNamed(*agent)
		if err != nil {
			fmt.Fprintf(stderr, "mew uninstall: %v\n", err)
			return 2
		}
		agents = []install.Agent{a}
	}
	code, wrote := 0, false
	for _, a := range agents {
		agentHeader(stdout, agents, a)
		if a.Name == install.Claude.Name && !uninstallStatusline(env, *dry, stdout, stderr) {
			code = 1
		}
		rep, err := install.Uninstall(install.Options{Env: env, Agent: a, DryRun: *dry})
		if err != nil {
			fmt.Fprintf(stderr, "mew uninstall: %v\n", err)
			code = 1
			continue
		}
		reportUninstall(stdout, rep, *dry)
		wrote = wrote || rep.Wrote
		if rep.Wrote && !*dry {
			_ = install.ForgetInstalled(env.MewHome, rep.Settings)
		}
		if a.Name == install.Claude.Name && !uninstallClaudePlugin(stdout, stderr, env, *dry) {
			code = 1
		}
		if a.Name == install.Codex.Name && install.CodexPluginEnabled(env) {
			fmt.Fprintf(stdout, "Mew's plugin %s is installed through Codex, which keeps that in its config.toml: `codex plugin remove %s` takes it out.\n", install.PluginID, install.PluginID)
		}
	}
	if *dry {
		fmt.Fprintln(stdout, "Nothing was written (--dry-run).")
	} else if wrote {
		fmt.Fprintf(stdout, "The hook binary stays in %s for sessions still running; remove %s to delete all of Mew's data.\n", filepath.Dir(install.HookPath(env.MewHome)), env.MewHome)
	}
	return code
}

// reportPlugin says what Install did for an agent Mew reaches by plugin.
func reportPlugin(w io.Writer, a install.Agent, src string, rep install.Report, dry bool) {
	if len(rep.Also) > 0 {
		// The plugin's line below says nothing else changed: of the
		// person's own, which these are not.
		verb := "Wrote"
		if dry {
			verb = "Would write"
		}
		fmt.Fprintf(w, "%s %s, so that %s has nothing to fetch from npm before it starts (it would wait for the network otherwise); `mew uninstall` removes them while unchanged.\n",
			verb, strings.Join(rep.Also, " and "), a.Title)
	}
	noun := pluginNoun(rep)
	switch {
	case !rep.Wrote:
		fmt.Fprintf(w, "Mew's %s is already at %s; nothing to change.\n", noun, rep.Settings)
	case dry:
		fmt.Fprintf(w, "Would write Mew's %s %s (a file of its own; nothing else of %s changes).\n", noun, rep.Settings, a.Title)
	default:
		fmt.Fprintf(w, "Wrote Mew's %s %s (a file of its own; nothing else of %s changed).\n", noun, rep.Settings, a.Title)
		fmt.Fprintf(w, "%s sessions started from now on report to Mew; restart the ones already running.\n", a.Title)
	}
}

// pluginNoun is what Mew's file of its own is to the agent.
func pluginNoun(rep install.Report) string {
	if rep.PluginNoun != "" {
		return rep.PluginNoun
	}
	return "plugin"
}

// reportHookFiles says what Install did for an agent of hook files (Cline).
func reportHookFiles(w io.Writer, a install.Agent, src string, rep install.Report, dry bool) {
	switch {
	case !rep.Wrote:
		fmt.Fprintf(w, "Mew's hook files are already in %s; nothing to change.\n", rep.Settings)
	case dry:
		fmt.Fprintf(w, "Would write Mew's hook files %s (files of its own; nothing else of %s changes).\n", strings.Join(rep.Also, ", "), a.Title)
	default:
		fmt.Fprintf(w, "Wrote Mew's hook files %s (files of its own; nothing else of %s changed).\n", strings.Join(rep.Also, ", "), a.Title)
		fmt.Fprintf(w, "%s sessions started from now on report to Mew; restart the ones already running.\n", a.Title)
	}
}

// reportUninstall says what Uninstall did for one agent.
func reportUninstall(stdout io.Writer, rep install.Report, dry bool) {
	switch {
	case rep.HookFiles && !rep.Wrote:
		fmt.Fprintf(stdout, "Mew's hook files are not in %s; nothing to change.\n", rep.Settings)
		return
	case rep.HookFiles && dry:
		fmt.Fprintf(stdout, "Would remove Mew's hook files %s.\n", strings.Join(rep.Also, ", "))
		return
	case rep.HookFiles:
		fmt.Fprintf(stdout, "Removed Mew's hook files %s.\n", strings.Join(rep.Also, ", "))
		return
	case rep.Plugin && !rep.Wrote:
		fmt.Fprintf(stdout, "Mew's %s is not at %s; nothing to change.\n", pluginNoun(rep), rep.Settings)
		return
	case rep.Plugin && dry:
		fmt.Fprintf(stdout, "Would remove Mew's %s %s.\n", pluginNoun(rep), rep.Settings)
		return
	case rep.Plugin:
		fmt.Fprintf(stdout, "Removed Mew's %s %s.\n", pluginNoun(rep), rep.Settings)
		return
	}
	switch {
	case !rep.Wrote:
		fmt.Fprintf(stdout, "Mew's hook is not registered in %s; nothing to change.\n", rep.Settings)
	case rep.Removed && dry:
		fmt.Fprintf(stdout, "Would remove %s, which `mew install` created.\n", rep.Settings)
	case rep.Removed:
		fmt.Fprintf(stdout, "Removed %s, which `mew install` created.\n", rep.Settings)
	case rep.Restored && dry:
		fmt.Fprintf(stdout, "Would put %s back exactly as it was before `mew install`.\n", rep.Target())
	case rep.Restored:
		fmt.Fprintf(stdout, "Put %s back exactly as it was before `mew install`.\n", rep.Target())
	case dry:
		printChanges(stdout, rep)
	default:
		_, removed := rep.Counts()
		fmt.Fprintf(stdout, "Took %d entries of Mew's out of %s; only its \"hooks\" value changed.\n", removed, rep.Target())
		if rep.Backup != "" {
			fmt.Fprintf(stdout, "The previous version is saved as %s.\n", rep.Backup)
		}
	}
}

// target names the file that changes, and the symlink that led to it.
// printChanges shows, for a dry run, the entries that would be added and
// removed and the "hooks" value that would result.
func printChanges(w io.Writer, rep install.Report) {
	fmt.Fprintf(w, "Would change %s, only its \"hooks\" value:\n", rep.Target())
	for _, c := range rep.Changes {
		fmt.Fprintf(w, "  %s\n", c)
	}
	if rep.HooksAfter == nil {
		fmt.Fprintln(w, "and the \"hooks\" key would go (Mew's install added it).")
		return
	}
	fmt.Fprintln(w, "\"hooks\" would then be:")
	for _, line := range strings.Split(install.Render(rep.HooksAfter), "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
}

type doctorOptions struct {
	agent, bundle string
	local         bool
}

func doctorFlags(fs *flag.FlagSet) runFunc {
	var o doctorOptions
	fs.StringVar(&o.agent, "agent", "", "only this agent: "+agentNames+" (default: every one found installed)")
	fs.BoolVar(&o.local, "local", false, "this machine only, not the remotes of 'mew remote add' (how a remote's doctor is run)")
	fs.StringVar(&o.bundle, "bundle", "", "also write a tar.gz `file` to attach to a bug report: versions, this output, the log's tail, the rules, the session files; secrets and your home folder taken out")
	return func(args []string, stdout, stderr io.Writer) int { return runDoctor(o, args, stdout, stderr) }
}

func runDoctor(opt doctorOptions, args []string, stdout, stderr io.Writer) int {
	if opt.bundle != "" {
		return runDoctorBundle(opt, args, stdout, stderr)
	}
	stdout = text.NewWriter(stdout) // paths and commands from settings.json
	agent, local := &opt.agent, &opt.local
	env, err := install.EnvFromOS()
	if err != nil {
		return fail(stderr, "mew doctor", err)
	}
	agents, err := agentsFor(*agent, env)
	if err != nil {
		fmt.Fprintf(stderr, "mew doctor: %v\n", err)
		return 2
	}
	o := install.DoctorOptions{Env: env, Managed: install.ManagedSettings(runtime.GOOS), Agents: agents}
	if exe, err := os.Executable(); err == nil {
		o.HookSource, _ = install.HookNextTo(exe)
	}
	o.Cwd, _ = os.Getwd()
	// By absolute path, from the login shell's PATH too: the app runs
	// `mew doctor` with launchd's PATH, where no agent's CLI is. The CLIs'
	// `--version` runs get that PATH as well (`#!/usr/bin/env node`).
	o.Claude, _ = programs.LookPath("claude")
	o.Codex, _ = programs.LookPath("codex")
	o.LookPath = programs.LookPath
	os.Setenv("PATH", programs.SearchPath())
	findings := append(install.Doctor(o), install.DoctorInstalled(env.MewHome)...)
	if !*local {
		findings = append(findings, doctorRemotes(env.MewHome)...)
	}
	findings = append(findings, doctorRules(env.MewHome)...)
	findings = append(findings, doctorSessions(env.MewHome)...)
	findings = append(findings, doctorTmux()...)
	findings = append(findings, doctorNotify(env.MewHome)...)
	for _, f := range findings {
		fmt.Fprintf(stdout, "%-8s %s\n", f.Level, f.Text)
	}
	printLogTail(stdout, env.MewHome)
	if install.Failed(findings) {
		var titles []string
		for _, a := range agents {
			titles = append(titles, a.Title)
		}
		fmt.Fprintf(stdout, "Mew cannot see your %s sessions until the problems above are fixed.\n", strings.Join(titles, " and "))
		return 1
	}
	fmt.Fprintln(stdout, "Mew is set up.")
	return 0
}

// doctorTmux says when the tmux server Mew reads refuses it (another
// user's): its panes are then never read, and status shows none.
func doctorTmux() []install.Finding {
	socket := tmux.SocketFromEnv()
	if _, err := os.Stat(tmux.SocketPath(socket)); err != nil {
		return nil // no server to read
	}
	if _, err := programs.LookPath("tmux"); err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err := tmux.Exec{Socket: socket}.Run(ctx, "list-sessions", "-F", "#{session_id}")
	if err == nil || errors.Is(err, tmux.ErrNoServer) {
		return nil
	}
	return []install.Finding{{Level: install.Warning, Text: fmt.Sprintf("tmux: %v (its panes are not read)", err)}}
}

// doctorLogLines is how much of mew.log the doctor shows.
const doctorLogLines = 10

// printLogTail shows the end of mew.log: what the app and the long-running
// modes last said (a failed jump, a refused notification, which tmux).
func printLogTail(stdout io.Writer, mewHome string) {
	path := logfile.PathIn(mewHome)
	lines, err := logfile.Tail(path, doctorLogLines)
	switch {
	case err != nil:
		fmt.Fprintf(stdout, "Mew's log %s cannot be read: %v\n", path, err)
	case len(lines) == 0:
		fmt.Fprintf(stdout, "Mew's log %s is empty (the app and `mew watch` write it).\n", path)
	default:
		fmt.Fprintf(stdout, "The end of Mew's log (%s):\n", path)
		for _, l := range lines {
			fmt.Fprintf(stdout, "  %s\n", l)
		}
	}
}

// doctorSessions names the session files Mew cannot read (skipped by
// every reader: their sessions are not shown).
func doctorSessions(mewHome string) []install.Finding {
	_, errs := store.Store{Home: mewHome}.List()
	var out []install.Finding
	for _, e := range errs {
		out = append(out, install.Finding{Level: install.Warning, Text: fmt.Sprintf("a session file cannot be read, so its session is not shown: %v (remove it; the agent's next event writes a new one)", e)})
	}
	return out
}

// doctorRules reports the person's screen rules: each file refused (the
// embedded rules of that agent stay in force), or that they are in force.
func doctorRules(mewHome string) []install.Finding {
	dir := rules.Dir(mewHome)
	book, errs := rules.Load(dir)
	var out []install.Finding
	for _, e := range errs {
		out = append(out, install.Finding{Level: install.Warning, Text: fmt.Sprintf("screen rules refused (the embedded rules stay in force): %v", e)})
	}
	if len(errs) == 0 {
		files, _ := filepath.Glob(filepath.Join(dir, "*.toml"))
		what := "the embedded ones"
		if len(files) > 0 {
			what = fmt.Sprintf("the embedded ones and %d file(s) of yours in %s", len(files), dir)
		}
		out = append(out, install.Finding{Level: install.OK, Text: fmt.Sprintf("screen rules for %s: %s", strings.Join(book.Agents(), ", "), what)})
	}
	return out
}

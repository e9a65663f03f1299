package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/mew-dev/mew/install"
)

func init() {
	register("install", "register Mew's hook with Claude Code", runInstall)
	register("uninstall", "take Mew's hook out of Claude Code's settings", runUninstall)
	register("doctor", "check that Mew can see your sessions", runDoctor)
}

func runInstall(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("install", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dry := fl.Bool("dry-run", false, "show the change and write nothing")
	hook := fl.String("hook", "", "the mew-hook binary to install (default: the one next to mew)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: mew install [--dry-run] [--hook PATH]")
		fmt.Fprintln(stderr, "Copies mew-hook to $MEW_HOME/bin and registers it in $CLAUDE_CONFIG_DIR/settings.json (~/.claude).")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		fl.Usage()
		return 2
	}
	env, err := install.EnvFromOS()
	if err != nil {
		fmt.Fprintf(stderr, "mew install: %v\n", err)
		return 1
	}
	src := *hook
	if src == "" {
		exe, err := os.Executable()
		if err == nil {
			src, err = install.HookNextTo(exe)
		}
		if err != nil {
			fmt.Fprintf(stderr, "mew install: %v\n", err)
			return 1
		}
	}
	rep, err := install.Install(install.Options{Env: env, HookSource: src, DryRun: *dry})
	if err != nil {
		fmt.Fprintf(stderr, "mew install: %v\n", err)
		return 1
	}
	if *dry {
		if rep.HookUpdated {
			fmt.Fprintf(stdout, "Would copy %s to %s.\n", src, rep.Hook)
		}
		if !rep.Wrote {
			fmt.Fprintf(stdout, "Mew's hook is already registered in %s; nothing to change.\n", rep.Settings)
		} else {
			printChanges(stdout, rep)
		}
		fmt.Fprintln(stdout, "Nothing was written (--dry-run).")
		return 0
	}
	if rep.HookUpdated {
		fmt.Fprintf(stdout, "Installed the hook binary at %s.\n", rep.Hook)
	}
	if !rep.Wrote {
		fmt.Fprintf(stdout, "Mew's hook is already registered in %s; nothing to change.\n", rep.Settings)
		return 0
	}
	added, removed := count(rep.Changes)
	fmt.Fprintf(stdout, "Registered Mew's hook for %d events in %s; only its \"hooks\" value changed", added, target(rep))
	if removed > 0 {
		fmt.Fprintf(stdout, " (%d outdated entries of Mew's taken out)", removed)
	}
	fmt.Fprintln(stdout, ".")
	if rep.Backup != "" {
		fmt.Fprintf(stdout, "The previous version is saved as %s.\n", rep.Backup)
	}
	fmt.Fprintln(stdout, "Claude Code sessions started from now on report to Mew; restart the ones already running.")
	return 0
}

func runUninstall(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("uninstall", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dry := fl.Bool("dry-run", false, "show the change and write nothing")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: mew uninstall [--dry-run]")
		fmt.Fprintln(stderr, "Takes Mew's hook out of $CLAUDE_CONFIG_DIR/settings.json (~/.claude); the person's own hooks stay.")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		fl.Usage()
		return 2
	}
	env, err := install.EnvFromOS()
	if err != nil {
		fmt.Fprintf(stderr, "mew uninstall: %v\n", err)
		return 1
	}
	rep, err := install.Uninstall(install.Options{Env: env, DryRun: *dry})
	if err != nil {
		fmt.Fprintf(stderr, "mew uninstall: %v\n", err)
		return 1
	}
	switch {
	case !rep.Wrote:
		fmt.Fprintf(stdout, "Mew's hook is not registered in %s; nothing to change.\n", rep.Settings)
	case rep.Removed && *dry:
		fmt.Fprintf(stdout, "Would remove %s, which `mew install` created.\n", rep.Settings)
	case rep.Removed:
		fmt.Fprintf(stdout, "Removed %s, which `mew install` created.\n", rep.Settings)
	case rep.Restored && *dry:
		fmt.Fprintf(stdout, "Would put %s back exactly as it was before `mew install`.\n", target(rep))
	case rep.Restored:
		fmt.Fprintf(stdout, "Put %s back exactly as it was before `mew install`.\n", target(rep))
	case *dry:
		printChanges(stdout, rep)
	default:
		_, removed := count(rep.Changes)
		fmt.Fprintf(stdout, "Took %d entries of Mew's out of %s; only its \"hooks\" value changed.\n", removed, target(rep))
		if rep.Backup != "" {
			fmt.Fprintf(stdout, "The previous version is saved as %s.\n", rep.Backup)
		}
	}
	if *dry {
		fmt.Fprintln(stdout, "Nothing was written (--dry-run).")
	} else if rep.Wrote {
		fmt.Fprintf(stdout, "The hook binary stays in %s for sessions still running; remove %s to delete all of Mew's data.\n", filepath.Dir(install.HookPath(env.MewHome)), env.MewHome)
	}
	return 0
}

func count(changes []install.Change) (added, removed int) {
	for _, c := range changes {
		if c.Add {
			added++
		} else {
			removed++
		}
	}
	return added, removed
}

// target names the file that changes, and the symlink that led to it.
func target(rep install.Report) string {
	if rep.Link != "" {
		return fmt.Sprintf("%s (through the symlink %s)", rep.Settings, rep.Link)
	}
	return rep.Settings
}

// printChanges shows, for a dry run, the entries that would be added and
// removed and the "hooks" value that would result.
func printChanges(w io.Writer, rep install.Report) {
	fmt.Fprintf(w, "Would change %s, only its \"hooks\" value:\n", target(rep))
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

func runDoctor(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: mew doctor")
		fmt.Fprintln(stderr, "Checks Mew's hook, its state directory and Claude Code's settings; exits 1 when something stops Mew from working.")
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() > 0 {
		fl.Usage()
		return 2
	}
	env, err := install.EnvFromOS()
	if err != nil {
		fmt.Fprintf(stderr, "mew doctor: %v\n", err)
		return 1
	}
	o := install.DoctorOptions{Env: env, Managed: install.ManagedSettings(runtime.GOOS)}
	if exe, err := os.Executable(); err == nil {
		o.HookSource, _ = install.HookNextTo(exe)
	}
	o.Cwd, _ = os.Getwd()
	o.Claude, _ = exec.LookPath("claude")
	findings := install.Doctor(o)
	findings = append(findings, doctorRemotes(env.MewHome)...)
	for _, f := range findings {
		fmt.Fprintf(stdout, "%-8s %s\n", f.Level, f.Text)
	}
	if install.Failed(findings) {
		fmt.Fprintln(stdout, "Mew cannot see your Claude Code sessions until the problems above are fixed.")
		return 1
	}
	fmt.Fprintln(stdout, "Mew is set up.")
	return 0
}

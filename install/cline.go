package install

// Cline CLI 3.x runs no hook commands from a settings file: it runs every
// executable file of ~/.cline/hooks whose name is an event (TaskStart, or
// TaskStart.sh and other extensions it knows), with the event's payload on
// stdin, and reads a JSON answer from its stdout (it can cancel a tool
// call). Mew writes one tiny script per event, each marked as Mew's, that
// hands the payload to mew-hook and exits 0 with nothing on stdout; it
// takes out exactly those files again, and never touches a file of the
// same name that is not Mew's.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// Cline is registered through hook files of Mew's own.
var Cline = Agent{
	Name: session.AgentCline, Title: "Cline CLI", File: "hooks",
	Dir:    func(e Env) string { return filepath.Join(e.Home, ".cline") },
	Events: reducer.EventsFor(session.AgentCline), Program: "cline", HookFiles: true,
	Caveat: "Cline runs no hook for its approval dialog (tested with Cline 3.0.65): Mew reads it from its screen only (a tmux pane or `mew run`)",
}

// hookFileSource is Mew's script for one of Cline's events: mew-hook by
// the same command line as in the agents' settings files (a checked shell
// string), its output discarded, exit 0 whether or not mew-hook is there.
// Not exec: the script must exit 0 even where mew-hook cannot start.
func hookFileSource(a Agent, e Env, event string) ([]byte, error) {
	cmd, err := a.Command(e.MewHome, e.Home)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	fmt.Fprintf(&b, "# %s --agent %s: Cline runs this file for %s and Mew hears of it.\n", pluginMarker, a.Name, event)
	b.WriteString("# `mew uninstall --agent " + a.Name + "` removes it. Nothing on stdout: Cline reads its answer there.\n")
	b.WriteString(cmd + " >/dev/null 2>&1\n")
	b.WriteString("exit 0\n")
	return []byte(b.String()), nil
}

// hookFiles is Mew's file for each event, in the agent's hooks folder.
func hookFiles(a Agent, e Env) []string {
	var out []string
	for _, ev := range a.Events {
		out = append(out, filepath.Join(a.Path(e), ev))
	}
	return out
}

func installHookFiles(o Options) (Report, error) {
	a := o.agent()
	unlock, err := o.lock(true)
	if err != nil {
		return Report{}, err
	}
	defer unlock()
	dir := a.Path(o.Env)
	rep := Report{Settings: dir, HookFiles: true}
	type change struct {
		path string
		want []byte
	}
	var todo []change
	existing := 0
	for i, path := range hookFiles(a, o.Env) {
		want, err := hookFileSource(a, o.Env, a.Events[i])
		if err != nil {
			return Report{}, err
		}
		f, err := readPlugin(path)
		if err != nil {
			return Report{}, err
		}
		if f.exists && !f.ours {
			// Cline runs one file per name: the person's own hook stays.
			return Report{}, &FileError{Path: path, Err: errors.New("a hook file Mew did not write is there")}
		}
		if f.exists {
			existing++
		}
		if !bytes.Equal(f.data, want) {
			todo = append(todo, change{path, want})
			rep.Also = append(rep.Also, path)
		}
	}
	rep.Created, rep.Wrote = existing == 0, len(todo) > 0
	if o.HookSource != "" {
		if rep.Hook, rep.HookUpdated, err = copyHook(o.HookSource, o.MewHome, o.DryRun); err != nil {
			return rep, err
		}
	}
	if o.DryRun {
		return rep, nil
	}
	if len(todo) > 0 {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return rep, &FileError{Path: dir, Err: err}
		}
	}
	for _, c := range todo {
		// Executable: Cline runs the file itself.
		if err := store.WriteFileAtomic(c.path, c.want, 0o755); err != nil {
			return rep, &FileError{Path: c.path, Err: err}
		}
		if err := os.Chmod(c.path, 0o755); err != nil { // whatever the umask
			return rep, &FileError{Path: c.path, Err: err}
		}
	}
	return rep, nil
}

// uninstallHookFiles is Uninstall (which holds the lock) for HookFiles.
func uninstallHookFiles(o Options) (Report, error) {
	a := o.agent()
	rep := Report{Settings: a.Path(o.Env), HookFiles: true}
	var ours []string
	for _, path := range hookFiles(a, o.Env) {
		f, err := readPlugin(path)
		if err != nil {
			return rep, err
		}
		if f.exists && f.ours {
			ours = append(ours, path)
		}
	}
	// A file of the same name that is not Mew's is the person's: left alone.
	rep.Also = ours
	rep.Wrote, rep.Removed = len(ours) > 0, len(ours) > 0
	if o.DryRun {
		return rep, nil
	}
	for _, path := range ours {
		if err := os.Remove(path); err != nil {
			return rep, &FileError{Path: path, Err: err}
		}
	}
	// The folder stays: Mew cannot tell whether the person made it.
	return rep, nil
}

// checkHookFiles is the doctor's check of Cline's hook files.
func checkHookFiles(o DoctorOptions, a Agent, add addFunc) {
	var missing, stale, foreign []string
	for i, path := range hookFiles(a, o.Env) {
		want, err := hookFileSource(a, o.Env, a.Events[i])
		if err != nil {
			add(Problem, "%v", err)
			return
		}
		f, err := readPlugin(path)
		fi, statErr := os.Stat(path)
		switch {
		case err != nil:
			add(Problem, "cannot read %s's hook file: %v", a.Title, err)
			return
		case !f.exists:
			missing = append(missing, a.Events[i])
		case !f.ours:
			foreign = append(foreign, path)
		case !bytes.Equal(f.data, want) || statErr != nil || fi.Mode().Perm()&0o111 == 0:
			stale = append(stale, a.Events[i])
		}
	}
	switch {
	case len(foreign) > 0:
		add(Problem, "%s: not Mew's (Cline runs one file per event name); Mew's hook is not there for those events", strings.Join(foreign, ", "))
	case len(missing) == len(a.Events):
		add(Problem, "Mew's hook files for %s are not installed (%s); run %s", a.Title, a.Path(o.Env), installHint(a))
	case len(missing) > 0:
		add(Problem, "Mew's hook files for %s miss %s; run %s", a.Title, strings.Join(missing, ", "), installHint(a))
	case len(stale) > 0:
		add(Warning, "Mew's hook files for %s (%s) are from another mew (or MEW_HOME), or not executable; run %s to update them", a.Title, strings.Join(stale, ", "), installHint(a))
	default:
		add(OK, "Mew's hook files for %s are installed in %s (%s)", a.Title, a.Path(o.Env), strings.Join(a.Events, ", "))
	}
}

package install

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mew-dev/mew/internal/hookcli"
	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/internal/text"
)

// Level is how much a finding of `mew doctor` matters.
type Level int

const (
	OK      Level = iota
	Warning       // worth knowing; Mew still works
	Problem       // stops Mew from working
)

func (l Level) String() string {
	switch l {
	case OK:
		return "ok"
	case Warning:
		return "warning"
	default:
		return "problem"
	}
}

// Finding is one line of the doctor's report.
type Finding struct {
	Level Level
	Text  string
}

// DoctorOptions are the doctor's inputs.
type DoctorOptions struct {
	Env
	// HookSource is the mew-hook shipped with this mew ("" when not found),
	// which the installed one should be a copy of.
	HookSource string
	// Cwd is where project settings (.claude/settings*.json) are looked for.
	Cwd string
	// Managed are the managed-policy settings files to check.
	Managed []string
	// Claude is the claude executable ("" when not on PATH).
	Claude string
	// VersionTimeout bounds `claude --version` and `codex --version`.
	VersionTimeout time.Duration
	// Agents are the agents to check; nil checks Claude Code alone.
	Agents []Agent
	// Codex is the codex executable ("" when not on PATH).
	Codex string
	// LookPath finds the other agents' executables (exec.LookPath); nil
	// skips their version checks.
	LookPath func(string) (string, error)
}

// ManagedSettings are the managed-policy settings files of Claude Code on
// goos; policy there can turn every user hook off.
func ManagedSettings(goos string) []string {
	switch goos {
	case "darwin":
		return []string{"/Library/Application Support/ClaudeCode/managed-settings.json"}
	case "linux":
		return []string{"/etc/claude-code/managed-settings.json"}
	}
	return nil
}

// Failed says whether any finding stops Mew from working.
func Failed(fs []Finding) bool {
	for _, f := range fs {
		if f.Level == Problem {
			return true
		}
	}
	return false
}

// Doctor checks what Mew needs: its hook registered for every event and
// pointing at an existing, current binary; a writable state directory; no
// setting that turns hooks off; Claude Code's session registry; and Claude
// Code's version when it is on PATH.
func Doctor(o DoctorOptions) []Finding {
	var out []Finding
	add := func(l Level, format string, args ...any) {
		out = append(out, Finding{Level: l, Text: fmt.Sprintf(format, args...)})
	}
	agents := o.Agents
	if agents == nil {
		agents = []Agent{Claude}
	}
	for i, a := range agents {
		var want Want
		switch {
		case a.Plugin != nil:
			checkPlugin(o, a, add)
		case a.HookFiles:
			checkHookFiles(o, a, add)
		case a.Name == Claude.Name && checkClaudePlugin(o, add),
			a.Name == Codex.Name && checkCodexPlugin(o, add):
			// Mew's plugin delivers the agent's events.
		default:
			var err error
			if want, err = a.Want(o.Env); err != nil {
				add(Problem, "%v", err)
				return out
			}
			if a.Name == Claude.Name && o.Claude != "" {
				want.Events = eventsKnown(want.Events, newerEvents(a), AgentVersion(o.Claude, versionTimeout(o)))
			}
			checkHooks(o, a, want, add)
		}
		if i == 0 {
			checkBinary(o, add)
			checkStateDir(o.MewHome, add)
		}
		for _, c := range a.Checks {
			c.run(o, a, want, add)
		}
		if a.Caveat != "" {
			add(Warning, "%s", a.Caveat)
		}
	}
	return out
}

// A Check is one of the doctor's checks that only some agents need; each
// agent lists its own (Agent.Checks), in the order they are said.
type Check int

const (
	// CheckVersion runs the agent's --version against Agent.Tested.
	CheckVersion Check = iota + 1
	// CheckHooksEnabled: no setting (the person's, a project's, managed
	// policy) turns Claude Code's hooks off.
	CheckHooksEnabled
	// CheckRegistry: Claude Code's session registry is there.
	CheckRegistry
	// CheckStatusline: Mew's statusline command, when installed, is current.
	CheckStatusline
	// CheckEventsKnown: no registered event is unknown to the installed
	// Claude Code (install/versions.go).
	CheckEventsKnown
	// CheckCodexTrust: Codex will run Mew's hooks (install/doctor_codex.go).
	CheckCodexTrust
	// CheckOffline: OpenCode will not go to the npm registry before it
	// starts (install/opencode_offline.go).
	CheckOffline
	// CheckHooksOn: Gemini CLI's settings do not turn hooks off.
	CheckHooksOn
	// CheckAgyHooks: Antigravity CLI's own list of the hooks it loads
	// (`agy -p /hooks`) has Mew's events.
	CheckAgyHooks
)

func (c Check) run(o DoctorOptions, a Agent, want Want, add addFunc) {
	switch c {
	case CheckVersion:
		checkVersion(o, a.Title, o.program(a), a.Tested, add)
	case CheckHooksEnabled:
		checkDisabled(o, add)
	case CheckRegistry:
		reg := filepath.Join(o.ClaudeDir, "sessions")
		if fi, err := os.Stat(reg); err == nil && fi.IsDir() {
			add(OK, "Claude Code's session registry is at %s", reg)
		} else {
			add(Warning, "Claude Code's session registry %s is not there (Claude Code has not run yet, or is older than 2.1); Mew goes by hooks alone", reg)
		}
	case CheckStatusline:
		checkStatusline(o.Env, add)
	case CheckEventsKnown:
		checkEventsKnown(o, a, add)
	case CheckCodexTrust:
		checkCodexTrust(o, want, add)
	case CheckOffline:
		if f, err := planOffline(filepath.Dir(a.Dir(o.Env))); err == nil && (f.needsNetwork || f.makeModules || f.writeLock) {
			add(Warning, "%s will install packages from the npm registry before it starts (its configuration folder %s has dependencies not in its package-lock.json); offline it waits up to minutes", a.Title, filepath.Dir(a.Dir(o.Env)))
		}
	case CheckHooksOn:
		if doc, ok := readForDoctor(a.Path(o.Env)); ok && doc.hooksOff {
			add(Problem, "%s turns hooks off (\"hooksConfig\": {\"enabled\": false}), so %s runs none of Mew's", a.Path(o.Env), a.Title)
		}
	case CheckAgyHooks:
		checkAgyHooks(o, o.program(a), add)
	}
}

// program is the agent's executable for its version check: the ones the
// options name (Claude Code's, Codex's), else the one on PATH ("" for none).
func (o DoctorOptions) program(a Agent) string {
	switch a.Program {
	case Claude.Program:
		return o.Claude
	case Codex.Program:
		return o.Codex
	}
	if o.LookPath == nil {
		return ""
	}
	exe, _ := o.LookPath(a.Program)
	return exe
}

type addFunc func(Level, string, ...any)

// installHint is the command that registers Mew's hook with a.
func installHint(a Agent) string {
	if a.Name == Claude.Name {
		return "`mew install`"
	}
	return "`mew install --agent " + a.Name + "`"
}

func checkHooks(o DoctorOptions, a Agent, want Want, add addFunc) {
	f, err := readSettings(a.Path(o.Env))
	if err != nil {
		add(Problem, "cannot read %s's hooks: %v", a.Title, err)
		return
	}
	if !f.exists {
		add(Problem, "%s does not exist, so Mew's hook is not registered with %s; run %s", f.path, a.Title, installHint(a))
		return
	}
	doc, err := parseSettings(f.data, a)
	if err != nil {
		add(Problem, "%s: %v; %s cannot read it either", f.path, err, a.Title)
		return
	}
	var missing, wrong, twice []string
	other := map[string]bool{}   // Mew commands other than this mew's
	changed := map[string]bool{} // what another program changed in Mew's entries
	for _, event := range want.Events {
		n := 0
		for _, e := range doc.entries[event] {
			if e.command == want.Command {
				if what := entryDrift(e, want); what != "" {
					changed[what] = true
				}
			}
			switch {
			case e.command == want.Command && e.firesAlways:
				n++
			case e.command != want.Command && IsMewCommand(e.command):
				other[e.command] = true
			}
		}
		switch {
		case n == 0 && len(other) > 0:
			wrong = append(wrong, event)
		case n == 0:
			missing = append(missing, event)
		case n > 1:
			twice = append(twice, event)
		}
	}
	hint := installHint(a)
	switch {
	case len(wrong) > 0 && onlyOlderForm(other, want.Command):
		// Same hook binary, written by a mew from before hookcli.RunEnv:
		// it works, each call just starts slower.
		add(Warning, "Mew's hook in %s is an older mew's command line (%s, without %s, so each call starts slower); run %s to update it", f.path, strings.Join(sortedKeys(other), ", "), hookcli.RunEnv, hint)
	case len(wrong) > 0:
		add(Problem, "Mew's hook in %s runs %s, but this mew (MEW_HOME %s) needs %s; run %s", f.path, strings.Join(sortedKeys(other), ", "), o.MewHome, want.Command, hint)
	case len(missing) == len(want.Events):
		add(Problem, "Mew's hook is not registered in %s; run %s", f.path, hint)
	case len(missing) > 0:
		add(Problem, "Mew's hook is missing for %s in %s; run %s", strings.Join(missing, ", "), f.path, hint)
	default:
		add(OK, "Mew's hook is registered for all %d events in %s", len(want.Events), f.path)
	}
	if len(changed) > 0 {
		add(Problem, "Mew's entries in %s were changed by another program (%s); run %s to put them back", f.path, strings.Join(sortedKeys(changed), ", "), hint)
	}
	if len(twice) > 0 {
		add(Warning, "Mew's hook is registered more than once for %s in %s; %s tidies that", strings.Join(twice, ", "), f.path, hint)
	}
}

func checkBinary(o DoctorOptions, add addFunc) {
	p := HookPath(o.MewHome)
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		add(Problem, "the hook binary %s is missing; run `mew install`", p)
		return
	case err != nil:
		add(Problem, "cannot check the hook binary: %v", err)
		return
	case !fi.Mode().IsRegular() || fi.Mode().Perm()&0o100 == 0:
		add(Problem, "the hook binary %s is not an executable file; run `mew install`", p)
		return
	}
	if o.HookSource == "" {
		add(Warning, "the hook binary %s is there, but this mew has no mew-hook beside it to compare with", p)
		return
	}
	a, errA := fileDigest(p)
	b, errB := fileDigest(o.HookSource)
	switch {
	case errA != nil || errB != nil:
		add(Warning, "cannot compare the hook binary with %s: %v", o.HookSource, errors.Join(errA, errB))
	case a != b:
		add(Warning, "the hook binary %s is not the one that ships with this mew (%s); run `mew install` to update it", p, o.HookSource)
	default:
		add(OK, "the hook binary %s is current", p)
	}
}

func fileDigest(p string) ([32]byte, error) {
	f, err := privfile.OpenRegular(p)
	if err != nil {
		return [32]byte{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return [32]byte{}, err
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// probeSize is what writeProbe writes: a few session records' worth.
const probeSize = 64 << 10

// writeProbe writes probeSize real bytes in dir and syncs them, then
// removes the file: an empty file needs no space, so creating one says
// nothing of a full disk (and delayed allocation reports ENOSPC only at
// the sync).
func writeProbe(dir string) error {
	f, err := os.CreateTemp(dir, ".mew-doctor-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(make([]byte, probeSize))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// checkStateDir checks the hook can write session files: in the sessions
// directory, or, before the first event, in the nearest directory that
// exists (the hook creates the rest).
func checkStateDir(mewHome string, add addFunc) {
	dir := filepath.Join(mewHome, "sessions")
	fi, err := os.Stat(dir)
	if err == nil && fi.IsDir() {
		if err := writeProbe(dir); err != nil {
			add(Problem, "the state directory %s is not writable: %v", dir, err)
			return
		}
		add(OK, "the state directory %s is writable", dir)
		return
	}
	if err == nil {
		add(Problem, "%s is not a directory; Mew keeps its session files there", dir)
		return
	}
	parent := filepath.Dir(dir)
	for {
		if _, err := os.Stat(parent); err == nil || filepath.Dir(parent) == parent {
			break
		}
		parent = filepath.Dir(parent)
	}
	if err := unix.Access(parent, unix.W_OK|unix.X_OK); err != nil {
		add(Problem, "the state directory %s cannot be created: %s is not writable", dir, parent)
		return
	}
	add(OK, "the state directory %s will be created at the first hook event", dir)
}

func checkDisabled(o DoctorOptions, add addFunc) {
	user := o.SettingsPath()
	if doc, ok := readForDoctor(user); ok && doc.disableAll {
		add(Problem, "%s has \"disableAllHooks\": true, so Claude Code runs no hooks at all", user)
	}
	for _, p := range o.Managed {
		doc, ok := readForDoctor(p)
		switch {
		case !ok:
		case doc.disableAll:
			add(Problem, "the managed policy %s turns all hooks off (\"disableAllHooks\")", p)
		case doc.managedOnly:
			add(Problem, "the managed policy %s allows only managed hooks (\"allowManagedHooksOnly\"), so Mew's hook does not run", p)
		}
	}
	if o.Cwd == "" {
		return
	}
	for _, name := range []string{"settings.json", "settings.local.json"} {
		p := filepath.Join(o.Cwd, ".claude", name)
		data, err := privfile.ReadFile(p, maxSettings)
		if err != nil {
			continue
		}
		doc, err := parseSettings(data, Claude)
		switch {
		case err != nil:
			add(Warning, "the project settings %s: %v; Claude Code may not start here", p, err)
		case doc.disableAll:
			add(Warning, "the project settings %s turn hooks off (\"disableAllHooks\"): Mew won't see sessions started in %s", p, o.Cwd)
		}
	}
}

func readForDoctor(p string) (settingsDoc, bool) {
	data, err := os.ReadFile(p)
	if err != nil {
		return settingsDoc{}, false
	}
	doc, err := parseSettings(data, Claude)
	return doc, err == nil
}

// checkVersion runs `exe --version` (exe "" when the agent is not on PATH).
func checkVersion(o DoctorOptions, title, exe, tested string, add addFunc) {
	if exe == "" {
		add(Warning, "%s is not on PATH, so its version is unknown (Mew is tested with %s %s)", strings.ToLower(strings.Fields(title)[0]), title, tested)
		return
	}
	timeout := o.VersionTimeout
	if timeout <= 0 {
		timeout = 3 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "--version") // an argv: no shell
	cmd.WaitDelay = time.Second                       // a child holding the pipe can't stall us
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	ver := strings.TrimSpace(firstLine(stdout.String()))
	switch {
	case ctx.Err() != nil:
		add(Warning, "`%s --version` did not answer within %v", exe, timeout)
	case err != nil || ver == "":
		add(Warning, "`%s --version` failed: %v", exe, err)
	default:
		add(OK, "%s %s (%s)", title, text.Clip(ver, 81), exe)
	}
}

func firstLine(s string) string {
	s = strings.TrimLeft(s, "\r\n")
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// settingsDoc is what the doctor reads from a settings file.
type settingsDoc struct {
	disableAll  bool
	managedOnly bool
	hooksOff    bool                    // Gemini CLI's "hooksConfig": {"enabled": false}
	entries     map[string][]foundEntry // Mew's or not, by event
}

type foundEntry struct {
	command     string
	firesAlways bool // its group's matcher matches everything (or the event has none)
	timeout     *float64
}

// parseSettings reads a settings document leniently: odd shapes the doctor
// skips rather than fails on; only invalid JSON is an error.
func parseSettings(data []byte, a Agent) (settingsDoc, error) {
	doc := settingsDoc{entries: map[string][]foundEntry{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return doc, nil
	}
	if err := validate(data); err != nil {
		return doc, err
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return doc, ErrNotObject
	}
	_ = json.Unmarshal(top["disableAllHooks"], &doc.disableAll)
	_ = json.Unmarshal(top["allowManagedHooksOnly"], &doc.managedOnly)
	var hc struct {
		Enabled *bool `json:"enabled"`
	}
	if json.Unmarshal(top["hooksConfig"], &hc) == nil && hc.Enabled != nil && !*hc.Enabled {
		doc.hooksOff = true
	}
	var hooks map[string]json.RawMessage
	if json.Unmarshal(top["hooks"], &hooks) != nil {
		return doc, nil
	}
	for event, raw := range hooks {
		var groups []json.RawMessage
		if json.Unmarshal(raw, &groups) != nil {
			continue
		}
		for _, g := range groups {
			var group struct {
				Matcher *json.RawMessage  `json:"matcher"`
				Hooks   []json.RawMessage `json:"hooks"`
			}
			if json.Unmarshal(g, &group) != nil {
				continue
			}
			takes := usesMatcher(event)
			if a.Name == Codex.Name {
				takes = takesMatcher(event)
			}
			always := !takes || group.Matcher == nil
			if group.Matcher != nil {
				var m string
				always = always || json.Unmarshal(*group.Matcher, &m) == nil && (m == "" || m == "*")
			}
			for _, h := range group.Hooks {
				var e struct {
					Type    string   `json:"type"`
					Command string   `json:"command"`
					Timeout *float64 `json:"timeout"`
				}
				if json.Unmarshal(h, &e) != nil || e.Command == "" || (e.Type != "" && e.Type != "command") {
					continue
				}
				doc.entries[event] = append(doc.entries[event], foundEntry{command: e.Command, firesAlways: always, timeout: e.Timeout})
			}
		}
	}
	return doc, nil
}

// onlyOlderForm says whether every other Mew command is want without the
// RunEnv prefix, i.e. what an older mew installed for the same MEW_HOME.
func onlyOlderForm(other map[string]bool, want string) bool {
	older, ok := strings.CutPrefix(want, hookcli.RunEnv+" ")
	if !ok || len(other) == 0 {
		return false
	}
	for c := range other {
		if strings.TrimSpace(c) != older {
			return false
		}
	}
	return true
}

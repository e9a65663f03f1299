package install

// Mew as a Claude Code plugin, so that installing it edits no settings file.
//
// The repository is a Claude Code marketplace named "mew" holding one
// plugin, "mew" (plugins/mew): a person can `/plugin marketplace add
// mew-dev/mew` and `/plugin install mew@mew`, and Claude Code records that
// in its own settings (enabledPlugins; measured with Claude Code 2.1.328:
// `claude plugin marketplace add` writes extraKnownMarketplaces and
// `claude plugin install` enabledPlugins into ~/.claude/settings.json,
// re-serialising the whole file). `mew install --plugin` writes the same
// plugin instead into $CLAUDE_CONFIG_DIR/skills/mew, a folder Claude Code
// loads by itself at start ("mew@skills-dir"), so nothing of the person's
// changes. When both are there Claude Code loads only the installed
// mew@mew ("the name is already taken by an installed plugin, which takes
// precedence", measured): one set of events either way.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/mew-dev/mew/plugins"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// The plugin's identity, name@marketplace. Claude Code and Codex key
// installs by it: renaming either half, or moving the repository, breaks
// every existing install. Never change them.
const (
	PluginName      = "mew"
	MarketplaceName = "mew"
	PluginID        = PluginName + "@" + MarketplaceName
)

// pluginShim is the plugin's hook script, relative to the plugin's root.
const pluginShim = "hooks/mew-hook.sh"

// PluginHooksFile is the plugin's hooks file for agent a, relative to the
// plugin's root: hooks/hooks.json for Claude Code (its default place),
// hooks/hooks-codex.json for Codex (named by .codex-plugin/plugin.json).
func PluginHooksFile(a Agent) string {
	if a.Name == session.AgentClaude {
		return "hooks/hooks.json"
	}
	return "hooks/hooks-" + a.Name + ".json"
}

// PluginHookCommand is the command the plugin's hooks run for agent a
// (the agent runs it with sh -c): the mew-hook `mew install` put in
// $MEW_HOME/bin, exec'd by that shell itself with what the shim would set
// (a second shell cost a hook ~40 % more); where there is none, the shim,
// through the variable the agent sets to the plugin's folder, which looks
// further and stays silent without one. The shim is run by sh, so the
// script needs no execute bit (an embedded or cached copy may have none).
func PluginHookCommand(a Agent) string {
	root, args := `${CLAUDE_PLUGIN_ROOT}`, ``
	if a.Name != session.AgentClaude {
		root, args = `$PLUGIN_ROOT`, ` --agent=`+a.Name
	}
	return `h="${MEW_HOME:-$HOME/.mew}/bin/mew-hook"; [ -x "$h" ] && MEW_HOOK_VIA=plugin GOMAXPROCS=1 exec "$h"` + args +
		` >/dev/null 2>&1; exec sh "` + root + `/` + pluginShim + `"` + args
}

// PluginHooks is the content of the plugin's hooks file for a: Mew's
// entries for every event the reducer knows for a, in the shape `mew
// install` writes into settings files.
func PluginHooks(a Agent) ([]byte, error) {
	want, err := a.Want(Env{MewHome: "/", Home: "/"})
	if err != nil {
		return nil, err
	}
	want.Command = PluginHookCommand(a)
	ed, err := Edit(nil, want)
	if err != nil {
		return nil, err
	}
	return ed.Doc, nil
}

// ClaudePluginCopy is where `mew install --plugin` puts the plugin: a
// folder of Mew's own in Claude Code's skills folder.
func ClaudePluginCopy(e Env) string { return filepath.Join(e.ClaudeDir, "skills", PluginName) }

// claudeCopyFiles are the plugin's files the copy holds (slash paths
// relative to the plugin's root), sorted: what Claude Code reads of it.
func claudeCopyFiles() []string {
	files := []string{".claude-plugin/plugin.json", PluginHooksFile(Claude), pluginShim, "README.md"}
	sort.Strings(files)
	return files
}

// embeddedPluginFile is one file of the embedded plugin.
func embeddedPluginFile(name string) ([]byte, error) {
	return fs.ReadFile(plugins.FS, path.Join(plugins.Mew, name))
}

// ClaudePlugin is how Mew's Claude Code plugin is installed.
type ClaudePlugin struct {
	// Enabled: mew@mew is enabled in Claude Code's user settings (the
	// person's /plugin install, or `claude plugin install mew@mew`).
	Enabled bool
	// Copy is the folder `mew install --plugin` wrote, "" when there is
	// none; Current says it holds exactly this mew's plugin.
	Copy    string
	Current bool
}

// Active says whether Claude Code loads Mew's plugin.
func (p ClaudePlugin) Active() bool { return p.Enabled || p.Copy != "" }

// ClaudePluginState reads (never writes) how the plugin is installed.
func ClaudePluginState(e Env) ClaudePlugin {
	var p ClaudePlugin
	if f, err := readSettings(e.SettingsPath()); err == nil && f.exists {
		var doc struct {
			EnabledPlugins map[string]json.RawMessage `json:"enabledPlugins"`
		}
		if json.Unmarshal(f.data, &doc) == nil {
			p.Enabled = string(bytes.TrimSpace(doc.EnabledPlugins[PluginID])) == "true"
		}
	}
	dir := ClaudePluginCopy(e)
	if isMewPluginCopy(dir) {
		p.Copy = dir
		p.Current = copyCurrent(dir)
	}
	return p
}

// isMewPluginCopy says whether dir holds a plugin Mew wrote: a manifest
// naming the plugin mew, next to Mew's hook script.
func isMewPluginCopy(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, ".claude-plugin", "plugin.json"))
	if err != nil {
		return false
	}
	var m struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(data, &m) != nil || m.Name != PluginName {
		return false
	}
	fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(pluginShim)))
	return err == nil && fi.Mode().IsRegular()
}

// copyCurrent says whether every file of the copy is this mew's.
func copyCurrent(dir string) bool {
	for _, name := range claudeCopyFiles() {
		want, err := embeddedPluginFile(name)
		if err != nil {
			return false
		}
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(got, want) {
			return false
		}
	}
	return true
}

// InstallClaudePlugin copies the hook binary and writes the plugin into
// Claude Code's skills folder (Report.Settings is that folder). Nothing is
// written when mew@mew is already enabled: Claude Code would not load the
// copy (the installed plugin takes its name). A folder of that name that
// Mew did not write is refused.
func InstallClaudePlugin(o Options) (Report, error) {
	dir := ClaudePluginCopy(o.Env)
	rep := Report{Settings: dir, Plugin: true}
	var err error
	if o.HookSource != "" {
		if rep.Hook, rep.HookUpdated, err = copyHook(o.HookSource, o.MewHome, o.DryRun); err != nil {
			return rep, err
		}
	}
	st := ClaudePluginState(o.Env)
	if st.Enabled {
		return rep, nil
	}
	if st.Copy == "" {
		if _, err := os.Lstat(dir); err == nil {
			return rep, &FileError{Path: dir, Err: errors.New("a folder of this name is there and is not Mew's plugin")}
		}
	} else if st.Current {
		return rep, nil
	}
	rep.Wrote, rep.Created = true, st.Copy == ""
	if o.DryRun {
		return rep, nil
	}
	unlock, err := o.lock(true)
	if err != nil {
		return rep, err
	}
	defer unlock()
	if skills := filepath.Dir(dir); !pathExists(skills) {
		// Claude Code's skills folder is Mew's making: uninstall takes it
		// away again when it is left empty.
		if err := os.MkdirAll(o.MewHome, 0o700); err == nil {
			_ = store.WriteFileAtomic(filepath.Join(o.MewHome, skillsCreatedName), []byte(skills), 0o600)
		}
	}
	for _, name := range claudeCopyFiles() {
		data, err := embeddedPluginFile(name)
		if err != nil {
			return rep, err
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return rep, &FileError{Path: dir, Err: err}
		}
		if err := store.WriteFileAtomic(p, data, 0o644); err != nil {
			return rep, &FileError{Path: dir, Err: err}
		}
	}
	return rep, nil
}

// UninstallClaudePlugin removes the copy `mew install --plugin` wrote:
// Mew's files, then its folders if nothing else is left in them. A plugin
// installed through Claude Code (mew@mew enabled) stays: that is Claude
// Code's setting, and `claude plugin uninstall mew@mew` takes it out.
func UninstallClaudePlugin(o Options) (Report, error) {
	dir := ClaudePluginCopy(o.Env)
	rep := Report{Settings: dir, Plugin: true}
	if !isMewPluginCopy(dir) {
		return rep, nil
	}
	rep.Wrote, rep.Removed = true, true
	if o.DryRun {
		return rep, nil
	}
	unlock, err := o.lock(false)
	if err != nil {
		return rep, err
	}
	defer unlock()
	dirs := map[string]bool{dir: true}
	for _, name := range claudeCopyFiles() {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return rep, &FileError{Path: dir, Err: err}
		}
		for d := filepath.Dir(p); d != dir; d = filepath.Dir(d) {
			dirs[d] = true
		}
	}
	// Deepest first; a folder with the person's files in it stays.
	var order []string
	for d := range dirs {
		order = append(order, d)
	}
	sort.Slice(order, func(i, j int) bool { return len(order[i]) > len(order[j]) })
	for _, d := range order {
		_ = os.Remove(d)
	}
	if _, err := os.Stat(dir); err == nil {
		return rep, fmt.Errorf("took Mew's plugin files out of %s; the folder stays because it holds files that are not Mew's", dir)
	}
	// The skills folder, when install made it and nothing else is in it.
	mark := filepath.Join(o.MewHome, skillsCreatedName)
	if made, err := os.ReadFile(mark); err == nil && string(made) == filepath.Dir(dir) {
		_ = os.Remove(filepath.Dir(dir)) // only when empty
		_ = os.Remove(mark)
	}
	return rep, nil
}

// skillsCreatedName, in $MEW_HOME, names the Claude Code skills folder
// `mew install --plugin` created.
const skillsCreatedName = "claude-skills-created"

func pathExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

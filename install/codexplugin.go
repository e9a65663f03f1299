package install

// Mew's Codex plugin (plugins/mew/.codex-plugin, hooks/hooks-codex.json)
// is there for people who install it with Codex's own `codex plugin add
// mew@mew`; `mew install` keeps hooks.json as Codex's default. Measured
// with Codex 0.171.0 (e2e TestCodexPluginTrustAcrossUpdate): a plugin's
// hooks are trusted under "mew@mew:hooks/hooks-codex.json:<event>:0:0"
// with a trusted_hash of the hook and a trusted_content_hash of the
// plugin's content. A new version of the plugin with the very same hooks
// file changes the content hash, and Codex asks again ("Hooks need review:
// 10 hooks are new or changed") and runs none of them until answered: every
// Mew release would. hooks.json's command never changes between releases,
// so its trust lasts.

import (
	"path/filepath"

	"github.com/BurntSushi/toml"
)

// CodexPluginEnabled says whether mew@mew is enabled in Codex's
// config.toml ([plugins."mew@mew"] enabled = true, what `codex plugin add`
// writes).
func CodexPluginEnabled(e Env) bool {
	var cfg struct {
		Plugins map[string]struct {
			Enabled *bool `toml:"enabled"`
		} `toml:"plugins"`
	}
	if _, err := toml.DecodeFile(filepath.Join(e.CodexHome, "config.toml"), &cfg); err != nil {
		return false
	}
	p, ok := cfg.Plugins[PluginID]
	return ok && (p.Enabled == nil || *p.Enabled)
}

// InstallHookOnly copies the hook binary and writes nothing of the
// agent's: for an agent whose plugin, installed through the agent itself,
// already runs mew-hook.
func InstallHookOnly(o Options) (Report, error) {
	rep := Report{Plugin: true}
	if o.HookSource == "" {
		return rep, nil
	}
	var err error
	rep.Hook, rep.HookUpdated, err = copyHook(o.HookSource, o.MewHome, o.DryRun)
	return rep, err
}

// checkCodexPlugin reports Mew's Codex plugin when it is enabled, and says
// whether it alone delivers Codex's events (hooks.json has no entry of
// Mew's).
func checkCodexPlugin(o DoctorOptions, add addFunc) bool {
	if !CodexPluginEnabled(o.Env) {
		return false
	}
	add(OK, "Mew's plugin %s is enabled in Codex (%s); Codex asks again to trust its hooks after every update of the plugin", PluginID, filepath.Join(o.CodexHome, "config.toml"))
	f, err := readSettings(Codex.Path(o.Env))
	if err != nil || !f.exists {
		return true
	}
	if hasMewCommand(f.data, Codex) {
		add(Warning, "%s also runs Mew's hook next to the plugin: Codex runs both, mew-hook drops the second delivery; `mew install --agent codex` takes the hooks.json entries out (or `codex plugin remove %s` keeps hooks.json alone)", f.path, PluginID)
		return false
	}
	return true
}

// hasMewCommand says whether a's hooks document runs a command of Mew's.
func hasMewCommand(data []byte, a Agent) bool {
	doc, err := parseSettings(data, a)
	if err != nil {
		return false
	}
	for _, entries := range doc.entries {
		for _, e := range entries {
			if IsMewCommand(e.command) {
				return true
			}
		}
	}
	return false
}

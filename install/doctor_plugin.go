package install

import (
	"fmt"
	"strings"
)

// checkClaudePlugin reports Mew's Claude Code plugin when it is there,
// and says whether it is (then settings.json needs no entry of Mew's).
func checkClaudePlugin(o DoctorOptions, add addFunc) bool {
	st := ClaudePluginState(o.Env)
	if !st.Active() {
		return false
	}
	switch {
	case st.Enabled:
		add(OK, "Mew's plugin %s is installed through Claude Code (enabledPlugins in %s)", PluginID, o.SettingsPath())
		if st.Copy != "" {
			add(Warning, "%s is not loaded: Claude Code loads the installed %s instead; `mew uninstall --agent claude` removes the copy", st.Copy, PluginID)
		}
	case st.Current:
		add(OK, "Mew's plugin is at %s (Claude Code loads it as %s@skills-dir); settings.json needs no entry of Mew's", st.Copy, PluginName)
	default:
		add(Warning, "Mew's plugin at %s is not the one this mew ships; run `mew install --plugin` to update it", st.Copy)
	}
	if f, err := readSettings(o.SettingsPath()); err == nil && f.exists {
		if doc, err := parseSettings(f.data, Claude); err == nil {
			var events []string
			for _, event := range Claude.Events {
				for _, e := range doc.entries[event] {
					if IsMewCommand(e.command) {
						events = append(events, event)
						break
					}
				}
			}
			if len(events) > 0 {
				add(Warning, "%s also runs Mew's hook (%d events) next to the plugin: Claude Code runs both, mew-hook drops the second delivery; `mew install` takes the settings.json entries out", f.path, len(events))
			}
		}
	}
	return true
}

// DoctorInstalled lists what `mew install` installed and where, from the
// list it kept in $MEW_HOME.
func DoctorInstalled(mewHome string) []Finding {
	items, err := LoadInstalled(mewHome)
	if err != nil {
		return []Finding{{Level: Warning, Text: fmt.Sprintf("cannot read what `mew install` installed: %v", err)}}
	}
	var out []Finding
	for _, it := range items {
		who := "Mew"
		if a, err := AgentNamed(it.Agent); err == nil {
			who = a.Title
		}
		text := fmt.Sprintf("installed by `mew install` on %s for %s: %s", it.At.Format("2006-01-02"), who, it.Planned.String())
		out = append(out, Finding{Level: OK, Text: strings.ReplaceAll(text, "\n    ", "; ")})
	}
	return out
}

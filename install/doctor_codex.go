package install

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/mew-dev/mew/internal/privfile"
)

// codexEntry is one of Mew's hooks in Codex's hooks.json, where Codex
// counts it: its trust key names the event, the group and the handler by
// position.
type codexEntry struct {
	group, handler int
	hook           codexHook
}

// codexMewEntries finds the hooks of command (Mew's) in a hooks.json
// document; doc is valid JSON (checkHooks read it already).
func codexMewEntries(doc []byte, command string) []codexEntry {
	var file struct {
		Hooks map[string][]struct {
			Matcher *string           `json:"matcher"`
			Hooks   []json.RawMessage `json:"hooks"`
		} `json:"hooks"`
	}
	if json.Unmarshal(doc, &file) != nil {
		return nil
	}
	var out []codexEntry
	for event, groups := range file.Hooks {
		for gi, g := range groups {
			for hi, raw := range g.Hooks {
				var h struct {
					Type          string  `json:"type"`
					Command       string  `json:"command"`
					Timeout       *int64  `json:"timeout"`
					Async         bool    `json:"async"`
					StatusMessage *string `json:"statusMessage"`
				}
				if json.Unmarshal(raw, &h) != nil || h.Type != "command" || h.Command != command {
					continue
				}
				out = append(out, codexEntry{group: gi, handler: hi, hook: codexHook{
					Event: event, Matcher: g.Matcher, Command: h.Command, Timeout: h.Timeout,
					Async: h.Async, StatusMessage: h.StatusMessage,
				}})
			}
		}
	}
	return out
}

// codexConfig is what the doctor reads of Codex's config.toml.
type codexConfig struct {
	Features map[string]any `toml:"features"`
	Hooks    struct {
		State map[string]struct {
			TrustedHash string `toml:"trusted_hash"`
			Enabled     *bool  `toml:"enabled"`
		} `toml:"state"`
	} `toml:"hooks"`
}

// checkCodexTrust tells whether Codex will run Mew's hooks: it runs a hook
// from hooks.json only when config.toml holds the hash of exactly that hook
// under its key, which Codex writes itself when the person answers its
// "Hooks need review" dialog. Mew never writes it.
func checkCodexTrust(o DoctorOptions, want Want, add addFunc) {
	hooksPath := Codex.Path(o.Env)
	f, err := readSettings(hooksPath)
	if err != nil || !f.exists {
		return // checkHooks said why
	}
	entries := codexMewEntries(f.data, want.Command)
	if len(entries) == 0 {
		return
	}
	configPath := filepath.Join(o.CodexHome, "config.toml")
	var cfg codexConfig
	if _, err := toml.DecodeFile(configPath, &cfg); err != nil && !errors.Is(err, fs.ErrNotExist) {
		add(Warning, "%s: %v; cannot tell whether Codex trusts Mew's hooks (Codex cannot read it either)", configPath, err)
		return
	}
	if on, ok := cfg.Features["hooks"].(bool); ok && !on {
		add(Problem, "%s turns Codex's hooks off ([features] hooks = false): Mew follows Codex sessions through their rollout logs alone", configPath)
	}
	// Codex keys the state by hooks.json's path under CODEX_HOME as it
	// resolved it: as given, or with symlinks resolved.
	keyPaths := []string{hooksPath}
	if real, err := filepath.EvalSymlinks(o.CodexHome); err == nil && real != o.CodexHome {
		keyPaths = append(keyPaths, filepath.Join(real, Codex.File))
	}
	var untrusted, changed, off []string
	for _, e := range entries {
		found := false
		for _, p := range keyPaths {
			st, ok := cfg.Hooks.State[codexTrustKey(p, e.hook.Event, e.group, e.handler)]
			if !ok {
				continue
			}
			found = true
			switch {
			case st.Enabled != nil && !*st.Enabled:
				off = append(off, e.hook.Event)
			case st.TrustedHash == "":
				untrusted = append(untrusted, e.hook.Event)
			case st.TrustedHash != codexHash(e.hook):
				changed = append(changed, e.hook.Event)
			}
			break
		}
		if !found {
			untrusted = append(untrusted, e.hook.Event)
		}
	}
	asks := `at its next start Codex asks once ("Hooks need review"): choose "Trust all and continue", or review them; until then it runs none of them and Mew follows Codex sessions through their rollout logs alone`
	switch {
	case len(untrusted) == len(entries):
		add(Warning, "Codex does not trust Mew's hooks yet: %s", asks)
	case len(untrusted) > 0:
		add(Warning, "Codex does not trust Mew's hook for %s yet: %s", strings.Join(sortedUnique(untrusted), ", "), asks)
	}
	if len(changed) > 0 {
		add(Warning, "Mew's hook for %s changed since Codex trusted it: %s", strings.Join(sortedUnique(changed), ", "), asks)
	}
	if len(off) > 0 {
		add(Warning, "Mew's hook for %s is turned off in Codex (its /hooks list); Mew misses those events", strings.Join(sortedUnique(off), ", "))
	}
	if len(untrusted)+len(changed)+len(off) == 0 {
		add(OK, "Codex trusts Mew's hooks (%s)", configPath)
	}
}

func sortedUnique(list []string) []string {
	m := map[string]bool{}
	for _, s := range list {
		m[s] = true
	}
	return sortedKeys(m)
}

// CodexTrusted reports whether Codex trusts every one of Mew's hooks in
// env's hooks.json (for `mew install`'s message; doctor says more).
func CodexTrusted(e Env) bool {
	want, err := Codex.Want(e)
	if err != nil {
		return false
	}
	var warned bool
	checkCodexTrust(DoctorOptions{Env: e}, want, func(l Level, _ string, _ ...any) { warned = warned || l != OK })
	data, err := privfile.ReadFile(Codex.Path(e), maxSettings)
	return err == nil && !warned && len(codexMewEntries(data, want.Command)) > 0
}

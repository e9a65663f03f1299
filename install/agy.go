package install

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/terminal"
)

// Agy is Antigravity CLI (`agy`), Gemini CLI's successor for consumers
// since 2026-06: hooks of its own in ~/.gemini/config/hooks.json, in Claude
// Code's {"hooks": {event: [groups]}} shape, with the same guarantees
// (Mew's entries only, byte-exact uninstall), for the events agy really
// fires (reducer.AgyEvents). Unverified: built from its published shapes
// and its bug tracker; agy is not on npm here and no run is recorded.
var Agy = Agent{
	Name: session.AgentAgy, Title: "Antigravity CLI", File: "hooks.json",
	Dir:    func(e Env) string { return filepath.Join(e.GeminiDir, "config") },
	Events: reducer.EventsFor(session.AgentAgy), Matchers: true, Program: "agy", EntryName: "mew",
	Checks: []Check{CheckAgyHooks},
	Caveat: "Mew's Antigravity CLI support is unverified (built from its published hook shapes; no run recorded): its hooks say turns, its screen and process the rest",
}

// agyHooksTimeout bounds `agy -p /hooks` (it starts the CLI).
const agyHooksTimeout = 10 * time.Second

// checkAgyHooks says which of Mew's hook events Antigravity CLI really
// runs. agy drops the events it does not fire without an error, so the
// registration alone proves nothing: with agy installed, its own list of
// the hooks that load (`agy -p /hooks --output-format json`) is read, and
// every event of Mew's is looked for in it (by name, whatever the list's
// layout).
func checkAgyHooks(o DoctorOptions, exe string, add addFunc) {
	if exe == "" {
		add(OK, "Antigravity CLI fires %s (agy 1.1.27 and 1.2.7; not on PATH here, so not asked); Mew registers those", strings.Join(reducer.AgyEvents, ", "))
		return
	}
	timeout := o.VersionTimeout
	if timeout <= 0 {
		timeout = agyHooksTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out, err := terminal.RunProcess(ctx, []string{exe, "-p", "/hooks", "--output-format", "json"}, "", nil)
	switch {
	case ctx.Err() != nil:
		add(Warning, "`agy -p /hooks` did not answer within %v, so which of Mew's hooks Antigravity CLI loads is unknown", timeout)
		return
	case err != nil:
		add(Warning, "`agy -p /hooks` failed (%v), so which of Mew's hooks Antigravity CLI loads is unknown", err)
		return
	}
	loaded := agyLoaded([]byte(out))
	var on, off []string
	for _, e := range reducer.AgyEvents {
		if loaded[e] {
			on = append(on, e)
		} else {
			off = append(off, e)
		}
	}
	if len(on) > 0 {
		add(OK, "Antigravity CLI loads hooks for %s (its own list, `agy -p /hooks`)", strings.Join(on, ", "))
	}
	if len(off) > 0 {
		add(Warning, "Antigravity CLI's list of the hooks it loads has none for %s: Mew hears nothing of those", strings.Join(off, ", "))
	}
}

// agyLoaded is every hook event name (of Mew's and of the ones agy ignores)
// that occurs as a JSON key or string in out.
func agyLoaded(out []byte) map[string]bool {
	known := map[string]bool{}
	for _, e := range append(append([]string(nil), reducer.AgyEvents...), reducer.AgyIgnored...) {
		known[e] = true
	}
	found := map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if s, ok := tok.(string); ok && known[s] {
			found[s] = true
		}
	}
	return found
}

package install

// Consent: `mew install` lists every change it will make, per agent,
// before it writes anything, and asks. The list is data (Planned), so
// every part of install that writes something adds its own entries to it
// (the statusline, a new agent's file); after the install the same list is
// kept in $MEW_HOME/installed.json, and `mew doctor` shows it.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/store"
)

// Kinds of Planned changes.
const (
	KindBinary       = "binary"        // the hook binary in $MEW_HOME/bin
	KindHooks        = "hooks"         // Mew's entries in an agent's settings file's "hooks"
	KindRemoveHooks  = "remove-hooks"  // Mew's entries taken out of a settings file (a plugin delivers them)
	KindPluginFile   = "plugin-file"   // a plugin file of Mew's own (OpenCode, Amp)
	KindHookFiles    = "hook-files"    // hook scripts of Mew's own in an agent's hooks folder (Cline)
	KindClaudePlugin = "claude-plugin" // Mew's Claude Code plugin folder
)

// Planned is one change `mew install` will make (or made).
type Planned struct {
	Agent string `json:"agent,omitempty"` // session.Agent*; "" for Mew's own files
	Kind  string `json:"kind"`
	Path  string `json:"path"`
	// What says it for people, e.g. `add Mew's hook to its "hooks" value`.
	What   string   `json:"what"`
	Events []string `json:"events,omitempty"`
}

func (p Planned) String() string {
	s := p.What + ": " + p.Path
	if len(p.Events) > 0 {
		s += "\n    events: " + wrapList(p.Events, planWidth-len("    events: "), "\n            ")
	}
	return s
}

// planWidth is the width the plan's event lists are wrapped to, between
// names: a terminal's own wrap would cut a name in two ("Sessio/nEnd").
const planWidth = 80

// wrapList joins items with ", ", starting a new line (sep) before an item
// that would pass width.
func wrapList(items []string, width int, sep string) string {
	var b strings.Builder
	n := 0
	for i, it := range items {
		if i > 0 {
			if n+2+len(it)+1 > width {
				b.WriteString(",")
				b.WriteString(sep)
				n = 0
			} else {
				b.WriteString(", ")
				n += 2
			}
		}
		b.WriteString(it)
		n += len(it)
	}
	return b.String()
}

// PlanOf is what a dry run's report says the install would change for a
// (nothing when everything is in place already).
func PlanOf(a Agent, rep Report) []Planned {
	var out []Planned
	if rep.HookUpdated {
		out = append(out, Planned{Kind: KindBinary, Path: rep.Hook, What: "copy the hook program mew-hook to"})
	}
	if !rep.Wrote {
		return out
	}
	p := Planned{Agent: a.Name, Path: rep.Settings}
	switch {
	case rep.Plugin && a.Name == Claude.Name:
		p.Kind, p.Events = KindClaudePlugin, a.Events
		p.What = fmt.Sprintf("write Mew's plugin (%s, a folder of its own that Claude Code loads by itself; no settings file changes)", PluginName)
		if !rep.Created {
			p.What = "update Mew's plugin folder"
		}
	case a.HookFiles:
		p.Kind, p.Events = KindHookFiles, a.Events
		p.What = fmt.Sprintf("write Mew's hook files, one small script per event (files of its own; nothing else of %s changes)", a.Title)
	case rep.Plugin:
		p.Kind = KindPluginFile
		p.What = fmt.Sprintf("write Mew's %s (a file of its own; nothing else of %s changes)", a.pluginNoun(), a.Title)
	default:
		added, removed := rep.Counts()
		p.Kind = KindHooks
		p.Events = changedEvents(a, rep.Changes, true)
		switch {
		case added == 0:
			p.What = fmt.Sprintf("take %d outdated entries of Mew's out of its \"hooks\" value", removed)
		case rep.Created:
			p.What = "create the file with Mew's hook in its \"hooks\" value"
		default:
			p.What = "add Mew's hook to its \"hooks\" value (every other byte stays; a backup is kept)"
		}
		if rep.Link != "" {
			p.Path = rep.Target()
		}
	}
	return append(out, p)
}

// RemovalPlanOf is what taking Mew's entries out of a's settings file
// (an uninstall's dry-run report) changes, when a plugin delivers the same
// events.
func RemovalPlanOf(a Agent, rep Report) []Planned {
	if !rep.Wrote {
		return nil
	}
	events := changedEvents(a, rep.Changes, false)
	return []Planned{{Agent: a.Name, Kind: KindRemoveHooks, Path: rep.Target(), Events: events,
		What: "take Mew's hook entries out of its \"hooks\" value (Mew's plugin delivers the same events; no event twice)"}}
}

// changedEvents are the events of changes that add (or remove) an entry,
// in the order a lists its events.
func changedEvents(a Agent, changes []Change, add bool) []string {
	seen := map[string]bool{}
	for _, c := range changes {
		if c.Add == add {
			seen[c.Event] = true
		}
	}
	var out []string
	for _, e := range a.Events {
		if seen[e] {
			out = append(out, e)
			delete(seen, e)
		}
	}
	for e := range seen { // an event a no longer lists (an older Mew's)
		out = append(out, e)
	}
	sort.Strings(out[len(out)-len(seen):])
	return out
}

// Counts says how many of the report's changes add an entry and how many
// remove one.
func (rep Report) Counts() (added, removed int) {
	for _, c := range rep.Changes {
		if c.Add {
			added++
		} else {
			removed++
		}
	}
	return added, removed
}

// Target names the settings file the report is about, and the symlink it
// was reached through, if any.
func (rep Report) Target() string {
	if rep.Link != "" {
		return fmt.Sprintf("%s (through the symlink %s)", rep.Settings, rep.Link)
	}
	return rep.Settings
}

// WritePlan lists plan for people, grouped by agent in the order given.
func WritePlan(w io.Writer, plan []Planned) {
	byAgent := map[string][]Planned{}
	var order []string
	for _, p := range plan {
		if _, ok := byAgent[p.Agent]; !ok {
			order = append(order, p.Agent)
		}
		byAgent[p.Agent] = append(byAgent[p.Agent], p)
	}
	for _, name := range order {
		title := "Mew"
		if a, err := AgentNamed(name); err == nil {
			title = a.Title
		}
		fmt.Fprintf(w, "%s:\n", title)
		for _, p := range byAgent[name] {
			fmt.Fprintf(w, "  - %s\n", p)
		}
	}
}

// installedName is the kept list of what `mew install` installed.
const installedName = "installed.json"

// Installed is one change `mew install` made, as kept.
type Installed struct {
	Planned
	At time.Time `json:"at"`
}

type installedFile struct {
	Version int         `json:"version"`
	Items   []Installed `json:"installed"`
}

// maxRecordFile bounds what is read of Mew's own records in MEW_HOME
// (installed.json, the install and statusline records, which keep the
// bytes of the files they changed).
const maxRecordFile = 4 * maxSettings

// LoadInstalled reads the kept list (empty when there is none; a damaged
// file reads as empty: it only informs `mew doctor`).
func LoadInstalled(mewHome string) ([]Installed, error) {
	data, err := privfile.ReadFile(filepath.Join(mewHome, installedName), maxRecordFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f installedFile
	if json.Unmarshal(data, &f) != nil {
		return nil, nil
	}
	return f.Items, nil
}

// RecordInstalled keeps what an install did: each change replaces the
// kept one of the same kind and path; a removal drops what was kept of that
// path's hooks.
func RecordInstalled(mewHome string, done []Planned, now time.Time) error {
	items, err := LoadInstalled(mewHome)
	if err != nil {
		return err
	}
	for _, p := range done {
		kind := p.Kind
		if kind == KindRemoveHooks {
			kind = KindHooks
		}
		items = dropInstalled(items, func(it Installed) bool { return it.Kind == kind && it.Path == p.Path })
		if p.Kind != KindRemoveHooks {
			items = append(items, Installed{Planned: p, At: now.UTC()})
		}
	}
	return saveInstalled(mewHome, items)
}

// ForgetInstalled drops what was kept of path (an uninstall took it out).
func ForgetInstalled(mewHome, path string) error {
	items, err := LoadInstalled(mewHome)
	if err != nil || len(items) == 0 {
		return err
	}
	kept := dropInstalled(items, func(it Installed) bool { return it.Path == path || strings.HasPrefix(it.Path, path+" (") })
	if len(kept) == len(items) {
		return nil
	}
	return saveInstalled(mewHome, kept)
}

func dropInstalled(items []Installed, drop func(Installed) bool) []Installed {
	out := items[:0:0]
	for _, it := range items {
		if !drop(it) {
			out = append(out, it)
		}
	}
	return out
}

func saveInstalled(mewHome string, items []Installed) error {
	sort.SliceStable(items, func(i, j int) bool { return items[i].Agent < items[j].Agent })
	if err := os.MkdirAll(mewHome, 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(installedFile{Version: 1, Items: items}, "", "  ")
	if err != nil {
		return err
	}
	return store.WriteFileAtomic(filepath.Join(mewHome, installedName), append(data, '\n'), 0o600)
}

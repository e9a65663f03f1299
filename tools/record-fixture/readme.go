package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// summarize notes what the run showed of the CLI: event names, notification
// kinds, registry statuses, payload fields. A new release's differences show
// up here first.
func summarize(s *summary, evs []event) {
	s.eventNames = map[string]int{}
	s.notifications = map[string]int{}
	s.statuses = map[string]int{}
	s.fields = map[string]map[string]bool{}
	s.registryFields = map[string]bool{}
	for _, e := range evs {
		var m map[string]json.RawMessage
		if json.Unmarshal(e.Doc, &m) != nil || m == nil {
			continue
		}
		if e.Source == "registry" {
			s.registry++
			var d struct{ Status, WaitingFor string }
			json.Unmarshal(e.Doc, &d)
			if d.Status != "" {
				k := d.Status
				if d.WaitingFor != "" {
					k += " (" + d.WaitingFor + ")"
				}
				s.statuses[k]++
			}
			for k := range m {
				s.registryFields[k] = true
			}
			continue
		}
		s.hooks++
		var h struct {
			Event string `json:"hook_event_name"`
			Kind  string `json:"notification_type"`
		}
		json.Unmarshal(e.Doc, &h)
		s.eventNames[h.Event]++
		if h.Event == "Notification" {
			s.notifications[h.Kind]++
		}
		if s.fields[h.Event] == nil {
			s.fields[h.Event] = map[string]bool{}
		}
		for k := range m {
			s.fields[h.Event][k] = true
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func counted(m map[string]int) string {
	var parts []string
	for _, k := range keys(m) {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, m[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func writeReadme(path, version string, events []string, sums []summary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Real Claude Code %s runs\n\n", version)
	fmt.Fprintf(&b, "Recorded by `tools/record-fixture` (the end-to-end suite's stand-in Messages API and tmux driver): the\n"+
		"real CLI in a 120×32 tmux pane in an isolated home, against a scripted model server on loopback, with its\n"+
		"hooks logged for: %s. Home paths were rewritten to `/Users/dev`.\n\n", strings.Join(events, ", "))
	b.WriteString("| folder | what happened |\n|---|---|\n")
	for _, s := range sums {
		fmt.Fprintf(&b, "| %s | %s |\n", s.name, s.what)
	}
	fmt.Fprintf(&b, "\nThe scripted person acts %v after what the CLI shows (-pace); a dialog is never answered sooner than\n"+
		"0.3 s after it appears. All runs end with a `SessionEnd` when the pane is killed (question-exit: by `/exit`).\n\n", pace)
	b.WriteString("The file formats are those of `../claude-code-2.1.328/README.md`. `expect.jsonl` is derived from what the CLI\n" +
		"itself reported (registry busy → working; waiting → waiting, for a question/plan when the tool was\n" +
		"AskUserQuestion/ExitPlanMode; idle → done after a Stop, else idle; SessionEnd → exited), one checkpoint in\n" +
		"the middle of each stretch: review them before trusting the fixture.\n\n## What the CLI sent\n\n")
	for _, s := range sums {
		fmt.Fprintf(&b, "### %s\n- hook events: %s\n- notification kinds: %s\n- registry statuses: %s\n", s.name,
			counted(s.eventNames), counted(s.notifications), counted(s.statuses))
		for _, ev := range keys(s.fields) {
			fmt.Fprintf(&b, "- `%s` fields: %s\n", ev, strings.Join(keys(s.fields[ev]), ", "))
		}
		fmt.Fprintf(&b, "- registry fields: %s\n\n", strings.Join(keys(s.registryFields), ", "))
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

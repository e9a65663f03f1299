package reducer

import (
	"testing"

	"github.com/mew-dev/mew/session"
)

// Every agent Mew names has exactly one declaration in Mappings.
func TestEveryAgentIsDeclaredOnce(t *testing.T) {
	count := map[string]int{}
	for _, m := range Mappings {
		count[m.Agent]++
	}
	for _, a := range session.Agents {
		if count[a] != 1 {
			t.Errorf("agent %s has %d entries in Mappings, want 1", a, count[a])
		}
	}
	if len(Mappings) != len(session.Agents) {
		t.Errorf("%d mappings for %d agents", len(Mappings), len(session.Agents))
	}
}

// Kilo copies no row: it speaks OpenCode's events through Like, and every
// OpenCode event means the same for Kilo.
func TestKiloIsOpenCodesEvents(t *testing.T) {
	kilo := MappingOf(session.AgentKilo)
	if kilo.Like != session.AgentOpenCode || len(kilo.Renames) != 0 {
		t.Fatalf("Kilo = %+v, want Like OpenCode and no rows of its own", kilo)
	}
	for _, r := range MappingOf(session.AgentOpenCode).Renames {
		if got := Canonical(session.AgentKilo, r.Name); got != r.Canonical {
			t.Errorf("Kilo's %s = %s, OpenCode's %s", r.Name, got, r.Canonical)
		}
	}
	if !FromPlugin(session.AgentKilo) || !RecordsProcessLate(session.AgentKilo) {
		t.Error("Kilo's events come from OpenCode's plugin and record the process late")
	}
	if got := Canonical(session.AgentClaude, "session.status.busy"); got != "session.status.busy" {
		t.Errorf("Claude Code renamed an OpenCode event: %s", got)
	}
}

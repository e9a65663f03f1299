package install

import (
	"slices"
	"testing"

	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
)

// install.Agents is this layer's list of the agents Mew installs for: each
// an agent session.Agents names, once, registering the events its reducer
// declaration lists, with its doctor checks as data.
func TestAgentsAreDeclaredOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range Agents {
		if !slices.Contains(session.Agents, a.Name) {
			t.Errorf("%s: not an agent session.Agents names", a.Name)
		}
		if seen[a.Name] {
			t.Errorf("%s: listed twice", a.Name)
		}
		seen[a.Name] = true
		if a.Plugin == nil || a.Events != nil {
			if want := reducer.EventsFor(a.Name); !slices.Equal(a.Events, want) {
				t.Errorf("%s registers %v, its reducer declaration lists %v", a.Name, a.Events, want)
			}
		}
		if slices.Contains(a.Checks, CheckVersion) && a.Tested == "" {
			t.Errorf("%s checks its version against no tested version", a.Name)
		}
	}
	if !seen[session.AgentAgy] {
		t.Error("agy is not listed (it was an init() append)")
	}
}

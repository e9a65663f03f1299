package session

import (
	"strings"
	"testing"
)

func TestValidID(t *testing.T) {
	for _, id := range []string{"2941d3df-e2d1-426a-be4c-a834d740c35d", "ses_dd1050279ffe1AzEvDlfFqleqC", "tmux:%12", "run:4242", "a"} {
		if !ValidID(id) {
			t.Errorf("ValidID(%q) = false", id)
		}
	}
	for _, id := range []string{"", "../x", "a/b", ".x", "a b", "x;y", "-rf", ":x", "%1", "é", "a\x00", "id.json", "$(x)", "a`b`", strings.Repeat("a", 129)} {
		if ValidID(id) {
			t.Errorf("ValidID(%q) = true", id)
		}
	}
}

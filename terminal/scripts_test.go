package terminal

import (
	"strings"
	"testing"
)

func TestITermScript(t *testing.T) {
	got := ITermScript("tty", []string{`return "ok"`}, "set typed to item 2 of argv")
	for _, want := range []string{
		"\tset wanted to item 1 of argv\n\tset typed to item 2 of argv\n\tif application id",
		"\t\t\t\t\tif tty of s is wanted then\n\t\t\t\t\t\treturn \"ok\"\n\t\t\t\t\tend if\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("script lacks %q:\n%s", want, got)
		}
	}
	for _, marker := range []string{"-- ARGV", "-- FOUND", "PROPERTY"} {
		if strings.Contains(ITermScript("unique ID", nil), marker) {
			t.Errorf("marker %q left in the script", marker)
		}
	}
}

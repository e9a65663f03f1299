package main

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestMain keeps the machine's own agent processes (other people's
// sessions, other tests' CLIs) out of every mew these tests start: the
// process scan would list them (cmd/mew's localSources).
func TestMain(m *testing.M) {
	os.Setenv("MEW_PROCSCAN", "off")
	os.Exit(m.Run())
}

// The Finder's first launch of Mew.app may pass -psn_0_NNN: it is dropped
// (the app starts rather than "unknown command"); anything else stays.
func TestLaunchArgsDropTheProcessSerialNumber(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"-psn_0_12345"}, nil},
		{[]string{"-psn_0_12345", "status", "--json"}, []string{"status", "--json"}},
		{[]string{"status", "-psn_"}, []string{"status", "-psn_"}},
		// Only a first argument of that form: later it is the person's.
		{[]string{"status", "-psn_0_12345"}, []string{"status", "-psn_0_12345"}},
		{[]string{"answer", "x", "-psn_0_1"}, []string{"answer", "x", "-psn_0_1"}},
		{[]string{"-psn_0_1x", "status"}, []string{"-psn_0_1x", "status"}},
		{[]string{"answer", "x", "1"}, []string{"answer", "x", "1"}},
	} {
		if got := launchArgs(c.in); !slices.Equal(got, c.want) {
			t.Errorf("launchArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	var out, errb strings.Builder
	if code := run([]string{"-psn_0_42", "help"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "usage: mew") {
		t.Errorf("mew -psn_0_42 help: %d %q %q", code, out.String(), errb.String())
	}
}

package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestLaunchArgsDropsTheProcessSerialNumber(t *testing.T) {
	cases := []struct{ in, want []string }{
		{[]string{"-psn_0_1234567"}, []string{}},
		{[]string{"-psn_0_1234567", "app"}, []string{"app"}},
		{[]string{"status", "--json"}, []string{"status", "--json"}},
		{[]string{"-psn_"}, []string{"-psn_"}}, // not a serial number
		{nil, []string{}},
	}
	for _, c := range cases {
		if got := launchArgs(c.in); !slices.Equal(got, c.want) {
			t.Errorf("launchArgs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Mew.app's first launch from the Finder: the serial number is not taken
// for a command.
func TestRunIgnoresTheProcessSerialNumber(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"-psn_0_1234567", "help"}, &out, &errs); code != 0 || !strings.Contains(out.String(), "usage: mew") {
		t.Fatalf("help after -psn: %d %q %q", code, out.String(), errs.String())
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"-psn_0_1234567", "bogus"}, &out, &errs); code != 2 || !strings.Contains(errs.String(), `"bogus"`) {
		t.Fatalf("unknown command after -psn: %d %q", code, errs.String())
	}
}

package terminal

import (
	"context"
	"strings"
	"testing"
)

// osascript's refusal for Terminal, as macOS words it (82 characters
// before the code), and a localized one, longer still: the error number
// survives the clipping, so the messages can act on it.
func TestRunProcessKeepsTheErrorNumberPastTheClip(t *testing.T) {
	for _, line := range []string{
		"171:245: execution error: Not authorized to send Apple events to Terminal. (-1743)",
		"171:245: execution error: Nicht berechtigt, Apple-Events an „Terminal“ zu senden. (-1743)",
	} {
		_, err := RunProcess(context.Background(), []string{"/bin/sh", "-c", "printf '%s\\n' \"$0\" >&2; exit 1", line}, "", nil)
		if err == nil || !strings.Contains(err.Error(), "-1743") {
			t.Errorf("%q: %v, want the -1743 kept", line, err)
		}
	}
	if got := ClipError("short (-1743)\nsecond (-1728)"); got != "short (-1743)" {
		t.Errorf("a kept code is not repeated: %q", got)
	}
}

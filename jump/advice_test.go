package jump

import (
	"context"
	"strings"
	"testing"
)

// Terminal's refusal line (82 characters with the script position osascript
// puts first) gets the tccutil advice: the code is found on the whole error
// text, not on what is left after clipping.
func TestRefusalAdviceSurvivesTheClip(t *testing.T) {
	line := "171:245: execution error: Not authorized to send Apple events to Terminal. (-1743)"
	p := Plan{Host: "Terminal", Outer: []Step{{
		Name: "Terminal: select the tab", Argv: []string{"/bin/sh", "-c", "printf '%s\\n' \"$0\" >&2; exit 1", line},
		Want: "ok", Gives: Tab, Asks: "Terminal",
	}}}
	res := Execute(context.Background(), CommandExec{}, p, 0)
	if !strings.Contains(res.Message, "tccutil reset AppleEvents") {
		t.Fatalf("no tccutil advice: %s", res.Message)
	}
}

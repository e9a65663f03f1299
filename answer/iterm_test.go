package answer

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// The iTerm2 terminal's Go side (osascript's replies parsed, the session
// id and the keys passed as argv): the AppleScript itself runs only on a
// Mac, not here.
func TestITermTerminalParsesAndPassesArgv(t *testing.T) {
	const guid = "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9"
	if _, err := NewITermTerminal(guid + "; do shell script"); err == nil {
		t.Fatal("a hostile session id was taken")
	}
	term, err := NewITermTerminal(guid)
	if err != nil {
		t.Fatal(err)
	}
	var calls [][]string
	reply := ""
	term.Run = func(_ context.Context, script string, args ...string) (string, error) {
		if strings.Contains(script, guid) {
			t.Error("the session id was spliced into the script")
		}
		calls = append(calls, args)
		return reply, nil
	}
	ctx := context.Background()

	reply = "ok\nclaude: fix the api\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\n\n"
	f, err := term.Read(ctx)
	if err != nil || f.Title != "claude: fix the api" || !slices.Equal(f.Rows, []string{" Do you want to proceed?", " ❯ 1. Yes", "   2. No"}) {
		t.Errorf("read: %q %q %v", f.Title, f.Rows, err)
	}
	if len(calls) != 1 || !slices.Equal(calls[0], []string{guid}) {
		t.Errorf("read's argv: %q", calls)
	}
	for _, r := range []string{"notfound", "notrunning\n", "\x1b]0;evil\x07"} {
		reply = r
		if _, err := term.Read(ctx); err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") {
			t.Errorf("reply %q: %v", r, err)
		}
	}

	calls, reply = nil, "ok\n"
	if err := term.Type(ctx, Live{Keys: []string{"2", "Enter"}}); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || !slices.Equal(calls[0], []string{guid, "2\r"}) {
		t.Errorf("type's argv: %q", calls)
	}
	reply = "notfound"
	if err := term.Type(ctx, Live{Keys: []string{"1"}}); err == nil {
		t.Error("a session that went away was reported typed")
	}
	if err := term.Type(ctx, Live{Keys: []string{"rm -rf"}}); err == nil {
		t.Error("a key that is no key was typed")
	}
}

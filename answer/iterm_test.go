package answer

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/terminal"
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

	reply = "ok\n5\nclaude: fix the api\nold history\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\n\n"
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

// iTerm2's `contents` is the whole scrollback, oldest first, then the
// screen. With a 100k-line history the screen (the prompt) is what a read
// keeps: none of the history, even a dialog answered long ago, and through
// the runner's cap, which keeps the head and the tail of the output.
func TestScreenRowsKeepsThePromptUnderAHugeHistory(t *testing.T) {
	var b strings.Builder
	b.WriteString("ok\n24\nclaude\n")
	for i := 0; i < 100000; i++ {
		if i == 500 {
			b.WriteString(" Do you want to proceed? (an old dialog)\n ❯ 1. Yes\n")
		}
		fmt.Fprintf(&b, "history line %d with some text to make it long enough\n", i)
	}
	screen := []string{"● Creating a file", " Bash command", "   touch file-1", " Do you want to proceed?", " ❯ 1. Yes", "   2. No", "", " Esc to cancel"}
	for _, r := range screen {
		b.WriteString(r + "\n")
	}
	for i := len(screen); i < 24; i++ {
		b.WriteString("\n") // the blank rows below, part of the screen
	}
	out := b.String()
	if len(out) < 5<<20 {
		t.Fatalf("history of only %d bytes", len(out))
	}
	// What osascript printed, through the runner's cap.
	kept, err := terminal.RunProcess(context.Background(), []string{"/bin/cat"}, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) > 64<<10 {
		t.Fatalf("the runner kept %d bytes", len(kept))
	}
	term := &ITermTerminal{Session: "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9", Run: func(context.Context, string, ...string) (string, error) { return kept, nil }}
	f, err := term.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if f.Title != "claude" {
		t.Errorf("title %q", f.Title)
	}
	// The 24 rows are the 8 of the dialog and 16 blank ones (dropped).
	if !slices.Equal(f.Rows, screen) {
		t.Errorf("rows:\n%s", strings.Join(f.Rows, "\n"))
	}
}

func TestScreenRows(t *testing.T) {
	for _, c := range []struct {
		contents string
		rows     int
		want     []string
	}{
		{"h1\nh2\na\nb\n", 2, []string{"a", "b"}},
		{"h1\na\n\n\n", 3, []string{"a"}},     // blank rows below the text are the screen's
		{"h1\nh2\na\n\n\n", 3, []string{"a"}}, // so no history row comes in for them
		{"a\nb", 10, []string{"a", "b"}},      // fewer lines than rows
		{"x\r\ny\r\n", 1, []string{"y"}},
		{"", 5, nil},
		{strings.Repeat("l\n", 2000), -1, slices.Repeat([]string{"l"}, maxScreenRows)}, // no height: bounded
	} {
		if got := ScreenRows(c.contents, c.rows); !slices.Equal(got, c.want) {
			t.Errorf("ScreenRows(%q, %d) = %q, want %q", text.Clip(c.contents, 40), c.rows, got, c.want)
		}
	}
}

func TestITermFirstCallWaitsForTheAutomationPrompt(t *testing.T) {
	if iTermTimeout(false) < 60*time.Second {
		t.Errorf("the first call gets %v: too short to answer macOS's prompt", iTermTimeout(false))
	}
	if iTermTimeout(true) != iTermStepTimeout {
		t.Errorf("once allowed, %v", iTermTimeout(true))
	}
	terminal.AppleEvents.Reset()
	var deadlines []time.Duration
	reply := "notrunning"
	term := &ITermTerminal{Session: "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9", Run: func(ctx context.Context, _ string, _ ...string) (string, error) {
		d, _ := ctx.Deadline()
		deadlines = append(deadlines, time.Until(d))
		return reply, nil
	}}
	term.Read(context.Background()) // iTerm2 not running: no event was sent
	reply = "ok\n2\nt\nrow\n"
	term.Read(context.Background()) // still the prompt's time; this one went through
	term.Read(context.Background())
	if len(deadlines) != 3 || deadlines[0] < 60*time.Second || deadlines[1] < 60*time.Second || deadlines[2] > iTermStepTimeout {
		t.Errorf("deadlines %v", deadlines)
	}
}

// BenchmarkITermScreenRows: the screen out of a 100k-line contents, as
// the runner's cap left it (its head and tail, 64 KiB) and whole.
func BenchmarkITermScreenRows(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&sb, "history line %d with some text to make it long enough\n", i)
	}
	sb.WriteString(" Do you want to proceed?\n ❯ 1. Yes\n   2. No\n")
	whole := sb.String()
	capped := whole[:4<<10] + whole[len(whole)-60<<10:]
	for _, c := range []struct {
		name, contents string
	}{{"capped", capped}, {"whole-5MB", whole}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if rows := ScreenRows(c.contents, 50); len(rows) != 50 {
					b.Fatal(len(rows))
				}
			}
		})
	}
}

// An iTerm2 answer whose prompt stays: while it waits the 2 s for the
// prompt to go it reads iTerm2 about every iTermPoll, not every 20 ms (100
// osascript processes, each copying the session's text).
func TestITermAnswerDoesNotReadEvery20ms(t *testing.T) {
	reads := 0
	screen := "ok\n8\nclaude\n" + bash + "\n"
	term := &ITermTerminal{Session: "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9", Run: func(_ context.Context, script string, _ ...string) (string, error) {
		if script == scriptITermRead {
			reads++
			return screen, nil
		}
		return "ok", nil
	}}
	c := &clock{now: time.Unix(100, 0)}
	res := Do(context.Background(), term, claude, seen(t, bash, 1), c.opts())
	if res.Outcome != Stuck {
		t.Fatalf("%+v", res)
	}
	if max := int(Confirm/iTermPoll) + 3; reads > max {
		t.Errorf("%d reads of iTerm2 in %v, want at most %d", reads, Confirm, max)
	}
}

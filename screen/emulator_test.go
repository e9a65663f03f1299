package screen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRowsMatchTmux replays each recorded Codex run's output bytes and
// compares the emulator's rows with what tmux showed at the same byte
// count (`tmux capture-pane -p`, 120×32), sample by sample. Samples where
// tmux shows a blank pane (it had not drawn yet, or the recorder cleared
// it after the agent exited) are skipped.
func TestRowsMatchTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("every recorded sample: in the full run (the race run is -short)")
	}
	runs, _ := filepath.Glob("../testdata/fixtures/codex-0.169.0/*")
	compared := 0
	for _, dir := range runs {
		raw, err := os.ReadFile(filepath.Join(dir, "pane.raw"))
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(filepath.Join(dir, "samples.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var s struct {
				T        float64 `json:"t"`
				Screen   string  `json:"screen"`
				RawBytes int     `json:"raw_bytes"`
			}
			if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, "screens", s.Screen+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			if len(bytes.TrimSpace(want)) == 0 {
				continue
			}
			e := New(32, 120)
			e.Write(raw[:s.RawBytes])
			if got, w := Text(e.Snapshot().Rows), strings.TrimRight(string(want), "\n"); got != w {
				t.Errorf("%s t=%.3f: rows differ from tmux\n--- emulator ---\n%s\n--- tmux ---\n%s", filepath.Base(dir), s.T, got, w)
			}
			compared++
		}
		f.Close()
	}
	if compared < 500 {
		t.Fatalf("only %d samples compared", compared)
	}
}

func TestNeverAnswersQueries(t *testing.T) {
	e := New(5, 20)
	// Device status, cursor position, device attributes, keyboard mode,
	// colour queries: a real terminal answers these; the emulator must not
	// (its answer would reach the agent as typed input).
	e.Write([]byte("\x1b[5n\x1b[6n\x1b[c\x1b[>c\x1b[?u\x1b]10;?\x07\x1b]11;?\x1b\\hello"))
	if got := e.Snapshot().Rows[0]; got != "hello" {
		t.Errorf("row 0 = %q", got)
	}
	if e.term.ForwardResponses != nil || e.term.ForwardRequests != nil {
		t.Fatal("the emulator has somewhere to send answers")
	}
}

func TestNoScrollback(t *testing.T) {
	e := New(3, 20)
	e.Write([]byte("Do you want to proceed?\r\n1\r\n2\r\n3\r\n"))
	if strings.Contains(Text(e.Snapshot().Rows), "proceed") {
		t.Errorf("a row that scrolled away is still read: %q", e.Snapshot().Rows)
	}
}

func TestTitleAndAgentState(t *testing.T) {
	e := New(5, 40)
	// Split across writes, as a PTY delivers them.
	for _, chunk := range []string{"\x1b]0;⠋ proj\x07", "\x1b]75", "01;state=blocked:app=codex:kind=permission", "\x1b", "\\x"} {
		e.Write([]byte(chunk))
	}
	s := e.Snapshot()
	if s.Title != "⠋ proj" || s.AgentState != "blocked:app=codex:kind=permission" {
		t.Errorf("title %q, agent state %q", s.Title, s.AgentState)
	}
	if AgentStateName(s.AgentState) != "blocked" || AgentStateField(s.AgentState, "kind") != "permission" || AgentStateField(s.AgentState, "nope") != "" {
		t.Errorf("parsing %q", s.AgentState)
	}
	// Other OSCs, an unterminated one, and a non-ASCII payload change nothing.
	e.Write([]byte("\x1b]8;;http://x\x1b\\\x1b]7501;state=working\x1b[0m\x1b]7501;state=idle\xff\x07"))
	if got := e.Snapshot().AgentState; got != "blocked:app=codex:kind=permission" {
		t.Errorf("agent state became %q", got)
	}
	e.Write([]byte("\x1b]7501;state=done:app=codex\x07"))
	if got := e.Snapshot().AgentState; got != "done:app=codex" {
		t.Errorf("agent state %q after BEL-terminated done", got)
	}
}

// BenchmarkFeed is the emulator's throughput: recorded Claude Code output,
// and plain scrolling text (cat of a big file).
func BenchmarkFeed(b *testing.B) {
	raw, err := os.ReadFile("../testdata/fixtures/claude-code-2.1.328/subagent/screen.raw")
	if err != nil {
		b.Fatal(err)
	}
	lines := []byte(strings.Repeat(strings.Repeat("x", 99)+"\r\n", 1000))
	for _, c := range []struct {
		name string
		data []byte
	}{{"claude", raw}, {"scrolling", lines}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			e := New(32, 120)
			for b.Loop() {
				for i := 0; i < len(c.data); i += 4096 {
					e.Write(c.data[i:min(i+4096, len(c.data))])
				}
			}
		})
	}
}

// TestResizeNeverWaitsForAWrite: `mew run` resizes from its signal loop,
// which must not stall behind a long write (the agent's exit is handled
// there); the new size applies once the write lets go.
func TestResizeNeverWaitsForAWrite(t *testing.T) {
	e := New(32, 120)
	e.mu.Lock() // a write in progress
	done := make(chan struct{})
	go func() {
		e.Resize(10, 40)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Resize waited for the write")
	}
	e.mu.Unlock()
	if n := len(e.Snapshot().Rows); n != 10 {
		t.Fatalf("%d rows after the resize", n)
	}
}

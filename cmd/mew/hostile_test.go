package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// hostile is text that would act on a terminal printed as is: set the
// window title, clear the screen, write the clipboard (OSC 52), the same
// through 8-bit C1 controls, return to the line's start, reverse the
// text's direction (bidi override and isolate), a line separator, DEL, NUL
// and bytes that are not UTF-8.
const hostile = "x\x1b]0;pwned\x07\x1b[2J\x1b[H\x1b]52;c;cHduZWQ=\x07\u009b2J\u009d0;pwn\u009c\rover\u202eevil\u2066i\u2069\u2028next\x7f\x00\xff\xfey"

// safeForTerminal reports the first rune of s that could act on a
// terminal; newlines are allowed only where lines are expected.
func safeForTerminal(s string, newlines bool) (bad string, ok bool) {
	if !utf8.ValidString(s) {
		return "invalid UTF-8", false
	}
	for _, r := range s {
		if r == '\n' && newlines {
			continue
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			return fmt.Sprintf("%U", r), false
		}
	}
	return "", true
}

func assertSafe(t *testing.T, what, out string) {
	t.Helper()
	if bad, ok := safeForTerminal(out, true); !ok {
		t.Errorf("%s: %s reaches the terminal in %q", what, bad, out)
	}
}

// assertSafeJSON checks every string in a JSON document, as a consumer
// printing the decoded values (jq -r) would show them.
func assertSafeJSON(t *testing.T, what string, doc []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, doc)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case string:
			if bad, ok := safeForTerminal(v, false); !ok {
				t.Errorf("%s: %s%s holds %s: %q", what, path, "", bad, v)
			}
		case []any:
			for i, e := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		case map[string]any:
			for k, e := range v {
				walk(path+"."+k, e)
			}
		}
	}
	walk("", v)
}

// Every text field `mew status` shows, as a table, as JSON and as --watch
// lines, holds hostile text from every source: hook payloads (the project
// directory's name, the prompt, the tool and its input, the last message),
// Claude Code's registry (name, cwd, tmux, waitingFor) and a session file
// written by someone else (state, reason, source, agent, tty, tmux pane).
// None of it reaches the terminal as anything but inert text.
func TestHostileTextNeverReachesTheTerminal(t *testing.T) {
	c := newCLI(t)
	dir := filepath.Join(t.TempDir(), strings.ReplaceAll(hostile, "\x00", "")) // a file name cannot hold NUL
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	// Hooks: a session waiting on a hostile tool call in a hostile folder.
	for _, p := range []string{
		`{"session_id":"h1","hook_event_name":"SessionStart","source":"startup","cwd":` + q(dir) + `}`,
		`{"session_id":"h1","hook_event_name":"UserPromptSubmit","prompt":` + q(hostile) + `}`,
		`{"session_id":"h1","hook_event_name":"PreToolUse","tool_name":` + q(hostile) + `,"tool_input":{"command":` + q(hostile) + `},"tool_use_id":"t1"}`,
		`{"session_id":"h1","hook_event_name":"PermissionRequest","tool_name":` + q(hostile) + `,"tool_input":{"command":` + q(hostile) + `}}`,
		`{"session_id":"h2","hook_event_name":"UserPromptSubmit","cwd":` + q(dir) + `,"prompt":"go"}`,
		`{"session_id":"h2","hook_event_name":"Stop","last_assistant_message":` + q(hostile) + `}`,
	} {
		c.hookEvent(t, p)
	}
	// A session file someone else wrote, every text field hostile.
	st := store.Store{Home: c.home, Fold: hookbin.Fold}
	rec := session.Record{Version: session.RecordVersion, ID: "h3", Agent: hostile,
		Hook: &session.HookState{State: session.State(hostile), Reason: session.Reason(hostile), Source: hostile,
			Since: time.Now(), At: time.Now(), Cwd: hostile, Title: hostile, Tool: hostile, ToolDetail: hostile, LastMessage: hostile},
		Process: &session.Process{Tty: hostile, Tmux: &session.Tmux{Pane: hostile, Socket: hostile}, Env: map[string]string{"TERM_PROGRAM": hostile, "TMUX_PANE": hostile},
			Host: &session.Host{BundleID: hostile, AppPath: "/Applications/" + hostile + ".app"}},
	}
	self, _ := proctree.Lean{}.Get(os.Getpid())
	rec.Process.Pid, rec.Process.StartMs = self.Pid, self.StartMs
	data, err := session.EncodeRecord(&rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.EnsureDir(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(st.Dir(), "h3.json"), data, 0o600)
	// Claude Code's registry: a session known from it alone.
	os.MkdirAll(c.regDir, 0o700)
	doc := fmt.Sprintf(`{"pid":%d,"sessionId":"h4","procStart":"%d","cwd":%s,"name":%s,"tmux":%s,"status":"waiting","waitingFor":%s,"statusUpdatedAt":%d}`,
		self.Pid, self.StartTicks, q(hostile), q(hostile), q(hostile), q(hostile), time.Now().UnixMilli())
	os.WriteFile(filepath.Join(c.regDir, strconv.Itoa(self.Pid)+".json"), []byte(doc), 0o600)

	out, errOut, code := c.run(t, "status")
	if code != 0 || strings.Count(out, "\n") != 5 {
		t.Fatalf("status: %d, want a header and 4 lines:\n%s%s", code, out, errOut)
	}
	assertSafe(t, "status", out)
	assertSafe(t, "status (stderr)", errOut)

	out, errOut, _ = c.run(t, "status", "--json")
	assertSafeJSON(t, "status --json", []byte(out))
	assertSafe(t, "status --json (stderr)", errOut)
	var list []session.Shown
	json.Unmarshal([]byte(out), &list)
	if len(list) != 4 {
		t.Fatalf("status --json lists %d sessions, want 4", len(list))
	}

	for _, args := range [][]string{{"status", "--watch"}, {"status", "--watch", "--json"}} {
		cmd := exec.Command(c.mew, args...)
		cmd.Env = c.env
		var o, e lockedBuffer // read while the command writes
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(60 * time.Second)
		for strings.Count(o.String(), "\n") < 4 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		cmd.Process.Kill()
		cmd.Wait()
		what := strings.Join(args, " ")
		if n := strings.Count(o.String(), "\n"); n != 4 {
			t.Fatalf("%s: %d lines, want 4:\n%s", what, n, o.String())
		}
		if args[len(args)-1] == "--json" {
			for _, line := range strings.Split(strings.TrimSpace(o.String()), "\n") {
				assertSafeJSON(t, what, []byte(line))
			}
		} else {
			assertSafe(t, what, o.String())
		}
		assertSafe(t, what+" (stderr)", e.String())
	}

	// A jump plan and its messages name the terminal, the pane and the app.
	for _, args := range [][]string{{"jump", "--dry-run", "h3"}, {"jump", "--dry-run", "h1"}, {"jump", "h3"}, {"jump", "--dry-run", "--json", "h3"}} {
		out, errOut, _ := c.run(t, args...)
		what := strings.Join(args, " ")
		if os.Getenv("MEW_SHOW") != "" {
			t.Logf("%s:\n%s%s", what, out, errOut)
		}
		if slices.Contains(args, "--json") {
			assertSafeJSON(t, what, []byte(out))
		} else {
			assertSafe(t, what, out)
		}
		assertSafe(t, what+" (stderr)", errOut)
	}
}

// `mew doctor`, install and uninstall print paths and the person's own
// hook commands from settings.json.
func TestHostileSettingsNeverReachTheTerminal(t *testing.T) {
	c := newCLI(t)
	cfg := filepath.Dir(c.regDir)
	home := t.TempDir()
	c.env = append(c.env, "HOME="+home)
	// A person's hook quoting the hostile text, and an outdated entry of
	// Mew's whose MEW_HOME holds C1 controls and a bidi override (JSON
	// carries those raw).
	entry := func(cmd string) map[string]any {
		return map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd}}}
	}
	odd := "/x\u009b2J\u202e"
	settings, _ := json.Marshal(map[string]any{"model": hostile, "hooks": map[string]any{
		"Stop":       []any{entry("say " + hostile)},
		"PreToolUse": []any{entry(`GOMAXPROCS=1 MEW_HOME="` + odd + `" "` + odd + `/bin/mew-hook"`)},
	}})
	if !bytes.Contains(settings, []byte("\u009b")) && !bytes.Contains(settings, []byte("\u202e")) {
		t.Fatal("the settings do not carry raw C1 or bidi characters")
	}
	os.MkdirAll(cfg, 0o700)
	os.WriteFile(filepath.Join(cfg, "settings.json"), settings, 0o600)
	for _, args := range [][]string{{"doctor"}, {"install", "--dry-run"}, {"install", "--yes"}, {"doctor"}, {"uninstall", "--dry-run"}, {"uninstall"}} {
		out, errOut, _ := c.run(t, args...)
		what := strings.Join(args, " ")
		if os.Getenv("MEW_SHOW") != "" {
			t.Logf("%s:\n%s%s", what, out, errOut)
		}
		assertSafe(t, what, out)
		assertSafe(t, what+" (stderr)", errOut)
	}
}

// lockedBuffer is a bytes.Buffer a test reads while a command writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

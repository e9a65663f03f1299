package hookbin_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

const statusInput = `{"session_id":"s-1","cwd":"/p","model":{"id":"claude-x","display_name":"X"},
"cost":{"total_cost_usd":0.25},"context_window":{"context_window_size":200000,"used_percentage":12.5,
"current_usage":{"input_tokens":100,"cache_creation_input_tokens":20,"cache_read_input_tokens":5}},
"rate_limits":{"five_hour":{"used_percentage":42,"resets_at":1790000000},"seven_day":{"used_percentage":91.5,"resets_at":1790500000}}}`

func statusStore(t *testing.T, command string, withRecord bool) store.Store {
	t.Helper()
	st := store.Store{Home: t.TempDir(), Fold: hookbin.Fold}
	if command != "" {
		if err := os.WriteFile(filepath.Join(st.Home, hookbin.StatuslineCommandFile), []byte(command), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if withRecord {
		if _, err := st.Update("s-1", time.Second, func(*session.Record, bool) bool { return true }); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestStatuslineRunsPersonsCommandAndRecordsUsage(t *testing.T) {
	// The person's command sees the very input and its output and exit
	// code pass through unchanged.
	st := statusStore(t, `cat > "$MEW_T_IN"; printf 'my line \033[1mbold\033[0m\n'; exit 3`, true)
	in := filepath.Join(t.TempDir(), "in")
	t.Setenv("MEW_T_IN", in)
	var out, errs bytes.Buffer
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	code := hookbin.RunStatusline(hookbin.StatuslineOptions{Stdin: bytes.NewReader([]byte(statusInput)), Stdout: &out, Stderr: &errs, Store: st, Now: now})
	if code != 3 || out.String() != "my line \033[1mbold\033[0m\n" {
		t.Fatalf("code %d, out %q (stderr %q)", code, out.String(), errs.String())
	}
	if got, _ := os.ReadFile(in); string(got) != statusInput {
		t.Errorf("the person's command read %q", got)
	}
	rec, err := st.Load("s-1")
	if err != nil {
		t.Fatal(err)
	}
	u := rec.Usage
	if u == nil || u.FiveHour == nil || u.FiveHour.UsedPercent != 42 || u.Weekly == nil || u.Weekly.UsedPercent != 91.5 ||
		!u.FiveHour.ResetsAt.Equal(time.Unix(1790000000, 0)) || u.ContextPercent == nil || *u.ContextPercent != 12.5 ||
		u.ContextSize != 200000 || u.ContextUsed != 125 || u.CostUSD == nil || *u.CostUSD != 0.25 || !u.At.Equal(now) || u.Model != "X" {
		t.Fatalf("usage recorded: %+v", u)
	}
}

func TestStatuslineNeverBreaksTheLine(t *testing.T) {
	for _, c := range []struct{ name, input string }{
		{"not json", "{{{"},
		{"hostile id", `{"session_id":"../../etc/passwd"}`},
		{"empty", ""},
		{"unknown session", `{"session_id":"other"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := statusStore(t, "echo line", false)
			var out bytes.Buffer
			code := hookbin.RunStatusline(hookbin.StatuslineOptions{Stdin: bytes.NewReader([]byte(c.input)), Stdout: &out, Stderr: &out, Store: st, Now: time.Now()})
			if code != 0 || out.String() != "line\n" {
				t.Fatalf("code %d, out %q", code, out.String())
			}
			if ents, _ := os.ReadDir(st.Dir()); len(ents) != 0 {
				t.Errorf("files made for a reading of no followed session: %v", ents)
			}
		})
	}
}

func TestStatuslineWithoutPersonsCommandPrintsNothing(t *testing.T) {
	st := statusStore(t, "", true)
	var out bytes.Buffer
	code := hookbin.RunStatusline(hookbin.StatuslineOptions{Stdin: bytes.NewReader([]byte(statusInput)), Stdout: &out, Stderr: &out, Store: st, Now: time.Now()})
	if code != 0 || out.Len() != 0 {
		t.Fatalf("code %d, out %q", code, out.String())
	}
	if rec, _ := st.Load("s-1"); rec.Usage == nil {
		t.Error("no usage recorded")
	}
}

func TestStatuslinePlainPathRunsLikeTheShell(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "line.sh")
	os.WriteFile(script, []byte("#!/bin/sh\nprintf 'from %s\\n' \"$0\"\n"), 0o755)
	for _, command := range []string{script, script + " ", "'" + script + "'", "sh " + script} {
		st := statusStore(t, command, false)
		var out bytes.Buffer
		code := hookbin.RunStatusline(hookbin.StatuslineOptions{Stdin: bytes.NewReader(nil), Stdout: &out, Stderr: &out, Store: st, Now: time.Now()})
		if code != 0 || out.String() != "from "+script+"\n" {
			t.Errorf("%q: code %d, out %q", command, code, out.String())
		}
	}
}

// A statusline stopped by Claude Code (SIGTERM to Mew's command) stops the
// person's command too, as it would without Mew.
func TestStatuslineStopReachesPersonsCommand(t *testing.T) {
	hook, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	pidFile := filepath.Join(home, "pid")
	os.WriteFile(filepath.Join(home, hookbin.StatuslineCommandFile), []byte(`echo $$ > '`+pidFile+`'; exec sleep 60`), 0o600)
	cmd := exec.Command(hook, hookbin.StatuslineFlag)
	cmd.Env = append(os.Environ(), "MEW_HOME="+home)
	cmd.Stdin = strings.NewReader(`{}`)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	for deadline := time.Now().Add(10 * time.Second); pid == 0 && time.Now().Before(deadline); {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		if pid == 0 {
			time.Sleep(10 * time.Millisecond) // the child writes its pid; nothing to wait on
		}
	}
	if pid == 0 {
		t.Fatal("the person's command never started")
	}
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Fatal("the person's command outlived Mew's")
}

package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/internal/fakeagent"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// A Claude Code session waits on a dialog in a pane of its own tmux
// server; `mew answer` runs outside that server (Mew watches another).
// The hooks name the session's server, so Mew reads the prompt there and
// knows its choices, and would type into that server's pane.
func TestAnswerFromOutsideTheSessionsTmuxServer(t *testing.T) {
	s := fakeagent.Start(t, "60")
	home := t.TempDir()
	s.WaitDialog(t, 1)
	id := "5d1e2f3a-4b5c-4d6e-8f70-81920a1b2c3d"
	now := time.Now().UTC()
	st := store.Store{Home: filepath.Join(home, ".mew")}
	if _, err := st.Update(id, time.Second, func(rec *session.Record, _ bool) bool {
		rec.Hook = &session.HookState{State: session.Waiting, Reason: session.ReasonPermission, Since: now, At: now, Source: "hook:PermissionRequest", Cwd: "/p/shop"}
		rec.Process = &session.Process{Pid: panePid(t, s), Tmux: &session.Tmux{Socket: s.Socket, Pane: s.Pane}}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(t.TempDir(), "another-server")
	out, errs, code := mewIn(t, home, elsewhere, "answer", id[:8])
	if code != 0 || !strings.Contains(out, "1  Yes\n2  Yes, and always allow access to /p\n3  No\n") || !strings.Contains(out, "tmux pane "+s.Pane) {
		t.Fatalf("list: %d %q %q", code, out, errs)
	}
	// The keys would go to that server's pane, not the watched server's.
	out, _, _ = mewIn(t, home, elsewhere, "answer", "--json", id[:8])
	var list struct{ Target answer.Target }
	if err := json.Unmarshal([]byte(out), &list); err != nil || list.Target.Socket != s.Socket || list.Target.Pane != s.Pane {
		t.Fatalf("target %+v (%v), want pane %s of %s", list.Target, err, s.Pane, s.Socket)
	}
}

// panePid is the pid of the stand-in (the pane's own process).
func panePid(t *testing.T, s *fakeagent.Server) int {
	t.Helper()
	out, err := exec.Command("tmux", "-S", s.Socket, "display-message", "-p", "-t", s.Pane, "#{pane_pid}").Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

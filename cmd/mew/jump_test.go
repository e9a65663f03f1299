package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

func jumpStore(t *testing.T, recs ...session.Record) {
	t.Helper()
	t.Setenv("MEW_HOME", t.TempDir())
	st, err := store.Open(hookbin.Fold)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		r := r
		if _, err := st.Update(r.ID, time.Second, func(rec *session.Record, _ bool) bool {
			id := rec.ID
			*rec = r
			rec.ID, rec.Version, rec.Agent = id, session.RecordVersion, session.AgentClaude
			return true
		}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestJumpRefusesBadAndUnknownSessions(t *testing.T) {
	jumpStore(t,
		session.Record{ID: "abc-1", Hook: &session.HookState{Cwd: "/tmp"}},
		session.Record{ID: "abd-2"},
	)
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"../../etc/passwd"}, jumpUsage, "not a session id"},
		{[]string{"abc 1; rm -rf ~"}, jumpUsage, "not a session id"},
		{[]string{"-"}, jumpUsage, "not a session id"},
		{[]string{}, jumpUsage, "Run 'mew jump --help' for usage"},
		{[]string{"a", "b"}, jumpUsage, "Run 'mew jump --help' for usage"},
		{[]string{"zzz"}, jumpUsage, `no session "zzz"`},
		{[]string{"ab"}, jumpUsage, "matches several sessions: abc-1, abd-2"},
		// Found by its unique prefix, but no process was ever recorded.
		{[]string{"abc"}, jumpNone, "did not jump: the session's process was never recorded"},
		{[]string{"--timeout", "0s", "abc"}, jumpUsage, "--timeout"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(append([]string{"jump"}, c.args...), &out, &errb)
		if code != c.code || !strings.Contains(errb.String()+out.String(), c.msg) {
			t.Errorf("mew jump %q: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, out.String(), errb.String(), c.code, c.msg)
		}
	}
}

func TestJumpDryRunRunsNothing(t *testing.T) {
	// A tmux session on a socket that does not exist: the plan explains,
	// nothing runs, the exit status is 0 for a printed plan.
	jumpStore(t, session.Record{ID: "dry-1", Process: &session.Process{
		Pid: 1, Tmux: &session.Tmux{Socket: "/nonexistent/mew-test.sock", Pane: "%3", ServerPid: 999999},
	}})
	var out, errb bytes.Buffer
	code := run([]string{"jump", "--dry-run", "dry"}, &out, &errb)
	if code != jumpExact || !strings.Contains(out.String(), "session:   dry-1") || !strings.Contains(out.String(), "precision: none") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"jump", "--dry-run", "--json", "dry-1"}, &out, &errb); code != jumpExact || !strings.Contains(out.String(), `"tmux_pane": "%3"`) {
		t.Fatalf("json: exit %d\n%s", code, out.String())
	}
}

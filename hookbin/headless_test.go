package hookbin_test

import (
	"testing"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/store"
)

// Claude Code tells its hooks whether a person attends the session; the
// hook records it at SessionStart.
func TestSessionStartRecordsHeadless(t *testing.T) {
	bin := hookBinary(t)
	for _, c := range []struct {
		env  []string
		want bool
	}{
		{[]string{"CLAUDE_CODE_SESSION_ATTENDED=1", "CLAUDE_CODE_ENTRYPOINT=cli"}, false},
		{[]string{"CLAUDE_CODE_SESSION_ATTENDED=0", "CLAUDE_CODE_ENTRYPOINT=sdk-cli"}, true},
		{[]string{"CLAUDE_CODE_ENTRYPOINT=sdk-ts"}, true}, // an older Claude Code: the entrypoint alone
		{[]string{"CLAUDE_CODE_ENTRYPOINT=cli"}, false},
		{nil, false}, // nothing said: attended, as before
	} {
		home := t.TempDir()
		// The test's own environment stays out: both variables are set,
		// empty unless the case names them (the later value wins).
		env := append([]string{"CLAUDE_CODE_SESSION_ATTENDED=", "CLAUDE_CODE_ENTRYPOINT="}, c.env...)
		r := runHook(t, bin, home, []byte(`{"session_id":"hl","hook_event_name":"SessionStart","source":"startup"}`), env...)
		if r.exit != 0 || r.stdout != "" {
			t.Fatalf("%+v", r)
		}
		rec, err := store.Store{Home: home, Fold: hookbin.Fold}.Load("hl")
		if err != nil || rec.Process == nil {
			t.Fatalf("%v: %+v %v", c.env, rec, err)
		}
		if rec.Process.Headless != c.want {
			t.Errorf("%v: headless %v, want %v", c.env, rec.Process.Headless, c.want)
		}
	}
}

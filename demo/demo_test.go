package demo

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
)

func TestScriptIsConsistent(t *testing.T) {
	started := map[int]bool{}
	ids := map[string]bool{}
	for _, s := range Sims {
		if !session.ValidID(s.ID) || ids[s.ID] {
			t.Errorf("sim id %q is invalid or repeated", s.ID)
		}
		ids[s.ID] = true
	}
	d := &Demo{o: Options{Dir: "/tmp/demo"}}
	for i, st := range Script {
		if i > 0 && st.At < Script[i-1].At {
			t.Errorf("step %d runs before step %d", i, i-1)
		}
		if st.Session < 0 || st.Session >= len(Sims) {
			t.Fatalf("step %d names session %d", i, st.Session)
		}
		if !started[st.Session] && (len(st.Events) == 0 || st.Events[0].Name != reducer.SessionStart) {
			t.Errorf("step %d: %s's first event is not SessionStart", i, Sims[st.Session].Project)
		}
		started[st.Session] = true
		for _, e := range st.Events {
			p, err := d.payload(Sims[st.Session], e)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := reducer.Parse(p)
			if err != nil || ev.Name != e.Name || ev.SessionID != Sims[st.Session].ID {
				t.Errorf("step %d: payload %s parses as %+v, %v", i, p, ev, err)
			}
		}
		switch st.Registry {
		case "", "idle", "busy", "gone":
		case "waiting":
			if st.WaitingFor == "" {
				t.Errorf("step %d: waiting without waitingFor", i)
			}
		default:
			t.Errorf("step %d: registry status %q", i, st.Registry)
		}
	}
	if len(started) != len(Sims) {
		t.Errorf("only %d of %d sessions appear in the script", len(started), len(Sims))
	}
}

func TestAgentRunsTheHookPerLine(t *testing.T) {
	var out bytes.Buffer
	if err := Agent("/bin/true", strings.NewReader("{}\n{}\n"), &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "ok\nok\n" {
		t.Errorf("replies %q", out.String())
	}
	out.Reset()
	if err := Agent("/bin/false", strings.NewReader("{}\n"), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "mew-hook: ") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("a failing hook replied %q", out.String())
	}
	if err := Agent("relative/mew-hook", strings.NewReader(""), &out); err == nil {
		t.Error("a relative hook path was accepted")
	}
}

func TestStartRefusesBadOptions(t *testing.T) {
	dir := t.TempDir()
	for _, o := range []Options{
		{HookPath: "mew-hook", AgentArgv: []string{"x"}, Dir: dir},
		{HookPath: "/nonexistent/mew-hook", AgentArgv: []string{"x"}, Dir: dir},
		{HookPath: "/bin/true", Dir: dir},
	} {
		if _, err := Start(o); err == nil {
			t.Errorf("Start(%+v) succeeded", o)
		}
	}
}

package monitor

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// staticSource is a source that always sees the same observations.
type staticSource struct {
	name string
	obs  []Observation
}

func (s staticSource) Name() string                                { return s.name }
func (s staticSource) Scan(context.Context) ([]Observation, error) { return s.obs, nil }
func (s staticSource) Watch(ctx context.Context, out chan<- []Observation) error {
	out <- s.obs
	<-ctx.Done()
	return nil
}

// The process scan sees every agent process: one that a hook, a screen or
// a log also reports joins that session (whatever order the sources come
// in); one nobody else reports is listed alone, idle, with its folder.
func TestBareProcessesJoinOrStandAlone(t *testing.T) {
	self, err := proctree.Lean{}.Get(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	st := store.Store{Home: t.TempDir(), Fold: hookbin.Fold}
	// A hook session of this very process.
	if _, err := st.Update("ses_1", time.Second, func(r *session.Record, _ bool) bool {
		r.Agent = session.AgentOpenCode
		r.Hook = &session.HookState{State: session.Working, Source: "hook:TurnRunning", At: time.Now(), Since: time.Now()}
		r.Process = &session.Process{Pid: self.Pid, StartMs: self.StartMs}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	bare := func(pid int, start int64, tty, pane, cwd, agent string) Observation {
		p := session.Process{Pid: pid, StartMs: start, Tty: tty, Cwd: cwd}
		if pane != "" {
			p.Tmux = &session.Tmux{Pane: pane}
		}
		return Observation{Fallback: "proc:" + itoa(pid), Agent: agent, Process: p}
	}
	procs := staticSource{"aaa-procscan", []Observation{
		bare(self.Pid, self.StartMs, "/dev/pts/1", "", "/work/a", session.AgentOpenCode),
		bare(self.PPid, 0, "/dev/pts/2", "%2", "/work/b", session.AgentGemini),
		bare(1, 0, "/dev/pts/3", "", "/work/c", session.AgentAmp),
	}}
	screen := staticSource{"tmux", []Observation{{Fallback: "tmux:%2", Agent: session.AgentGemini,
		Process: session.Process{Pid: self.PPid, Tmux: &session.Tmux{Pane: "%2"}},
		Screen:  &session.ScreenState{Agent: session.AgentGemini, State: session.ScreenIdle, Pane: "%2", Pid: self.PPid, At: time.Now()}}}}
	o := Options{Store: st, Sources: []Source{procs, screen}, Procs: proctree.Lean{}, TicksToMs: proctree.TicksToUnixMs, Now: time.Now}
	shown, errs := Snapshot(o)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	byID := map[string]session.Shown{}
	for _, s := range shown {
		byID[s.ID] = s
	}
	if len(shown) != 3 {
		t.Fatalf("sessions %v, want ses_1, tmux:%%2 and proc:1", shown)
	}
	if s := byID["ses_1"]; s.State != session.Working || s.Agent != session.AgentOpenCode {
		t.Errorf("the hook session: %+v", s)
	}
	if s, ok := byID["tmux:%2"]; !ok || s.Cwd != "/work/b" || s.Tty != "/dev/pts/2" {
		t.Errorf("a screen and the scan of the same process: %+v (ok %v); want the screen's id with the scan's folder", s, ok)
	}
	if s := byID["proc:1"]; s.State != session.Idle || s.Source != "process:running" || s.Cwd != "/work/c" || s.Agent != session.AgentAmp || s.Pid != 1 {
		t.Errorf("a process only the scan sees: %+v", s)
	}
}

func itoa(n int) string {
	b := []byte{}
	for n >= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(append([]byte{byte('0' + n)}, b...))
}

package codex_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/internal/fixture"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/source/codex"
	"github.com/mew-dev/mew/source/procscan"
	"github.com/mew-dev/mew/store"
)

// procTable is a fixed process table for the hook and for liveness.
type procTable map[int]proctree.Proc

func (t procTable) Get(pid int) (proctree.Proc, error) {
	if p, ok := t[pid]; ok {
		return p, nil
	}
	return proctree.Proc{}, proctree.ErrNoProcess
}

// The pids of a replay: the hook runs under the daemon; the TUI is on a
// terminal in the session's directory.
const (
	hookPid   = 30100
	daemonPid = 9997
	tuiPid    = 9493
)

// TestReplayRecordedRuns replays each recorded Codex 0.169.0 run through
// the real code paths — every hook payload through mew-hook's Run into a
// store (at the moment the hook started), every rollout line appended to a
// real rollout file in a CODEX_HOME (at the moment it appeared), the TUI in
// the process table until the run's exit — and checks `monitor.Snapshot`
// with the Codex source every 100 ms against the recording's truth
// (AGENTS-README.md): waiting from the PermissionRequest hook until the
// answering key, working from task_started to task_complete/turn_aborted,
// exited from the exit, done, failed or idle otherwise. Samples within
// 0.5 s of a change are left out, as are those before the session's
// rollout exists (no source knows the session yet).
func TestReplayRecordedRuns(t *testing.T) {
	runs, err := fixture.LoadCodex(fixture.CodexRoot("0.169.0"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		t.Run(r.Name, func(t *testing.T) { replay(t, r) })
	}
}

type change struct {
	at    float64
	state session.State
}

// truth lists the state changes the recording shows.
func truth(t *testing.T, r fixture.CodexRun) []change {
	var out []change
	for _, l := range r.Rollout {
		p, ok := codex.ParseLine([]byte(l.Line))
		if !ok {
			continue
		}
		switch {
		case p.Event == "task_started":
			out = append(out, change{l.Seen, session.Working})
		case p.Event == "task_complete" && p.Error != "":
			out = append(out, change{l.Seen, session.Failed})
		case p.Event == "task_complete":
			out = append(out, change{l.Seen, session.Done})
		case p.Event == "turn_aborted":
			out = append(out, change{l.Seen, session.Idle})
		}
	}
	for _, h := range r.Hooks {
		if h.Event != "PermissionRequest" {
			continue
		}
		out = append(out, change{h.Start, session.Waiting})
		key, ok := r.KeyAfter(h.Start, "")
		if !ok {
			t.Fatalf("%s: no key answered the dialog", r.Name)
		}
		out = append(out, change{key, session.Working})
	}
	x, ok := r.Marks["x1"]
	if !ok {
		t.Fatalf("%s: no exit mark", r.Name)
	}
	out = append(out, change{x, session.Exited})
	sortChanges(out)
	return out
}

func sortChanges(c []change) {
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && c[j].at < c[j-1].at; j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
}

func stateAt(changes []change, t float64) (session.State, bool) {
	st := session.Idle
	for _, c := range changes {
		if c.at <= t {
			st = c.state
		}
		if d := c.at - t; d < 0.5 && d > -0.5 {
			return st, false
		}
	}
	return st, true
}

func replay(t *testing.T, r fixture.CodexRun) {
	t0 := time.Unix(0, int64(r.T0*1e9)).UTC()
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	var now time.Time

	mewHome := t.TempDir()
	st := store.Store{Home: mewHome, Fold: hookbin.Fold}
	codexHome := t.TempDir()
	os.MkdirAll(filepath.Join(codexHome, "app-server-daemon"), 0o700)
	os.WriteFile(filepath.Join(codexHome, "app-server-daemon", "daemon.pid"), []byte(fmt.Sprintf(`{"pid":%d}`, daemonPid)), 0o600)

	var sid, cwd string
	for _, l := range r.Rollout {
		if sid = codex.SessionIDFromName(l.File); sid != "" {
			break
		}
	}
	for _, h := range r.Hooks {
		if c := payloadCwd(h.Payload); c != "" {
			cwd = c
		}
	}
	if sid == "" || cwd == "" {
		t.Fatalf("no session id or cwd in the recording")
	}
	started := codex.CreatedFromID(sid).Add(-2 * time.Second).UnixMilli()
	procs := procTable{
		hookPid:   {Pid: hookPid, PPid: daemonPid, Name: "sh"},
		daemonPid: {Pid: daemonPid, PPid: 1, Name: "codex", StartMs: started},
	}
	exit := r.Marks["x1"]
	src := &codex.Source{
		Home: codexHome, Recent: 100 * 365 * 24 * time.Hour, Now: func() time.Time { return now }, Hooked: codex.HookedFromStore(st),
		Procs: func(context.Context) ([]procscan.Proc, error) {
			list := []procscan.Proc{{Pid: daemonPid, PPid: 1, StartMs: started, Name: "codex", Args: []string{"codex", "app-server", "--listen", "unix://", "--managed-daemon"}, Cwd: cwd}}
			if now.Before(at(exit)) {
				list = append(list, procscan.Proc{Pid: tuiPid, PPid: 9435, StartMs: started, Name: "codex", Args: []string{"codex", "please"}, Tty: "/dev/pts/2", Cwd: cwd})
			}
			return list, nil
		},
		Environ: func(int, []string) (map[string]string, error) {
			return map[string]string{"TMUX": "/tmp/tmux-0/default,77,0", "TMUX_PANE": "%3"}, nil
		},
	}
	rolloutFile := ""
	opts := monitor.Options{Store: st, Sources: []source.Source{src}, Procs: procs, Now: func() time.Time { return now }}

	changes := truth(t, r)
	hooks, lines := r.Hooks, r.Rollout
	end := exit + 3
	var bad []string
	scored, matched := 0, 0
	for s := 0.0; s <= end; s += 0.1 {
		now = at(s)
		for len(hooks) > 0 && hooks[0].Start <= s {
			h := hooks[0]
			hooks = hooks[1:]
			hookbin.Run(hookbin.Options{
				Stdin: bytes.NewReader(h.Payload), Getenv: func(string) string { return "" }, Environ: os.Environ,
				Now: at(h.Start), Pid: hookPid, Procs: procs, Store: st, LockTimeout: time.Second,
				Log: &hookbin.Log{Path: filepath.Join(mewHome, "mew-hook.log")}, Agent: session.AgentCodex,
			})
		}
		for len(lines) > 0 && lines[0].Seen <= s {
			if rolloutFile == "" {
				// In the day folder Codex would use at that moment.
				d := now.Local()
				rolloutFile = filepath.Join(codexHome, "sessions", d.Format("2006"), d.Format("01"), d.Format("02"), lines[0].File)
				os.MkdirAll(filepath.Dir(rolloutFile), 0o700)
			}
			f, err := os.OpenFile(rolloutFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(lines[0].Line + "\n")
			f.Close()
			lines = lines[1:]
		}
		if rolloutFile == "" {
			continue // no source knows the session yet
		}
		shown, errs := monitor.Snapshot(opts)
		if len(errs) > 0 {
			t.Fatalf("at %.1f s: %v", s, errs)
		}
		want, certain := stateAt(changes, s)
		if !certain {
			continue
		}
		scored++
		var got session.Shown
		for _, sh := range shown {
			if sh.ID == sid {
				got = sh
			}
		}
		ok := got.State == want && (want != session.Waiting || got.Reason == session.ReasonPermission)
		if ok {
			matched++
		} else {
			bad = append(bad, fmt.Sprintf("%.1f s: %s(%s) from %s, want %s", s, got.State, got.Reason, got.Source, want))
		}
		if got.ID != "" && got.State != session.Exited && (got.Agent != session.AgentCodex || got.Tty != "/dev/pts/2" || got.Tmux != "%3") {
			t.Fatalf("at %.1f s: %+v; want a codex session at its TUI's terminal and pane", s, got)
		}
	}
	t.Logf("%s: %d/%d samples right", r.Name, matched, scored)
	if scored < 20 || matched != scored {
		t.Errorf("%d of %d samples wrong:\n%s", scored-matched, scored, strings.Join(bad, "\n"))
	}
}

func payloadCwd(p []byte) string {
	const key = `"cwd": "`
	i := bytes.Index(p, []byte(key))
	if i < 0 {
		return ""
	}
	rest := p[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}

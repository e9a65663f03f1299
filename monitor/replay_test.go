package monitor_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/internal/fixture"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/registry"
	"github.com/mew-dev/mew/store"
)

// needsRegistry lists the checkpoints hooks alone cannot decide, and why.
// TestReplayHooksOnly skips exactly these and checks that hooks alone really
// get them wrong, so the list can't grow to hide a regression.
var needsRegistry = map[string]map[float64]string{
	"permission": {
		6.3:  "the prompt was answered; the registry says busy 0.15 s before PostToolUse",
		6.65: "Stop came, but the registry still says busy until the turn has really ended",
	},
	"interrupt": {
		4.2: "Esc on a running turn fires no hook; only the registry's idle tells",
	},
}

type mode int

const (
	hooksAndRegistry mode = iota
	hooksOnly
	registryOnly
)

func (m mode) String() string {
	return [...]string{"hooks+registry", "hooks only", "registry only"}[m]
}

// replayer feeds a recorded run through the real mew-hook binary and a
// registry directory, on this machine's clock, and asks monitor.Snapshot at
// each checkpoint.
type replayer struct {
	t        *testing.T
	hook     string
	opts     monitor.Options
	mode     mode
	regDir   string
	selfPid  int
	selfTick uint64
	started  time.Time
}

func newReplayer(t *testing.T, m mode) *replayer {
	t.Helper()
	hook, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		t.Fatal(err)
	}
	self, err := proctree.Lean{}.Get(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	r := &replayer{t: t, hook: hook, mode: m, selfPid: self.Pid, selfTick: self.StartTicks, started: time.Now()}
	r.opts = monitor.Options{
		Store: store.Store{Home: home, Fold: hookbin.Fold}, Procs: proctree.Lean{}, TicksToMs: proctree.TicksToUnixMs,
		Now: time.Now, LockTimeout: 2 * time.Second,
	}
	if m != hooksOnly {
		r.regDir = filepath.Join(t.TempDir(), "sessions")
		if err := os.MkdirAll(r.regDir, 0o700); err != nil {
			t.Fatal(err)
		}
		r.opts.Sources = append(r.opts.Sources, registry.New(r.regDir))
	}
	return r
}

// apply plays one event. The session's process is this test process: the
// hook runs under `sh -c` (as Claude Code runs it), so SessionStart records
// its nearest non-shell ancestor, us; registry documents are rewritten to
// our pid and start time. So the process is alive until SessionEnd.
func (r *replayer) apply(e fixture.Event) {
	r.t.Helper()
	switch e.Source {
	case "hook":
		if r.mode == registryOnly {
			return
		}
		cmd := exec.Command("/bin/sh", "-c", `"$0"`, r.hook)
		cmd.Stdin = bytes.NewReader(e.Doc)
		cmd.Env = append(os.Environ(), "MEW_HOME="+r.opts.Store.Home)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil || out.Len() > 0 {
			r.t.Fatalf("mew-hook: err=%v output=%q", err, out.String())
		}
	case "registry":
		if r.mode == hooksOnly {
			return
		}
		path := filepath.Join(r.regDir, strconv.Itoa(r.selfPid)+".json")
		if e.IsNull() {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				r.t.Fatal(err)
			}
			return
		}
		var doc map[string]any
		if err := json.Unmarshal(e.Doc, &doc); err != nil {
			r.t.Fatal(err)
		}
		now := time.Now().UnixMilli()
		doc["pid"] = r.selfPid
		doc["procStart"] = strconv.FormatUint(r.selfTick, 10)
		doc["startedAt"] = r.started.UnixMilli()
		for _, k := range []string{"updatedAt", "statusUpdatedAt"} {
			if _, ok := doc[k]; ok {
				doc[k] = now
			}
		}
		data, _ := json.Marshal(doc)
		if err := store.WriteFileAtomic(path, data, 0o600); err != nil {
			r.t.Fatal(err)
		}
	}
	// Keep every observation on its own millisecond, in order.
	time.Sleep(3 * time.Millisecond)
}

func (r *replayer) state(id string) (session.Shown, bool) {
	r.t.Helper()
	shown, errs := monitor.Snapshot(r.opts)
	for _, err := range errs {
		r.t.Errorf("snapshot: %v", err)
	}
	for _, s := range shown {
		if s.ID == id {
			return s, true
		}
	}
	return session.Shown{}, false
}

// result is what Mew reported at one checkpoint.
type result struct {
	cp    fixture.Checkpoint
	shown session.Shown
	found bool
}

func (res result) ok() bool {
	return res.found && string(res.shown.State) == res.cp.State && string(res.shown.Reason) == res.cp.Reason
}

func (res result) String() string {
	got := "not listed"
	if res.found {
		got = fmt.Sprintf("%s(%s) by %s", res.shown.State, res.shown.Reason, res.shown.Source)
	}
	return fmt.Sprintf("at %.2fs want %s(%s), got %s", res.cp.At, res.cp.State, res.cp.Reason, got)
}

// replay plays run and returns what Mew said at each checkpoint.
func replay(t *testing.T, run fixture.Run, m mode) []result {
	r := newReplayer(t, m)
	var out []result
	next := 0
	check := func(upTo float64) {
		for next < len(run.Checkpoints) && run.Checkpoints[next].At < upTo {
			cp := run.Checkpoints[next]
			s, found := r.state(run.SessionID)
			out = append(out, result{cp: cp, shown: s, found: found})
			next++
		}
	}
	for _, e := range run.Events {
		check(e.T)
		r.apply(e)
	}
	check(1e9)
	return out
}

func loadRuns(t *testing.T) []fixture.Run {
	t.Helper()
	runs, err := fixture.Load(fixture.Root("2.1.328"))
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

func TestReplayHooksAndRegistry(t *testing.T) {
	for _, run := range loadRuns(t) {
		t.Run(run.Name, func(t *testing.T) {
			t.Parallel()
			for _, res := range replay(t, run, hooksAndRegistry) {
				if !res.ok() {
					t.Errorf("%s", res)
				}
			}
		})
	}
}

func TestReplayHooksOnly(t *testing.T) {
	for _, run := range loadRuns(t) {
		t.Run(run.Name, func(t *testing.T) {
			t.Parallel()
			for _, res := range replay(t, run, hooksOnly) {
				why, skip := needsRegistry[run.Name][res.cp.At]
				switch {
				case skip && res.ok():
					t.Errorf("%s: listed as needing the registry (%s), but hooks alone got it right: drop it from the list", res, why)
				case skip:
					t.Logf("skipped (needs the registry: %s): %s", why, res)
				case !res.ok():
					t.Errorf("%s", res)
				}
			}
		})
	}
}

// With no hooks installed at all, the registry alone still lists the
// session, shows the permission wait and then the finished turn.
func TestReplayRegistryOnlyPermission(t *testing.T) {
	run, err := fixture.LoadRun(filepath.Join(fixture.Root("2.1.328"), "permission"))
	if err != nil {
		t.Fatal(err)
	}
	r := newReplayer(t, registryOnly)
	var seq []string
	listed := false
	for _, e := range run.Events {
		r.apply(e)
		s, found := r.state(run.SessionID)
		if !found {
			continue
		}
		listed = true
		if s.HooksSeen {
			t.Fatalf("hooks reported in a registry-only replay: %+v", s)
		}
		label := string(s.State)
		if s.Reason != "" {
			label += "(" + string(s.Reason) + ")"
		}
		if len(seq) == 0 || seq[len(seq)-1] != label {
			seq = append(seq, label)
		}
	}
	if !listed {
		t.Fatal("the session was never listed")
	}
	want := []string{"idle", "working", "waiting(permission)", "working", "done"}
	if fmt.Sprint(seq) != fmt.Sprint(want) {
		t.Fatalf("registry-only states = %v, want %v", seq, want)
	}
}

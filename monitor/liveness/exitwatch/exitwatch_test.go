package exitwatch_test

import (
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/monitor/liveness/exitwatch"
)

func newWatcher(t testing.TB) *exitwatch.Watcher {
	t.Helper()
	w, err := exitwatch.New()
	if errors.Is(err, exitwatch.ErrUnsupported) {
		t.Skip("no exit events on this system")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// orphan starts a sleep that is not our child (its shell exits at once and
// it is re-parented), like an agent process Mew watches, and returns its
// pid. It is killed at the end of the test.
func orphan(t testing.TB) int {
	t.Helper()
	out, err := exec.Command("sh", "-c", "sleep 300 >/dev/null 2>&1 & echo $!").Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

func expectExit(t *testing.T, w *exitwatch.Watcher, want int) {
	t.Helper()
	select {
	case pid := <-w.Exits():
		if pid != want {
			t.Fatalf("exit of %d reported, want %d", pid, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("exit of %d not reported within 5 s", want)
	}
}

func expectQuiet(t *testing.T, w *exitwatch.Watcher, d time.Duration) {
	t.Helper()
	select {
	case pid := <-w.Exits():
		t.Fatalf("exit of %d reported, want none", pid)
	case <-time.After(d):
	}
}

func TestReportsTheExitOfAProcessThatIsNotAChild(t *testing.T) {
	w := newWatcher(t)
	a, b := orphan(t), orphan(t)
	for _, pid := range []int{a, b} {
		if err := w.Add(pid); err != nil {
			t.Fatal(err)
		}
	}
	expectQuiet(t, w, 100*time.Millisecond) // both still run
	syscall.Kill(b, syscall.SIGKILL)
	expectExit(t, w, b)
	if n := w.Watching(); n != 1 {
		t.Fatalf("watching %d pids after one exit, want 1", n)
	}
	syscall.Kill(a, syscall.SIGKILL)
	expectExit(t, w, a)
	expectQuiet(t, w, 50*time.Millisecond) // each once
}

func TestAGonePidIsReportedAtOnce(t *testing.T) {
	w := newWatcher(t)
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	gone := cmd.Process.Pid // reaped: no such process now (reuse within the test is unlikely)
	if err := w.Add(gone); err != nil {
		t.Fatal(err)
	}
	expectExit(t, w, gone)
}

func TestAddingTwiceReportsOnce(t *testing.T) {
	w := newWatcher(t)
	pid := orphan(t)
	for range 3 {
		if err := w.Add(pid); err != nil {
			t.Fatal(err)
		}
	}
	syscall.Kill(pid, syscall.SIGKILL)
	expectExit(t, w, pid)
	expectQuiet(t, w, 100*time.Millisecond)
}

func TestRemovedPidsAreNotReported(t *testing.T) {
	w := newWatcher(t)
	pid := orphan(t)
	if err := w.Add(pid); err != nil {
		t.Fatal(err)
	}
	w.Remove(pid)
	syscall.Kill(pid, syscall.SIGKILL)
	expectQuiet(t, w, 200*time.Millisecond)
	if n := w.Watching(); n != 0 {
		t.Fatalf("watching %d after Remove", n)
	}
}

func TestCloseEndsEverything(t *testing.T) {
	w := newWatcher(t)
	pid := orphan(t)
	if err := w.Add(pid); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(pid); !errors.Is(err, exitwatch.ErrClosed) {
		t.Fatalf("Add after Close: %v, want ErrClosed", err)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	expectQuiet(t, w, 100*time.Millisecond)
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestRejectsBadPids(t *testing.T) {
	w := newWatcher(t)
	for _, pid := range []int{0, -1} {
		if err := w.Add(pid); err == nil {
			t.Errorf("Add(%d) succeeded", pid)
		}
	}
}

package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestAcquireInstanceOnce(t *testing.T) {
	home := filepath.Join(t.TempDir(), "mew")
	release, ok, err := acquireInstance(home)
	if err != nil || !ok {
		t.Fatalf("first: ok=%v err=%v", ok, err)
	}
	// flock locks belong to the open file: a second open, as a second
	// process would make, is refused.
	if _, ok2, err := acquireInstance(home); err != nil || ok2 {
		t.Fatalf("second while held: ok=%v err=%v; want refused", ok2, err)
	}
	release()
	r3, ok3, err := acquireInstance(home)
	if err != nil || !ok3 {
		t.Fatalf("after release: ok=%v err=%v", ok3, err)
	}
	r3()
	if st, err := os.Stat(filepath.Join(home, instanceLockName)); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("lock file: %v %v", st, err)
	}
}

// Another process holding the lock (what a running Mew is) keeps this one
// out.
func TestAcquireInstanceAcrossProcesses(t *testing.T) {
	flockBin, err := exec.LookPath("flock")
	if err != nil {
		t.Skip("no flock(1)")
	}
	home := t.TempDir()
	lock := filepath.Join(home, instanceLockName)
	cmd := exec.Command(flockBin, "--exclusive", lock, "sleep", "30")
	// Its own process group: flock's child (sleep) holds the lock too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() }
	defer stop()
	// Wait until the other process holds it.
	for i := 0; ; i++ {
		release, ok, err := acquireInstance(home)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		release()
		if i > 500 {
			t.Fatal("the other process never took the lock")
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	// The killed processes close their files as they exit, a moment after
	// the signal.
	deadline := time.Now().Add(10 * time.Second)
	for {
		release, ok, err := acquireInstance(home)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			release()
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the lock stayed taken after the other process ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

package main

import (
	"bufio"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// A command stuck after a signal (its cleanup never returns) still ends:
// SIGTERM cancels, and the grace period or a second signal ends it.
func TestSignalAlwaysEnds(t *testing.T) {
	if os.Getenv("MEW_TEST_STUCK") == "1" {
		ctx, _ := untilStopped()
		os.Stdout.WriteString("ready\n")
		<-ctx.Done()
		time.Sleep(time.Hour) // a cleanup that never returns
		return
	}
	for _, second := range []bool{false, true} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSignalAlwaysEnds$")
		cmd.Env = append(os.Environ(), "MEW_TEST_STUCK=1")
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if l, err := bufio.NewReader(out).ReadString('\n'); err != nil || l != "ready\n" {
			t.Fatalf("helper: %q %v", l, err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		cmd.Process.Signal(syscall.SIGTERM)
		if second {
			cmd.Process.Signal(syscall.SIGTERM)
		}
		select {
		case <-done:
		case <-time.After(25 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("SIGTERM (second %v) did not end a stuck command", second)
		}
	}
}

package demo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// StandIn is a running stand-in agent (a process running Agent's loop):
// its pid is the session's process, and each Hook runs mew-hook from it.
type StandIn struct {
	Pid     int
	Started time.Time
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	replies *bufio.Scanner
}

// StartStandIn starts cmd, which runs Agent's loop (`mew demo --agent`).
func StartStandIn(cmd *exec.Cmd) (*StandIn, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start a stand-in agent: %w", err)
	}
	return &StandIn{cmd: cmd, stdin: in, replies: bufio.NewScanner(out), Pid: cmd.Process.Pid, Started: time.Now()}, nil
}

// Hook has the stand-in run mew-hook with payload, and waits for it.
func (a *StandIn) Hook(payload []byte) error {
	if a.cmd == nil {
		return errors.New("the session's stand-in agent has stopped")
	}
	if _, err := a.stdin.Write(append(payload, '\n')); err != nil {
		return fmt.Errorf("stand-in agent: %w", err)
	}
	if !a.replies.Scan() {
		return errors.New("the stand-in agent stopped answering")
	}
	if r := a.replies.Text(); r != "ok" {
		return fmt.Errorf("stand-in agent: %s", r)
	}
	return nil
}

// Stop ends the stand-in: closing its input is its cue to exit; one that
// has not exited 2 s later is killed.
func (a *StandIn) Stop() {
	if a.cmd == nil {
		return
	}
	a.stdin.Close()
	done := make(chan struct{})
	go func() { a.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		a.cmd.Process.Kill()
		<-done
	}
	a.cmd = nil
}

package driver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/mew-dev/mew/notify"
)

// Alerts is the run's sending Mew, `mew watch --headless` (what a login
// service runs), with one command sink that appends every alert it sends
// to a file: what a person's phone or desktop would have been told.
type Alerts struct {
	file string
	cmd  *exec.Cmd
	done chan error
	stop sync.Once
}

// StartAlerts adds the sink (`mew notify add`) and starts the sending Mew,
// returning once it holds the sending lock and has learned the sessions
// there already (its first update only learns; mew.log says both).
func (r *Run) StartAlerts() (*Alerts, error) {
	file := filepath.Join(filepath.Dir(r.Home), "alerts.jsonl")
	add := exec.Command(r.Opts.Mew, "notify", "add", "e2e", "--command", "--", "/bin/sh", "-c", `cat >> "$0"; echo >> "$0"`, file)
	add.Env = r.Env
	if out, err := add.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("mew notify add: %v\n%s", err, out)
	}
	cmd := exec.Command(r.Opts.Mew, "watch", "--headless")
	cmd.Env = r.Env
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	a := &Alerts{file: file, cmd: cmd, done: make(chan error, 1)}
	go func() { a.done <- cmd.Wait() }()
	log := filepath.Join(r.MewHome, "mew.log")
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(log)
		if bytes.Contains(b, []byte("notify: this Mew sends")) && bytes.Contains(b, []byte("notify: watching")) {
			r.TL.Addf(time.Now(), "note", "mew watch --headless sends the alerts")
			return a, nil
		}
		select {
		case err := <-a.done:
			return nil, fmt.Errorf("mew watch --headless ended (%v); mew.log:\n%s", err, b)
		case <-time.After(20 * time.Millisecond): // mew.log has no event to wait on
		}
		if time.Now().After(deadline) {
			a.Stop()
			return nil, fmt.Errorf("mew watch --headless never said it sends; mew.log:\n%s", b)
		}
	}
}

// Sent returns the alerts sent so far.
func (a *Alerts) Sent() []notify.Message {
	f, err := os.Open(a.file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []notify.Message
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m notify.Message
		if len(bytes.TrimSpace(sc.Bytes())) > 0 && json.Unmarshal(sc.Bytes(), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// Wait waits until an alert ok accepts has been sent and returns it. The
// sink's file is the only event there is: it is read every 20 ms.
func (a *Alerts) Wait(ok func(notify.Message) bool, timeout time.Duration) (notify.Message, time.Time, error) {
	deadline := time.Now().Add(timeout)
	for {
		for _, m := range a.Sent() {
			if ok(m) {
				return m, time.Now(), nil
			}
		}
		if time.Now().After(deadline) {
			return notify.Message{}, time.Time{}, fmt.Errorf("no such alert within %v (sent: %+v)", timeout, a.Sent())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop ends the sending Mew (SIGTERM, then SIGKILL after 5 s), once.
func (a *Alerts) Stop() {
	a.stop.Do(func() {
		a.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-a.done:
		case <-time.After(5 * time.Second):
			a.cmd.Process.Kill()
			<-a.done
		}
	})
}

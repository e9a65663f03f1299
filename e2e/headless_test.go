package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
	"github.com/mew-dev/mew/session"
)

// A headless run fires the same hooks as an interactive one but nobody
// attends it: `claude -p` kept open with stream-json input, as the SDKs
// run the CLI, ends a turn and sits done. Mew lists it as headless and
// never as needing you (the board shows no done session), and a one-shot
// `claude -p` is the same.
func TestHeadlessRunsNeverNeedYou(t *testing.T) {
	t.Parallel()
	s := need(t)
	api, err := fakeapi.Start(fakeapi.DefaultTiming)
	if err != nil {
		t.Fatal(err)
	}
	defer api.Close()
	r, cmd, err := driver.Headless(driver.Options{Claude: s.claude, APIURL: api.URL, Dir: t.TempDir(), Mew: s.mew, Install: true},
		"--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	results := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m struct {
				Type      string `json:"type"`
				SessionID string `json:"session_id"`
			}
			if json.Unmarshal(sc.Bytes(), &m) == nil && m.Type == "result" {
				results <- m.SessionID
			}
		}
		close(results)
	}()
	msg, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": fakeapi.Prompt(fakeapi.Text)}})
	if _, err := stdin.Write(append(msg, '\n')); err != nil {
		t.Fatal(err)
	}
	var id string
	select {
	case id = <-results:
	case <-time.After(turn):
		t.Fatal("no result from the headless CLI")
	}
	// The turn ended: the session is done, and headless.
	var got session.Shown
	deadline := time.Now().Add(turn) // a bound for a loaded machine; the goal is judged elsewhere
	for {
		if shown, err := r.MewStatus(); err == nil {
			for _, x := range shown {
				if x.ID == id {
					got = x
				}
			}
		}
		if got.State == session.Done || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got.State != session.Done || !got.Headless || got.NeedsYou() {
		t.Fatalf("the headless session after its turn: %s headless=%v (%+v); want done, headless", got.State, got.Headless, got)
	}
	// Past the board's settle time, the board still shows nothing that
	// needs you.
	time.Sleep(1500 * time.Millisecond)
	board, err := r.Mew("watch", "--once")
	if err != nil {
		t.Fatal(err)
	}
	summary, _, _ := strings.Cut(board, "\n")
	if strings.Contains(summary, "done") || strings.Contains(summary, "waiting") || !strings.Contains(board, "done · headless") {
		t.Fatalf("the board counts the headless session as needing you, or does not say it is headless:\n%s", board)
	}
	stdin.Close()
	if err := waitExit(cmd, gone); err != nil {
		t.Fatal(err)
	}

	// A one-shot `claude -p`: listed as headless too.
	_, once, err := driver.Headless(driver.Options{Claude: s.claude, APIURL: api.URL, Dir: t.TempDir(), Mew: s.mew}, fakeapi.Prompt(fakeapi.Text))
	if err != nil {
		t.Fatal(err)
	}
	once.Env = r.Env // the first run's home: Mew installed there
	once.Dir = r.Project
	if out, err := once.CombinedOutput(); err != nil {
		t.Fatalf("claude -p: %v\n%s", err, out)
	}
	shown, err := r.MewStatus()
	if err != nil {
		t.Fatal(err)
	}
	var headless, other []string
	for _, x := range shown {
		if x.Headless && !x.NeedsYou() {
			headless = append(headless, x.ID)
		} else {
			other = append(other, fmt.Sprintf("%s %s", x.ID, x.State))
		}
	}
	if len(headless) != 2 || len(other) != 0 {
		t.Fatalf("headless %v, others %v; want both runs headless", headless, other)
	}
}

func waitExit(cmd interface{ Wait() error }, timeout time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("the CLI did not exit within %v of its input closing", timeout)
	}
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/internal/fakeagent"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/tmux"
)

// mewIn runs the real mew binary with the home and tmux server given,
// nothing of the caller's environment that would point elsewhere.
func mewIn(t testing.TB, home, socket string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(mew, args...)
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "TMUX" && k != "TMUX_PANE" && k != "MEW_HOME" && k != "HOME" && k != "CLAUDE_CONFIG_DIR" {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "HOME="+home, "MEW_HOME="+filepath.Join(home, ".mew"), "MEW_TMUX_SOCKET="+socket)
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

// `mew answer` against a stand-in dialog in a real tmux pane that only the
// tmux screen source sees (no hooks): list, answer, refuse.
func TestAnswerCommandRealTmux(t *testing.T) {
	s := fakeagent.Start(t, "60")
	home := t.TempDir()
	s.WaitDialog(t, 1)
	id := "tmux:" + s.Pane

	out, _, code := mewIn(t, home, s.Socket, "status", "--json")
	var shown []session.Shown
	if err := json.Unmarshal([]byte(out), &shown); err != nil || code != 0 || len(shown) != 1 {
		t.Fatalf("status: %d %v %s", code, err, out)
	}
	if sh := shown[0]; sh.ID != id || sh.State != session.Waiting || sh.AnswerVia != "tmux" || len(sh.Choices) != 3 || sh.Choices[1].Label != "Yes, and always allow access to /p" {
		t.Fatalf("status: %+v", sh)
	}

	out, _, code = mewIn(t, home, s.Socket, "answer", id)
	if code != 0 || !strings.Contains(out, "1  Yes\n2  Yes, and always allow access to /p\n3  No\n") || !strings.Contains(out, "tmux pane "+s.Pane) {
		t.Fatalf("list: %d %q", code, out)
	}
	_, errs, code := mewIn(t, home, s.Socket, "answer", id, "7")
	if code != 2 || !strings.Contains(errs, `no choice 7; the choices are 1 "Yes", 2 "Yes, and always allow access to /p", 3 "No"`) {
		t.Fatalf("unknown choice: %d %q", code, errs)
	}
	_, errs, code = mewIn(t, home, s.Socket, "answer", id, "y")
	if code != 2 || !strings.Contains(errs, "starts several choices") {
		t.Fatalf("ambiguous choice: %d %q", code, errs)
	}
	// Another machine's Mew passes the label the person saw: a prompt that
	// changed since gets nothing typed; a bad value is a usage error.
	out, _, code = mewIn(t, home, s.Socket, "answer", "--json", "--expect", answer.EncodeExpect("Yes, and don't ask again"), id, "2")
	var res answer.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 1 || res.Outcome != answer.Refused || !strings.Contains(res.Message, "the prompt changed") {
		t.Fatalf("--expect another label: %d %q", code, out)
	}
	_, errs, code = mewIn(t, home, s.Socket, "answer", "--expect", "not base64!", id, "2")
	if code != 2 || !strings.Contains(errs, "base64url") {
		t.Fatalf("--expect garbage: %d %q", code, errs)
	}
	if len(s.Keys()) != 0 {
		t.Fatalf("typed %q on a usage error or a changed prompt", s.Keys())
	}

	out, errs, code = mewIn(t, home, s.Socket, "answer", "--expect", answer.EncodeExpect("No"), id, "no")
	if code != 0 || !strings.Contains(out, `answered 3 "No"`) || strings.Join(s.Keys(), ",") != "3" {
		t.Fatalf("answer: %d %q %q; typed %q", code, out, errs, s.Keys())
	}
	// The prompt is gone: a second answer types nothing and says why.
	_, errs, code = mewIn(t, home, s.Socket, "answer", id, "1")
	if code != 1 || !strings.Contains(errs, "not waiting on you") || !strings.Contains(errs, "nothing typed") || len(s.Keys()) != 1 {
		t.Fatalf("after the answer: %d %q; typed %q", code, errs, s.Keys())
	}
	log, err := os.ReadFile(filepath.Join(home, ".mew", "answers.log"))
	if err != nil || !strings.Contains(string(log), `"outcome":"answered"`) || !strings.Contains(string(log), `"label":"No"`) {
		t.Fatalf("answers.log: %v %s", err, log)
	}
	_, errs, code = mewIn(t, home, s.Socket, "answer", "nosuch", "1")
	if code != 2 || !strings.Contains(errs, `no session "nosuch"`) {
		t.Fatalf("unknown session: %d %q", code, errs)
	}
}

// BenchmarkAnswerLatency: `mew answer` started → the dialog gone from the
// pane, over b.N answers (use -benchtime 20x) to a stand-in dialog in a
// real tmux pane. Each answer comes 0.3 s after its dialog appeared, as a
// person's would; the pane is read every 2 ms (plus ~2 ms for the tmux
// process that reads it).
// The whole command is measured: process start, reading every source,
// the screen read again, the keys, and the stand-in's redraw.
func BenchmarkAnswerLatency(b *testing.B) {
	s := fakeagent.Start(b, "0.1")
	home := b.TempDir()
	ctx := context.Background()
	c := tmux.Exec{Socket: s.Socket}
	mewIn(b, home, s.Socket, "status") // built and warm
	var lat []time.Duration
	b.ResetTimer()
	for i := range b.N {
		file := fmt.Sprintf("touch file-%d", i+1)
		s.WaitDialog(b, i+1)
		time.Sleep(300 * time.Millisecond)
		done := make(chan int, 1)
		start := time.Now()
		go func() {
			_, errs, code := mewIn(b, home, s.Socket, "answer", "tmux:"+s.Pane, "1")
			if code != 0 {
				b.Errorf("answer %d: exit %d: %s", i+1, code, errs)
			}
			done <- code
		}()
		for {
			rows, err := tmux.Capture(ctx, c, s.Pane)
			if err == nil && !strings.Contains(strings.Join(rows, "\n"), file) {
				break
			}
			if time.Since(start) > 5*time.Second {
				b.Fatalf("answer %d: the dialog stayed", i+1)
			}
			time.Sleep(2 * time.Millisecond)
		}
		lat = append(lat, time.Since(start))
		<-done
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(lat[(len(lat)*95+99)/100-1].Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
}

package hookbin_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/hookbin"
)

// BenchmarkHookSpooled is the hook whose session's lock is taken (it
// spools its event), side by side in one loop: with an empty spool, and
// with 2,000 entries already spooled (a burst behind a held lock). It
// reports the ratio of their medians (goal ~1.1×: the hook must not list
// the spool), and each against a Go binary that does nothing.
//
//	go test ./hookbin -run '^$' -bench HookSpooled -benchtime 300x
func BenchmarkHookSpooled(b *testing.B) {
	hook, noop := hookAndNoop(b)
	home := b.TempDir()
	sessions := filepath.Join(home, "sessions")
	if err := os.MkdirAll(sessions, 0o700); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "MEW_HOME="+home, hookbin.RunEnv)
	// Both sessions' locks are held for the whole run: every hook spools.
	for _, id := range []string{"empty-1", "full-1"} {
		l := flock.New(filepath.Join(sessions, id+".json.lock"))
		if err := l.Lock(); err != nil {
			b.Fatal(err)
		}
		defer l.Unlock()
	}
	full := filepath.Join(sessions, "full-1.json.spool")
	if err := os.MkdirAll(full, 0o700); err != nil {
		b.Fatal(err)
	}
	for i := range 2000 {
		// Names are what the listing costs; the fold (not run here) reads them.
		if err := os.WriteFile(filepath.Join(full, fmt.Sprintf("%020d-1-%d", i+1, i)), []byte("x"), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	seq := 0
	run := func(bin, id string) time.Duration {
		seq++
		payload := fmt.Sprintf(`{"session_id":%q,"hook_event_name":"PreToolUse","cwd":"/src/p","tool_name":"Bash","tool_input":{"command":"make"},"tool_use_id":"toolu_1","mew_bench_seq":%d}`, id, seq)
		in, err := os.CreateTemp(b.TempDir(), "in")
		if err != nil {
			b.Fatal(err)
		}
		in.WriteString(payload)
		in.Seek(0, 0)
		defer in.Close()
		cmd := exec.Command(bin)
		cmd.Stdin, cmd.Env = in, env
		t := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		d := time.Since(t)
		if id == "empty-1" {
			// Keep it empty: take the entry this hook spooled.
			os.RemoveAll(filepath.Join(sessions, "empty-1.json.spool"))
		}
		return d
	}
	kinds := []struct {
		bin, id string
		times   []time.Duration
	}{{bin: noop, id: "empty-1"}, {bin: hook, id: "empty-1"}, {bin: hook, id: "full-1"}}
	for range 10 {
		for i := range kinds {
			run(kinds[i].bin, kinds[i].id)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	b.ResetTimer()
	for range b.N {
		for _, i := range rng.Perm(len(kinds)) {
			kinds[i].times = append(kinds[i].times, run(kinds[i].bin, kinds[i].id))
		}
	}
	b.StopTimer()
	n, e, f := median(kinds[0].times), median(kinds[1].times), median(kinds[2].times)
	entries, _ := os.ReadDir(full)
	b.ReportMetric(float64(len(entries)), "spooled")
	b.ReportMetric(float64(e)/float64(n), "empty-vs-noop")
	b.ReportMetric(float64(f)/float64(n), "full-vs-noop")
	b.ReportMetric(float64(f)/float64(e), "full-vs-empty")
}

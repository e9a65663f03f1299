package hookbin_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// BenchmarkStatuslineWrapper measures what Mew's statusline source adds to
// the person's own statusline command: the command as Claude Code runs it
// (through sh -c, the input on stdin) side by side with Mew's command
// running it, in random order each round. It reports the medians, the
// added time (median and p95 of the per-round difference) and the ratio of
// the medians. Two of Mew's runs: a redraw with an unchanged reading (no
// write: most redraws) and one whose cost changed (the session file is
// written). The budget is the person's own time + 5 ms.
//
//	go test ./hookbin -run '^$' -bench StatuslineWrapper -benchtime 300x
func BenchmarkStatuslineWrapper(b *testing.B) {
	hook, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	dir := b.TempDir()
	script := filepath.Join(dir, "line.sh")
	// A typical statusline script: read the input, print a line.
	os.WriteFile(script, []byte("#!/bin/sh\nin=$(cat)\nprintf 'proj · main · %s\\n' \"${#in}\"\n"), 0o755)
	os.WriteFile(filepath.Join(home, hookbin.StatuslineCommandFile), []byte(script), 0o600)
	st := store.Store{Home: home, Fold: hookbin.Fold}
	if _, err := st.Update("bench-1", time.Second, func(*session.Record, bool) bool { return true }); err != nil {
		b.Fatal(err)
	}
	input := func(cost float64) string {
		return fmt.Sprintf(`{"session_id":"bench-1","cwd":"/Users/dev/proj","model":{"id":"claude-opus","display_name":"Opus"},"cost":{"total_cost_usd":%g},`+
			`"context_window":{"total_input_tokens":201,"total_output_tokens":8,"context_window_size":200000,"current_usage":{"input_tokens":201,"cache_creation_input_tokens":0,"cache_read_input_tokens":0},"used_percentage":12},`+
			`"rate_limits":{"five_hour":{"used_percentage":42,"resets_at":1796172559},"seven_day":{"used_percentage":91,"resets_at":1796424559}}}`, cost)
	}
	env := append(os.Environ(), "MEW_HOME="+home)
	mew := hookbin.RunEnv + " '" + hook + "' " + hookbin.StatuslineFlag
	run := func(command, stdin string) time.Duration {
		cmd := exec.Command("/bin/sh", "-c", command)
		cmd.Stdin, cmd.Env = strings.NewReader(stdin), env
		t := time.Now()
		out, err := cmd.Output()
		d := time.Since(t)
		if err != nil || !strings.HasPrefix(string(out), "proj · main") {
			b.Fatalf("%q: %v %q", command, err, out)
		}
		return d
	}
	var bare, same, changed, addSame, addChanged []time.Duration
	cost := 0.0
	for range 20 {
		run(script, input(cost))
		run(mew, input(cost))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	b.ResetTimer()
	for range b.N {
		var tb, ts, tc time.Duration
		for _, i := range rng.Perm(3) {
			switch i {
			case 0:
				tb = run(script, input(cost))
			case 1:
				ts = run(mew, input(cost))
			case 2:
				cost += 0.01
				tc = run(mew, input(cost))
			}
		}
		bare, same, changed = append(bare, tb), append(same, ts), append(changed, tc)
		addSame, addChanged = append(addSame, ts-tb), append(addChanged, tc-tb)
	}
	b.StopTimer()
	if rec, err := st.Load("bench-1"); err != nil || rec.Usage == nil || rec.Usage.CostUSD == nil || *rec.Usage.CostUSD != cost {
		b.Fatalf("the reading was not recorded: %+v %v", rec.Usage, err)
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(median(bare)), "bare-ms")
	b.ReportMetric(ms(median(same)), "mew-ms")
	b.ReportMetric(ms(median(addSame)), "added-ms")
	b.ReportMetric(ms(pct(addSame, 95)), "added-p95-ms")
	b.ReportMetric(ms(median(addChanged)), "added-write-ms")
	b.ReportMetric(ms(pct(addChanged, 95)), "added-write-p95-ms")
	b.ReportMetric(float64(median(same))/float64(median(bare)), "ratio")
	b.ReportMetric(float64(median(changed))/float64(median(bare)), "write-ratio")
}

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)*p/100]
}

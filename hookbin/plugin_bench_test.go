package hookbin_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/install"
)

// BenchmarkHookPlugin is mew-hook through Mew's Claude Code plugin, as
// Claude Code runs a hook command (sh -c), side by side in one loop with a
// Go binary that does nothing run the same way: the plugin's command
// (install.PluginHookCommand: the shell execs $MEW_HOME/bin/mew-hook) and,
// for comparison, the shim alone (`sh mew-hook.sh`, what the command was:
// one more shell). It reports each median's ratio to the no-op's (goal
// ≤ 1.25×).
//
//	go test ./hookbin -run '^$' -bench HookPlugin -benchtime 300x
func BenchmarkHookPlugin(b *testing.B) {
	hook, noop := hookAndNoop(b)
	root, err := filepath.Abs(filepath.Join("..", "plugins", "mew"))
	if err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	data, err := os.ReadFile(hook)
	if err != nil {
		b.Fatal(err)
	}
	os.MkdirAll(filepath.Join(home, "bin"), 0o755)
	if err := os.WriteFile(filepath.Join(home, "bin", "mew-hook"), data, 0o755); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "MEW_HOME="+home, "CLAUDE_PLUGIN_ROOT="+root)
	programs := []struct {
		name, command string
		times         []time.Duration
	}{
		{name: "noop", command: `"` + noop + `"`},
		{name: "plugin", command: install.PluginHookCommand(install.Claude)},
		{name: "shim", command: `sh "${CLAUDE_PLUGIN_ROOT}/hooks/mew-hook.sh"`},
	}
	seq := 0
	run := func(command string) time.Duration {
		seq++
		cmd := exec.Command("/bin/sh", "-c", command)
		cmd.Env = env
		cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"session_id":"plugin-1","hook_event_name":"PreToolUse","cwd":"/src/p","tool_name":"Bash","tool_input":{"command":"make"},"tool_use_id":"toolu_1","mew_bench_seq":%d}`, seq))
		t := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t)
	}
	for range 20 {
		for _, p := range programs {
			run(p.command)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	b.ResetTimer()
	for range b.N {
		for _, i := range rng.Perm(len(programs)) {
			programs[i].times = append(programs[i].times, run(programs[i].command))
		}
	}
	b.StopTimer()
	n := median(programs[0].times)
	b.ReportMetric(float64(n.Microseconds()), "noop-µs")
	b.ReportMetric(float64(median(programs[1].times))/float64(n), "plugin-ratio")
	b.ReportMetric(float64(median(programs[2].times))/float64(n), "shim-ratio")
}

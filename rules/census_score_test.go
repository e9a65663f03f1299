package rules_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/internal/recording"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
)

// The census agents (../shared/fixtures/census, copied into
// testdata/fixtures/<agent>-<version>) were recorded as one screen per
// moment of each scenario, not as a stream: each run's truth.txt says what
// each shot shows a person (read off the shot; "-" with the reason where
// the screen cannot tell, e.g. an agent that prints nothing at exit). The
// shots are classified in order by one tracker, as a pane's are.
var censusFloors = []struct {
	agent, dir string
	floor      float64
}{
	{"copilot", "copilot-1.0.102", 0.99},
	{"qwen", "qwen-code-0.24.4", 0.95},
	{"pi", "pi-0.73.1", 0.99},
	{"cline", "cline-3.0.65", 0.99},
	// Kilo's working screen (03) shows nothing of the turn in its bottom
	// rows; its plugin events say busy.
	{"kilo", "kilo-7.7.7", 0.90},
	{"continue", "continue-1.5.47", 0.99},
}

func TestScoreCensus(t *testing.T) {
	book := rules.Embedded()
	for _, c := range censusFloors {
		t.Run(c.agent, func(t *testing.T) {
			set := book.Set(c.agent)
			if set == nil {
				t.Fatalf("no embedded rules for %s", c.agent)
			}
			runs, _ := filepath.Glob(filepath.Join(fixtures, c.dir, "*", "truth.txt"))
			if len(runs) == 0 {
				t.Fatalf("no runs with a truth.txt in %s", c.dir)
			}
			var s score
			for _, truthPath := range runs {
				dir := filepath.Dir(truthPath)
				truth := readTruth(t, truthPath)
				frames, err := recording.LoadCensusRun(dir)
				if err != nil {
					t.Fatal(err)
				}
				var tr screen.Tracker
				for _, f := range frames {
					want, ok := truth[f.Name]
					if !ok {
						t.Fatalf("%s: %s has no line in truth.txt", dir, f.Name)
					}
					if strings.HasPrefix(f.Name, "00-") {
						continue // the shell before the agent drew anything
					}
					rows := agentRows(f.Rows)
					tr.Observe(set, rules.Frame{Rows: rows, Title: f.Title}, at(f.T))
					if want == "-" {
						continue
					}
					s.add(tr.State.State == want, fmt.Sprintf("%s/%s truth %s, screen %s (%s)", filepath.Base(dir), f.Name, want, tr.State.State, tr.State.Rule))
				}
			}
			s.check(t, c.dir, c.floor)
		})
	}
}

// agentRows drops what the recorder's shell printed under the agent's last
// screen after it exited ("AGENT-EXITED rc=0", the `/exit` it typed): a
// pane Mew reads has the person's shell there, which the rules never see
// (the process says the agent is gone).
func agentRows(rows []string) []string {
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		if strings.Contains(r, "AGENT-EXITED rc=") {
			break
		}
		out = append(out, r)
	}
	return out
}

func readTruth(t *testing.T, path string) map[string]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 2 {
			t.Fatalf("%s: %q: want `shot state [why]`", path, line)
		}
		out[fields[0]] = fields[1]
	}
	return out
}

// Every census shot after start-up is recognised as its own agent by the
// screen sniff (title or markers) — a Qwen Code pane is not Gemini CLI's,
// whose input row reads the same — and no recorded Gemini CLI screen is
// taken for Qwen's.
func TestSniffCensusScreens(t *testing.T) {
	book := rules.Embedded()
	for _, c := range censusFloors {
		runs, _ := filepath.Glob(filepath.Join(fixtures, c.dir, "*", "truth.txt"))
		seen := 0
		for _, truthPath := range runs {
			frames, err := recording.LoadCensusRun(filepath.Dir(truthPath))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range frames {
				got := book.SniffScreen(rules.Frame{Rows: agentRows(f.Rows), Title: f.Title})
				if got == c.agent {
					seen++
				} else if got != "" {
					t.Errorf("%s %s: sniffed as %s", c.dir, f.Name, got)
				}
			}
		}
		if seen == 0 {
			t.Errorf("%s: no shot sniffed as %s", c.dir, c.agent)
		}
	}
	frames, err := recording.LoadScreensJSONL(filepath.Join(fixtures, "gemini-cli-0.61.0", "plain", "screens.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if got := book.SniffScreen(rules.Frame{Rows: f.Rows}); got != "" && got != "gemini" {
			t.Fatalf("a Gemini CLI screen at %.1f s sniffed as %s", f.T, got)
		}
	}
}

// The census agents' processes as `ps` showed them (the census README),
// each found through its launcher, and the processes around them that are
// not sessions.
func TestSniffCensusProcesses(t *testing.T) {
	book := rules.Embedded()
	for _, c := range []struct {
		name, cmdline, want string
	}{
		{"node", "node /home/u/t/copilot/node_modules/.bin/copilot", "copilot"},
		{"MainThread", "/home/u/t/copilot/node_modules/@github/copilot-linux-x64/copilot", "copilot"},
		{"node", "node /home/u/t/qwen/node_modules/.bin/qwen --approval-mode default", "qwen"},
		{"node", "node --expose-gc /home/u/t/qwen/node_modules/@qwen-code/qwen-code/cli.js --approval-mode default", "qwen"},
		{"node", "node /home/u/t/pi/node_modules/.bin/pi", "pi"},
		{"pi", "pi", "pi"},
		{"cline", "/home/u/t/cline/node_modules/.bin/cline --auto-approve false", "cline"},
		{"node", "node /home/u/t/kilo/node_modules/.bin/kilo", "kilo"},
		{".kilo", "/home/u/t/kilo/node_modules/@kilocode/cli-linux-x64/bin/.kilo", "kilo"},
		{"node", "node /home/u/t/continue/node_modules/.bin/cn --config /home/u/config.yaml", "continue"},
		{"node", "node /home/u/g/node_modules/.bin/gemini", "gemini"},
		// Not sessions: the tmux server a recorder started with the agent's
		// path on its command line, a shell running a script named like one.
		{"tmux: server", "tmux -L census new-session -d -x 120 -y 32 /home/u/t/copilot/node_modules/.bin/copilot", ""},
		{"tmux", "tmux new-session -d /home/u/t/qwen/node_modules/.bin/qwen", ""},
		{"bash", "bash -c echo pi-coding-agent", ""},
		{"node", "node /home/u/server.js --name copilot-proxy", ""},
	} {
		if got := book.SniffProcess(c.name, strings.Fields(c.cmdline)); got != c.want {
			t.Errorf("%s %q: sniffed %q, want %q", c.name, c.cmdline, got, c.want)
		}
	}
}

// Package e2eretry tests tools/e2e-retry.sh, which runs the e2e suite and
// runs its failed scenarios once more.
package e2eretry

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGo prints out on its first call and exits 1; it records each call's
// arguments in calls.
const fakeGo = `#!/bin/sh
echo "$*" >> "$CALLS"
n=$(wc -l < "$CALLS")
if [ "$n" -eq 1 ]; then printf '%s\n' "$FIRST"; exit 1; fi
echo ok; exit 0
`

func run(t *testing.T, first string) (calls []string, code int) {
	t.Helper()
	dir := t.TempDir()
	goBin := filepath.Join(dir, "go")
	if err := os.WriteFile(goBin, []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	callsFile := filepath.Join(dir, "calls")
	cmd := exec.Command("bash", "../e2e-retry.sh", "-count=1")
	cmd.Env = append(os.Environ(), "GO="+goBin, "CALLS="+callsFile, "FIRST="+first)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(callsFile)
	t.Logf("output:\n%s", out)
	return strings.Split(strings.TrimSpace(string(data)), "\n"), code
}

// A scenario that failed once is run again on its own; the suite passes
// when it passes then.
func TestFailedScenarioRunsAgain(t *testing.T) {
	calls, code := run(t, "--- FAIL: TestA (1.00s)\nFAIL")
	if code != 0 || len(calls) != 2 || !strings.Contains(calls[1], "-run ^(TestA)$") {
		t.Errorf("exit %d, calls %q: want TestA run again, exit 0", code, calls)
	}
}

// A suite that hit its timeout did not run the scenarios after it: a
// failure before the timeout run again must not pass it (a clean run's
// suite timed out at a load of 30-40 and was reported green).
func TestTimeoutFailsTheSuite(t *testing.T) {
	calls, code := run(t, "--- FAIL: TestA (1.00s)\npanic: test timed out after 30m0s\n\trunning tests:\n\t\tTestB (13s)\nFAIL")
	if code == 0 || len(calls) != 1 {
		t.Errorf("exit %d, calls %q: want the suite failed, nothing run again", code, calls)
	}
}

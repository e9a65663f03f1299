package clock

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Readings taken by two processes order as real time does.
func TestMonoIsSharedAcrossProcesses(t *testing.T) {
	if os.Getenv("MEW_CLOCK_CHILD") == "1" {
		os.Stdout.WriteString(strconv.FormatInt(Mono(), 10) + "\n")
		return
	}
	before := Mono()
	if before == 0 {
		t.Skip("no monotonic clock here")
	}
	time.Sleep(10 * time.Millisecond)
	cmd := exec.Command(os.Args[0], "-test.run", "^TestMonoIsSharedAcrossProcesses$")
	cmd.Env = append(os.Environ(), "MEW_CLOCK_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	child, err := strconv.ParseInt(strings.Fields(string(out))[0], 10, 64)
	if err != nil {
		t.Fatalf("child said %q", out)
	}
	time.Sleep(10 * time.Millisecond)
	after := Mono()
	if !(before+int64(10*time.Millisecond) <= child && child+int64(10*time.Millisecond) <= after) {
		t.Fatalf("readings out of order: %d, child %d, %d", before, child, after)
	}
}

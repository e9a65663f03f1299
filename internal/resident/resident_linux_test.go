package resident

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// The pages of the program's own code that start-up touched leave its
// resident set, and the program runs on (they come back as it uses them).
func TestDropStartPagesShrinksTheResidentSet(t *testing.T) {
	before := rssFileKiB(t)
	DropStartPages()
	after := rssFileKiB(t)
	if after >= before {
		t.Fatalf("file-backed resident set %d KiB after, %d KiB before", after, before)
	}
	t.Logf("file-backed resident set: %d KiB → %d KiB", before, after)
	strings.Repeat("still runs", 3) // code touched again works
}

func rssFileKiB(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "RssFile:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	t.Fatal("no RssFile")
	return 0
}

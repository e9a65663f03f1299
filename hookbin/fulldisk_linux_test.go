package hookbin_test

import (
	"strings"
	"testing"

	"github.com/mew-dev/mew/internal/testbin"
)

// On a full disk the hook records nothing; it says so where it can (here
// nowhere on disk: its stderr), writes nothing on stdout and exits 0.
func TestFullDiskLossIsSaid(t *testing.T) {
	home := testbin.FullDisk(t)
	bin := hookBinary(t)
	r := runHook(t, bin, home, []byte(`{"session_id":"full1","hook_event_name":"Stop"}`))
	if r.exit != 0 || r.stdout != "" {
		t.Fatalf("exit %d stdout %q", r.exit, r.stdout)
	}
	if !strings.Contains(r.stderr, "session=full1 dropped Stop") || !strings.Contains(r.stderr, "no space left") {
		t.Fatalf("stderr %q", r.stderr)
	}
}

package e2e

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/internal/testbin"
)

// binaries is what one pinned CLI's scenarios run: the CLI and Mew.
type binaries struct {
	once         sync.Once
	program, mew string
	// extra is what the CLI needs prepared once (Codex: its daemon's
	// packages folder).
	extra   string
	err     error
	skipWhy string
}

var binariesByCLI sync.Map // CLI name → *binaries

// needCLIBinaries finds the pinned CLI (find; notInstalled is its "not in
// the cache" error) and builds Mew once for every scenario of that CLI, or
// skips the test saying why. prepare, when set, runs once on the CLI found.
func needCLIBinaries(t *testing.T, name, version string, find func(string) (string, error), notInstalled error, prepare func(program string) (string, error)) *binaries {
	t.Helper()
	if os.Getenv("MEW_E2E") == "" {
		t.Skipf("end-to-end scenarios run with `make e2e` (MEW_E2E=1): they start the real %s", name)
	}
	v, _ := binariesByCLI.LoadOrStore(name, &binaries{})
	b := v.(*binaries)
	b.once.Do(func() {
		if _, err := driver.LookTmux(); err != nil {
			b.skipWhy = "tmux is not installed (apt-get install tmux)"
			return
		}
		p, err := find(version)
		if errors.Is(err, notInstalled) {
			b.skipWhy = fmt.Sprintf("the pinned %s %s: %v", name, version, err)
			return
		}
		if err != nil {
			b.err = err
			return
		}
		b.program = p
		if prepare != nil {
			if b.extra, b.err = prepare(p); b.err != nil {
				return
			}
		}
		if b.mew, b.err = testbin.Build("github.com/mew-dev/mew/cmd/mew"); b.err != nil {
			return
		}
		// `mew install` copies the hook that sits next to mew; testbin
		// builds both into one directory.
		_, b.err = testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	})
	if b.skipWhy != "" {
		t.Skip(b.skipWhy)
	}
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b
}

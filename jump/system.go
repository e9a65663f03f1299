package jump

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/proctree/bundle"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/terminal"
)

// LocalSystem is this machine. The process table is proctree.Lean, the
// reader the hook records with: its start times are the ones in the record,
// and it reads executable paths with sysctl where gopsutil without cgo on
// macOS runs lsof once per process (and ps for long names).
func LocalSystem() System {
	home, _ := os.UserHomeDir()
	return System{
		GOOS:          runtime.GOOS,
		Procs:         proctree.Lean{WithExe: true},
		BundleID:      bundle.ID,
		BundleVersion: bundle.Version,
		Environ:       proctree.Environ,
		Tty:           proctree.Tty,
		Query:         Query,
		ReadFile:      readSmallFile,
		IsExecutable:  isExecutable,
		Home:          home,
		Path:          filepath.SplitList(os.Getenv("PATH")),
		LookPath:      terminal.LookPath,
	}
}

// PlanFor gathers the facts about rec on this machine and plans its jump.
func PlanFor(ctx context.Context, rec session.Record) Plan {
	return Make(Gather(ctx, rec, LocalSystem()))
}

// maxStateFile bounds what is read of an editor's state file.
const maxStateFile = 8 << 20

func readSmallFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxStateFile))
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}

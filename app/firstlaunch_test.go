package app

import (
	"os"
	"strings"
	"testing"
)

// darwinFunc is the source of func name in file (a darwin file: it cannot
// run here, so its order of steps is checked on its text).
func darwinFunc(t *testing.T, file, name string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	i := strings.Index(src, "\nfunc "+name+"(")
	if i < 0 {
		t.Fatalf("%s: no func %s", file, name)
	}
	body := src[i+1:]
	if j := strings.Index(body, "\n}\n"); j >= 0 {
		body = body[:j]
	}
	return body
}

// A second launch says "already running" at once: the instance lock comes
// before anything that may ask the login shell (up to 3 s of the person's
// profile): LoginTmuxTmpdir, and monitor.Default's sources.
func TestInstanceLockBeforeTheLoginShell(t *testing.T) {
	run := darwinFunc(t, "app_darwin.go", "Run")
	lock := strings.Index(run, "acquireInstance(")
	if lock < 0 {
		t.Fatal("Run takes no instance lock")
	}
	for _, later := range []string{"LoginTmuxTmpdir(", "monitor.Default(", "LookPath("} {
		if i := strings.Index(run, later); i >= 0 && i < lock {
			t.Errorf("Run calls %s before the instance lock", later)
		}
	}
}

// Package testbin builds the project's commands once per test process, with
// the same flags the Makefile uses, so tests run the real binaries.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
)

var (
	mu    sync.Mutex
	built = map[string]string{}
	dir   string
)

// Flags are the build flags of the shipped binaries (see Makefile).
var Flags = []string{"-trimpath", "-ldflags=-s -w"}

// Build compiles the package at pkg (an import path) and returns the
// binary's path. CGO is off, as in the Makefile: mew-hook must start fast and
// the pure-Go parts don't need it.
func Build(pkg string) (string, error) {
	mu.Lock()
	defer mu.Unlock()
	if p, ok := built[pkg]; ok {
		return p, nil
	}
	if dir == "" {
		d, err := os.MkdirTemp("", "mew-testbin-")
		if err != nil {
			return "", err
		}
		dir = d
	}
	out := filepath.Join(dir, filepath.Base(pkg))
	args := append([]string{"build", "-o", out}, Flags...)
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Dir = moduleRoot()
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
	}
	built[pkg] = out
	return out, nil
}

// BuildSource compiles a single-file main program given as source text.
func BuildSource(name, src string) (string, error) {
	d, err := os.MkdirTemp("", "mew-testsrc-")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(d, "main.go"), []byte(src), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(d, "go.mod"), []byte("module "+name+"\n\ngo 1.22\n"), 0o644); err != nil {
		return "", err
	}
	out := filepath.Join(d, name)
	cmd := exec.Command("go", append(append([]string{"build", "-o", out}, Flags...), ".")...)
	cmd.Dir = d
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=mod")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", name, err, msg)
	}
	return out, nil
}

func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

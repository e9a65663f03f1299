package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every build of mew for macOS (make build on a Mac, make app for both
// architectures) first makes the fixed darwinkit copy and builds against
// it: without it every Go method AppKit calls (delegates, actions,
// drawRect:) runs through a CIF whose argument types are not kept alive
// (packaging/darwinkit/prepare.sh says why).
func TestMacBuildsUseTheFixedDarwinkit(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	builds := regexp.MustCompile(`go build [^;&|]*\./cmd/mew\b[^-]`)
	for _, target := range []string{"build", "app"} {
		out, err := exec.Command("make", "-n", "-s", "-C", root, target).CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v: %s", target, err, out)
		}
		text := string(out) + " "
		if !strings.Contains(text, "packaging/darwinkit/prepare.sh") {
			t.Errorf("make %s does not make the fixed darwinkit copy:\n%s", target, out)
		}
		found := builds.FindAllString(text, -1)
		if len(found) == 0 {
			t.Fatalf("make -n %s builds no ./cmd/mew:\n%s", target, out)
		}
		for _, b := range found {
			if !strings.Contains(b, "-modfile=") && !strings.Contains(b, "$modfile") {
				t.Errorf("make %s builds mew against the module cache's darwinkit:\n%s", target, b)
			}
		}
	}
}

// prepare.sh copies darwinkit, applies the fix, and writes a module file
// under which a darwin build resolves darwinkit to that copy (go list, as
// the build would: cgo for darwin cannot be compiled here).
func TestPrepareMakesTheFixedDarwinkit(t *testing.T) {
	if _, err := exec.LookPath("patch"); err != nil {
		t.Skip("patch is not installed")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	dir := t.TempDir()
	if out, err := exec.Command(filepath.Join(root, "packaging", "darwinkit", "prepare.sh"), dir).CombinedOutput(); err != nil {
		t.Fatalf("prepare.sh: %v: %s", err, out)
	}
	src, err := os.ReadFile(filepath.Join(dir, "darwinkit", "objc", "ffi", "ffi.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "cif.arg_types = &kept[0]") {
		t.Error("the copy's PrepCIF does not keep its argument types in the CIF")
	}
	cmd := exec.Command("go", "list", "-modfile="+filepath.Join(dir, "darwin.mod"), "-f", "{{.Dir}}", "github.com/progrium/darwinkit/objc/ffi")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=darwin", "GOARCH=arm64", "CGO_ENABLED=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v: %s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), filepath.Join(dir, "darwinkit", "objc", "ffi"); got != want {
		t.Errorf("a darwin build under darwin.mod takes darwinkit from %s, want %s", got, want)
	}
	if mod, _ := os.ReadFile(filepath.Join(root, "go.mod")); strings.Contains(string(mod), "replace") {
		t.Error("prepare.sh changed the repository's go.mod")
	}
}

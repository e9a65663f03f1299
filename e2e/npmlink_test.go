package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// npmGlobalLink lays out what `npm install -g` makes of a package's
// program (target) and returns the command a person types: <prefix>/bin/
// name → ../lib/node_modules/pkgPath, itself a link to target here (npm
// copies the package; the link is the shape that matters to a process
// table).
func npmGlobalLink(t *testing.T, target, pkgPath, name string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(target)
	if err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(t.TempDir(), "npm-global")
	inPkg := filepath.Join(prefix, "lib", "node_modules", filepath.FromSlash(pkgPath))
	bin := filepath.Join(prefix, "bin", name)
	for _, d := range []string{filepath.Dir(inPkg), filepath.Dir(bin)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(real, inPkg); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(filepath.Dir(bin), inPkg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(rel, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

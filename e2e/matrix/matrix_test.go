package matrix

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every cell is of a known agent, class and mode, declared once; an n/a
// says why, a covered cell names tests that exist in package e2e; and
// e2e/MATRIX.md is what Markdown prints.
func TestMatrix(t *testing.T) {
	tests := e2eTests(t)
	seen := map[[3]string]bool{}
	for _, c := range Cells {
		k := [3]string{c.Agent, c.Class, c.Mode}
		if seen[k] {
			t.Errorf("%v declared twice", k)
		}
		seen[k] = true
		if !slices.Contains(Agents, c.Agent) || !slices.ContainsFunc(Classes, func(x Class) bool { return x.ID == c.Class }) ||
			!slices.ContainsFunc(Modes, func(x Mode) bool { return x.ID == c.Mode }) {
			t.Errorf("%v: unknown agent, class or mode", k)
		}
		if (c.NA == "") == (len(c.Tests) == 0) {
			t.Errorf("%v: a cell has tests or an n/a reason, one of them", k)
		}
		for _, name := range c.Tests {
			if !tests[name] {
				t.Errorf("%v: no test %s in package e2e", k, name)
			}
		}
	}
	got, err := os.ReadFile("../MATRIX.md")
	if err != nil {
		t.Fatalf("%v (run `make conformance`)", err)
	}
	if string(got) != Markdown() {
		t.Errorf("e2e/MATRIX.md is stale: run `make conformance`")
	}
}

// e2eTests are the Test functions of package e2e.
func e2eTests(t *testing.T) map[string]bool {
	files, _ := filepath.Glob("../*_test.go")
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
				out[fn.Name.Name] = true
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no e2e tests found")
	}
	return out
}

package archtest

import (
	"errors"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// load reads the imports of every package of the module from its source
// (every non-test file, whatever its build constraints: a darwin-only file
// keeps the layers too). Parsing here rather than asking `go list` keeps
// the test's cached result honest: go test re-runs it when a file it
// opened changes. With deps, each package lists everything it depends on
// inside the module instead of its direct imports.
func load(t *testing.T, deps bool) []Package {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := Module
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		if _, ok := imports[pkg]; !ok {
			imports[pkg] = nil
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !slices.Contains(imports[pkg], p) {
				imports[pkg] = append(imports[pkg], p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []Package
	for path, imps := range imports {
		if deps {
			imps = closure(imports, path)
		}
		pkgs = append(pkgs, Package{Path: path, Imports: imps})
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Path < pkgs[j].Path })
	return pkgs
}

// closure is every module package path depends on, directly or not.
func closure(imports map[string][]string, path string) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		for _, imp := range imports[p] {
			if _, ours := imports[imp]; ours && !seen[imp] {
				seen[imp] = true
				walk(imp)
			}
		}
	}
	walk(path)
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// moduleRoot is the folder of the go.mod above this package's folder.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the test's folder")
		}
		dir = parent
	}
}

func TestTheTreeKeepsItsLayers(t *testing.T) {
	for _, line := range Check(load(t, false)) {
		t.Error(line)
	}
}

// The read side's whole closure, not only its direct imports: nothing it
// pulls in may be an action or the PTY wrapper, and no input pulls in the
// hook program (issue 23's "done when", checked transitively).
func TestClosures(t *testing.T) {
	for _, c := range []struct {
		pkgs    string // a package and those below it
		never   []string
		because string
	}{
		{"monitor", []string{"install", "answer", "screen/run", "hookbin", "jump", "board", "app"}, "the read side reads; it does not act"},
		{"monitor", []string{"source/*"}, "the read side knows the source interface; cmd/mew wires the concrete sources"},
		{"source", []string{"hookbin", "reducer", "install", "answer", "jump", "monitor"}, "an input is read by the monitor; it knows nothing downstream"},
		{"monitor/liveness", []string{"monitor/combine"}, "liveness owns its enum"},
		{"install", []string{"hookbin"}, "install writes the hook's command line (internal/hookcli); it does not link the hook"},
	} {
		for _, p := range load(t, true) {
			if !under(strings.TrimPrefix(p.Path, Module+"/"), c.pkgs) {
				continue
			}
			for _, dep := range p.Imports {
				rel, ok := strings.CutPrefix(dep, Module+"/")
				if !ok {
					continue
				}
				if slices.ContainsFunc(c.never, func(n string) bool { return under(rel, n) }) {
					t.Errorf("%s depends on %s: %s", p.Path, rel, c.because)
				}
			}
		}
	}
}

// The real tree with one import planted: monitor → source/codex (the wiring
// moving back from cmd/mew) is caught, directly and in the closure, while
// the tree as it is passes.
func TestPlantedMonitorToConcreteSource(t *testing.T) {
	pkgs := load(t, false)
	if bad := Check(pkgs); len(bad) != 0 {
		t.Fatalf("the tree itself breaks the table: %q", bad)
	}
	i := slices.IndexFunc(pkgs, func(p Package) bool { return p.Path == Module+"/monitor" })
	if i < 0 {
		t.Fatal("no package monitor in the tree")
	}
	planted := slices.Clone(pkgs)
	planted[i].Imports = append(slices.Clone(planted[i].Imports), Module+"/source/codex")
	got := Check(planted)
	if !slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "monitor imports source/codex: ") }) {
		t.Errorf("planted monitor → source/codex not caught: %q", got)
	}
	if deps := closure(graph(planted), Module+"/monitor"); !slices.Contains(deps, Module+"/source/codex") {
		t.Errorf("the closure of the planted monitor misses source/codex: %q", deps)
	}
}

// Purity over the whole closure: no pure package links, however far down, a
// package that starts processes or opens connections.
func TestPureClosures(t *testing.T) {
	for _, line := range CheckPureClosures(graph(load(t, false))) {
		t.Error(line)
	}
}

// A planted transitive impurity is caught: board importing terminal (pure
// itself, no os/exec in board) reaches os/exec through terminal's runner.
func TestPlantedTransitiveImpurity(t *testing.T) {
	g := graph(load(t, false))
	board := Module + "/board"
	if _, ok := g[board]; !ok {
		t.Fatal("no package board in the tree")
	}
	g[board] = append(slices.Clone(g[board]), Module+"/terminal")
	got := CheckPureClosures(g)
	if !slices.Contains(got, "board (pure) reaches os/exec through board → terminal") {
		t.Errorf("planted board → terminal → os/exec not caught: %q", got)
	}
	if bad := Check([]Package{{Path: board, Imports: g[board]}}); len(bad) != 0 {
		t.Errorf("the direct check should see nothing wrong (that is the point): %q", bad)
	}
}

// graph is pkgs as a map from a package to its imports.
func graph(pkgs []Package) map[string][]string {
	g := make(map[string][]string, len(pkgs))
	for _, p := range pkgs {
		g[p.Path] = p.Imports
	}
	return g
}

// The check itself, on a made-up graph: each kind of wrong edge is caught,
// and the right ones pass.
func TestCheckCatchesWrongImports(t *testing.T) {
	m := func(rel string) string { return Module + "/" + rel }
	pkgs := []Package{
		{m("source/procscan"), []string{m("hookbin"), m("session"), "os"}}, // input → hook program
		{m("monitor"), []string{m("install"), m("source/registry")}},       // read → action
		{m("monitor/liveness"), []string{m("monitor/combine")}},            // forbidden inside a layer
		{m("monitor/combine"), []string{m("session"), "os/exec"}},          // pure package runs commands
		{m("newthing"), nil}, // placed nowhere
		{m("board"), []string{m("monitor/combine"), m("session"), "image/png"}}, // fine
		{m("cmd/mew"), []string{m("app"), m("install"), m("monitor")}},          // fine
	}
	got := Check(pkgs)
	for _, want := range []string{
		"source/procscan (input) imports hookbin (hook)",
		"monitor (read) imports install (action)",
		"monitor/liveness imports monitor/combine",
		"monitor/combine (pure) imports os/exec",
		"newthing: in no layer",
		"monitor imports source/registry: the read side depends on the source interface only",
	} {
		if !slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("no finding %q in %q", want, got)
		}
	}
	if len(got) != 6 {
		t.Errorf("%d findings, want 6 (board and cmd/mew are fine): %q", len(got), got)
	}
}

func TestEveryLayerIsInTheTable(t *testing.T) {
	for rel, l := range Placement {
		if _, ok := MayImport[l]; !ok {
			t.Errorf("%s is in layer %q, which MayImport does not list", rel, l)
		}
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// listedPackage is the part of `go list -json` output the checker needs.
type listedPackage struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Imports    []string          // resolved (vendor-mapped) import paths
	ImportMap  map[string]string // import path in source -> resolved path
	Module     *struct {
		Path      string
		Main      bool
		GoVersion string
	}
	Error *struct{ Err string }
}

// listFields keeps `go list` from computing what the checker never reads.
const listFields = "ImportPath,Dir,GoFiles,CgoFiles,Imports,ImportMap,Module,Error"

// Problem is one error found while checking, located in a source file.
type Problem struct {
	Package string
	Pos     string // file:line:col; relative to the module for its own files
	Msg     string
}

func (p Problem) String() string {
	if p.Pos == "" {
		return fmt.Sprintf("%s: %s", p.Package, p.Msg)
	}
	return fmt.Sprintf("%s: %s", p.Pos, p.Msg)
}

// Result is the outcome of checking one darwin architecture.
type Result struct {
	Arch           string
	Elapsed        time.Duration
	ModulePackages int // packages of the main module that were checked
	Packages       int // all packages checked, dependencies and std included
	// Problems fail the check: type errors in the module's packages, uses of
	// dependency objects whose type could not be determined, and packages
	// that could not be loaded at all.
	Problems []Problem
	// IgnoredDepErrors are type errors inside dependencies (mostly the
	// invalid types FakeImportC gives C.xxx); they do not fail the check.
	IgnoredDepErrors []Problem
	// With Options.Selectors: the objc call sites checked, and the index.
	SelectorSites   int
	IndexedClasses  int
	IndexedMethods  int
	SelectorElapsed time.Duration
}

type node struct {
	lp       *listedPackage
	own      bool
	done     chan struct{}
	pkg      *types.Package
	problems []Problem
	ignored  []Problem
	// kept for the selector check (own packages, Options.Selectors)
	files []*ast.File
	info  *types.Info
}

// Options selects what Check checks.
type Options struct {
	Patterns []string // package patterns for `go list`; default ./...
	Tests    bool     // also check the module's _test.go files
	// Selectors also checks the selectors the module's code sends
	// (selectors.go) against darwinkit's generated bindings and
	// selectors.manifest, on the first arch only (selectors do not
	// depend on it).
	Selectors bool
}

// Check lists the packages matched by opts.Patterns in the module at dir for
// darwin/arch with cgo enabled, for each arch, and type-checks them and all
// their dependencies from source. Only errors in the module's own packages
// (or ones that blind the check of them) are Problems. The arches are
// checked at the same time and share parsed files: most of them (the
// standard library's) are the same for every arch.
func Check(dir string, arches []string, opts Options) ([]*Result, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	shared := &parseCache{fset: token.NewFileSet(), sem: make(chan struct{}, runtime.GOMAXPROCS(0))}
	results := make([]*Result, len(arches))
	errs := make([]error, len(arches))
	var wg sync.WaitGroup
	for i, arch := range arches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			results[i], errs[i] = checkArch(absDir, arch, patterns, opts.Tests, opts.Selectors && i == 0, shared)
			if results[i] != nil {
				results[i].Arch, results[i].Elapsed = arch, time.Since(start)
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("darwin/%s: %w", arches[i], err)
		}
	}
	return results, nil
}

func checkArch(dir, arch string, patterns []string, tests, selectors bool, shared *parseCache) (*Result, error) {
	sizes := types.SizesFor("gc", arch)
	if sizes == nil {
		return nil, fmt.Errorf("unknown GOARCH %q", arch)
	}
	listed, err := listPackages(dir, arch, patterns, tests)
	if err != nil {
		return nil, err
	}

	nodes := make(map[string]*node, len(listed))
	order := make([]*node, 0, len(listed))
	for _, lp := range listed {
		n := &node{lp: lp, own: lp.Module != nil && lp.Module.Main, done: make(chan struct{})}
		nodes[lp.ImportPath] = n
		order = append(order, n)
	}

	c := &checker{dir: dir, files: shared, sizes: sizes, nodes: nodes, keep: selectors}
	// `go list -deps` prints every package after its dependencies, so each
	// goroutine only ever waits on nodes started before it.
	var wg sync.WaitGroup
	for _, n := range order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.check(n)
		}()
	}
	wg.Wait()

	res := &Result{Packages: len(order)}
	for _, n := range order {
		if n.own {
			res.ModulePackages++
		}
		res.Problems = append(res.Problems, n.problems...)
		res.IgnoredDepErrors = append(res.IgnoredDepErrors, n.ignored...)
	}
	if selectors {
		start := time.Now()
		dk, err := darwinkitDir(dir)
		if err != nil {
			return nil, err
		}
		x, err := buildObjcIndex(dk, selectorsManifest)
		if err != nil {
			return nil, err
		}
		s := &selCheck{x: x, c: c, user: map[string]*objcClass{}, lines: map[string][]string{}, sites: map[string]bool{}}
		seen := map[string]bool{}
		for _, n := range order {
			// A package and its test variant share files: check each once.
			path, _, _ := strings.Cut(n.lp.ImportPath, " ")
			if n.own && n.info != nil && !seen[n.lp.Dir+"|"+path+"|"+strings.Join(n.lp.GoFiles, ",")] {
				seen[n.lp.Dir+"|"+path+"|"+strings.Join(n.lp.GoFiles, ",")] = true
				s.checkPackage(n.lp.ImportPath, n.files, n.info)
			}
		}
		res.Problems = append(res.Problems, dedupe(s.out)...)
		res.SelectorSites, res.IndexedClasses, res.IndexedMethods = len(s.sites), len(x.classes), x.methods
		res.SelectorElapsed = time.Since(start)
	}
	return res, nil
}

// dedupe drops problems reported twice (a file in a package and in its
// test variant).
func dedupe(ps []Problem) []Problem {
	seen := map[string]bool{}
	var out []Problem
	for _, p := range ps {
		if k := p.String(); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// parseCache parses each file once for all arches. go/types only reads
// the syntax trees, so concurrent checks can share them.
type parseCache struct {
	fset  *token.FileSet
	sem   chan struct{} // bounds parsing+checking to the number of CPUs
	files sync.Map      // absolute file name -> *parsedFile
}

type parsedFile struct {
	once sync.Once
	file *ast.File
	err  error
}

func (pc *parseCache) parse(name string) (*ast.File, error) {
	v, _ := pc.files.LoadOrStore(name, new(parsedFile))
	pf := v.(*parsedFile)
	pf.once.Do(func() {
		pf.file, pf.err = parser.ParseFile(pc.fset, name, nil, parser.SkipObjectResolution)
	})
	return pf.file, pf.err
}

func listPackages(dir, arch string, patterns []string, tests bool) ([]*listedPackage, error) {
	args := []string{"list", "-e", "-deps", "-json=" + listFields}
	if tests {
		args = append(args, "-test")
	}
	args = append(append(args, "--"), patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=darwin", "GOARCH="+arch, "CGO_ENABLED=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var out []*listedPackage
	dec := json.NewDecoder(&stdout)
	for {
		lp := new(listedPackage)
		if err := dec.Decode(lp); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %v", err)
		}
		if generated(lp) {
			continue
		}
		out = append(out, lp)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	return out, nil
}

// generated reports whether lp is the test main `go list -test` makes up
// (its only file lives in the build cache): nothing imports it and it is
// not code anyone wrote.
func generated(lp *listedPackage) bool {
	for _, f := range lp.GoFiles {
		if filepath.IsAbs(f) {
			return true
		}
	}
	return false
}

type checker struct {
	dir   string
	files *parseCache
	sizes types.Sizes
	nodes map[string]*node
	keep  bool // keep own packages' syntax and type info (selector check)
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func (c *checker) check(n *node) {
	defer close(n.done)
	lp := n.lp
	for _, imp := range lp.Imports {
		if dep := c.nodes[imp]; dep != nil {
			<-dep.done
		}
	}
	if lp.Error != nil {
		// The package cannot be built for darwin at all (missing module,
		// import cycle, bad file name): whoever it is, the build fails.
		n.problems = append(n.problems, Problem{Package: lp.ImportPath, Msg: strings.TrimSpace(lp.Error.Err)})
		return
	}
	if lp.ImportPath == "unsafe" {
		n.pkg = types.Unsafe
		return
	}

	c.files.sem <- struct{}{}
	defer func() { <-c.files.sem }()

	report := func(p Problem) {
		if n.own {
			n.problems = append(n.problems, p)
		} else {
			n.ignored = append(n.ignored, p)
		}
	}
	var files []*ast.File
	for _, name := range append(append([]string(nil), lp.GoFiles...), lp.CgoFiles...) {
		f, err := c.files.parse(filepath.Join(lp.Dir, name))
		if err != nil {
			report(Problem{Package: lp.ImportPath, Msg: c.relative(err.Error())})
		}
		if f != nil {
			files = append(files, f)
		}
	}

	conf := types.Config{
		// cgo cannot run here: `import "C"` becomes an empty package whose
		// members all have invalid types (see DEVELOPERS.md).
		FakeImportC: true,
		// Only the module's own code needs its bodies checked; declarations
		// are all a dependency's importers can see.
		IgnoreFuncBodies: !n.own,
		Sizes:            c.sizes,
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if resolved, ok := lp.ImportMap[path]; ok {
				path = resolved
			}
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			dep := c.nodes[path]
			if dep == nil || dep.pkg == nil {
				return nil, fmt.Errorf("package %s was not loaded", path)
			}
			return dep.pkg, nil
		}),
		Error: func(err error) {
			var terr types.Error
			if errors.As(err, &terr) {
				report(Problem{Package: lp.ImportPath, Pos: c.position(terr.Pos), Msg: terr.Msg})
				return
			}
			report(Problem{Package: lp.ImportPath, Msg: err.Error()})
		},
	}
	if lp.Module != nil && lp.Module.GoVersion != "" {
		conf.GoVersion = "go" + lp.Module.GoVersion
	}
	var info *types.Info
	if n.own {
		info = &types.Info{Uses: make(map[*ast.Ident]types.Object)}
		if c.keep {
			info.Types = make(map[ast.Expr]types.TypeAndValue)
			info.Instances = make(map[*ast.Ident]types.Instance)
			n.files, n.info = files, info
		}
	}
	// A test variant is listed as "p [p.test]"; its code knows itself as p.
	path, _, _ := strings.Cut(lp.ImportPath, " ")
	pkg, _ := conf.Check(path, c.files.fset, files, info) // errors went to conf.Error
	n.pkg = pkg
	if n.own {
		n.problems = append(n.problems, c.blindUses(pkg, info)...)
	}
}

// blindUses reports where the module's code uses something a dependency
// declares with a type the checker could not determine (a C type behind
// FakeImportC, or a dependency's own error). go/types stays silent about
// any expression involving an invalid type, so such a use would otherwise
// pass unchecked, whatever it does wrong.
func (c *checker) blindUses(pkg *types.Package, info *types.Info) []Problem {
	var out []Problem
	for id, obj := range info.Uses {
		if obj.Pkg() == nil || obj.Pkg() == pkg {
			continue
		}
		switch obj.(type) {
		case *types.PkgName, *types.Builtin: // unsafe.Sizeof & co. have no type of their own
			continue
		}
		if hasInvalid(obj.Type(), 0) {
			out = append(out, Problem{
				Package: pkg.Path(),
				Pos:     c.position(id.Pos()),
				Msg: fmt.Sprintf("uses %s.%s, whose type cannot be determined without cgo, so this use is not checked (wrap it in a function with a Go signature)",
					obj.Pkg().Path(), obj.Name()),
			})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

// hasInvalid reports whether t mentions the invalid type outside of named
// types (whose own declarations were checked where they live).
func hasInvalid(t types.Type, depth int) bool {
	if t == nil || depth > 8 {
		return false
	}
	switch t := t.(type) {
	case *types.Basic:
		return t.Kind() == types.Invalid
	case *types.Pointer:
		return hasInvalid(t.Elem(), depth+1)
	case *types.Slice:
		return hasInvalid(t.Elem(), depth+1)
	case *types.Array:
		return hasInvalid(t.Elem(), depth+1)
	case *types.Map:
		return hasInvalid(t.Key(), depth+1) || hasInvalid(t.Elem(), depth+1)
	case *types.Chan:
		return hasInvalid(t.Elem(), depth+1)
	case *types.Signature:
		return hasInvalid(t.Params(), depth+1) || hasInvalid(t.Results(), depth+1)
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			if hasInvalid(t.At(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

func (c *checker) position(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	return c.relative(c.files.fset.Position(pos).String())
}

// relative shortens positions inside the checked module to module-relative
// paths, which is how people and editors read them.
func (c *checker) relative(s string) string {
	return strings.ReplaceAll(s, c.dir+string(filepath.Separator), "")
}

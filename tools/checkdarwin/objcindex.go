package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// The selector check (-selectors) knows Objective-C classes from two
// places: darwinkit's generated bindings (every *.gen.go method is one
// objc.Call with a literal selector, so parsing them gives each class's
// selectors with their argument and result types), and selectors.manifest
// for frameworks darwinkit does not generate (ServiceManagement,
// UserNotifications), each line citing Apple's header.
//
// Types are compared by kind, the way they cross into Objective-C:
//
//	id      any object: wrappers, interfaces, string (NSString), slices, maps
//	block   a Go func (a block, itself an object)
//	i64 i32 i16 i8   integers by size (NSInteger, NSUInteger, enums)
//	f64 f32 bool ptr sel void
//	struct:Name   a C struct by name (Rect, Size, Point, ...)
//	?       unknown: never reported

// objcMethod is one selector of a class.
type objcMethod struct {
	args     []string
	variadic bool
	result   string
	where    string // where it was learned, for messages
}

type objcClass struct {
	name  string
	super string
	inst  map[string]objcMethod
	cls   map[string]objcMethod
}

// objcIndex is every class known, and which Go type wraps which class.
type objcIndex struct {
	classes map[string]*objcClass
	// wrapper maps "importpath.GoType" to the class it wraps; the
	// class-object type (_ViewClass) maps to "+NSView".
	wrapper map[string]string
	methods int
}

func newObjcIndex() *objcIndex {
	return &objcIndex{classes: map[string]*objcClass{}, wrapper: map[string]string{}}
}

func (x *objcIndex) class(name string) *objcClass {
	c := x.classes[name]
	if c == nil {
		c = &objcClass{name: name, inst: map[string]objcMethod{}, cls: map[string]objcMethod{}}
		x.classes[name] = c
	}
	return c
}

// lookup finds sel on class (or a superclass); classSide selects class
// methods, which also include NSObject's instance methods (a class is an
// object).
func (x *objcIndex) lookup(class, sel string, classSide bool) (objcMethod, bool) {
	for c, n := x.classes[class], 0; c != nil && n < 64; c, n = x.classes[c.super], n+1 {
		if classSide {
			if m, ok := c.cls[sel]; ok {
				return m, true
			}
		} else if m, ok := c.inst[sel]; ok {
			return m, true
		}
	}
	if classSide {
		if root := x.classes["NSObject"]; root != nil {
			if m, ok := root.inst[sel]; ok {
				return m, true
			}
		}
	}
	return objcMethod{}, false
}

// darwinkitDir is darwinkit's directory in the module cache, as the module
// at dir requires it.
func darwinkitDir(dir string) (string, error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/progrium/darwinkit")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list -m github.com/progrium/darwinkit: %v", err)
	}
	d := strings.TrimSpace(string(out))
	if d == "" {
		return "", errors.New("darwinkit is not in the module cache (go mod download)")
	}
	return d, nil
}

// goPkg is what the indexer knows of one darwinkit package: its type
// declarations, for kinds.
type goPkg struct {
	path  string
	name  string
	types map[string]ast.Expr // type name -> its type expression
	// aliases: the file's import name -> path, per file (kept per package:
	// darwinkit uses the package names as is)
	imports map[string]string
}

const darwinkitModule = "github.com/progrium/darwinkit"

// buildObjcIndex parses darwinkit's macos/* packages (and objc) and reads
// the manifest.
func buildObjcIndex(dkDir string, manifest []byte) (*objcIndex, error) {
	var dirs []string
	entries, err := os.ReadDir(filepath.Join(dkDir, "macos"))
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), "_") {
			dirs = append(dirs, filepath.Join("macos", e.Name()))
		}
	}
	dirs = append(dirs, "objc")

	type parsed struct {
		pkg   *goPkg
		files []*ast.File
	}
	results := make([]parsed, len(dirs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var firstErr error
	var mu sync.Mutex
	for i, rel := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			fset := token.NewFileSet()
			pkgs, err := parser.ParseDir(fset, filepath.Join(dkDir, rel), func(fi os.FileInfo) bool {
				return !strings.HasSuffix(fi.Name(), "_test.go")
			}, parser.SkipObjectResolution)
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				return
			}
			for name, p := range pkgs {
				gp := &goPkg{path: darwinkitModule + "/" + filepath.ToSlash(rel), name: name, types: map[string]ast.Expr{}, imports: map[string]string{}}
				var files []*ast.File
				for fname, f := range p.Files {
					_ = fname
					files = append(files, f)
					for _, imp := range f.Imports {
						path, _ := strconv.Unquote(imp.Path.Value)
						n := path[strings.LastIndex(path, "/")+1:]
						if imp.Name != nil {
							n = imp.Name.Name
						}
						gp.imports[n] = path
					}
					for _, d := range f.Decls {
						if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
							for _, s := range g.Specs {
								ts := s.(*ast.TypeSpec)
								gp.types[ts.Name.Name] = ts.Type
							}
						}
					}
				}
				results[i] = parsed{pkg: gp, files: files}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	pkgs := map[string]*goPkg{}
	for _, r := range results {
		if r.pkg != nil {
			pkgs[r.pkg.path] = r.pkg
		}
	}
	x := newObjcIndex()
	k := &kinder{pkgs: pkgs}
	for _, r := range results {
		if r.pkg != nil {
			indexPackage(x, k, r.pkg, r.files)
		}
	}
	if err := readManifest(x, manifest); err != nil {
		return nil, err
	}
	return x, nil
}

// indexPackage reads the class bindings, superclasses and methods of one
// package.
func indexPackage(x *objcIndex, k *kinder, p *goPkg, files []*ast.File) {
	// var ViewClass = _ViewClass{objc.GetClass("NSView")}
	goClass := map[string]string{} // Go type name -> ObjC class
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if len(vs.Values) != 1 {
					continue
				}
				lit, ok := vs.Values[0].(*ast.CompositeLit)
				if !ok || len(lit.Elts) != 1 {
					continue
				}
				typ, ok := lit.Type.(*ast.Ident)
				call, ok2 := lit.Elts[0].(*ast.CallExpr)
				if !ok || !ok2 || !isSel(call.Fun, "objc", "GetClass") || len(call.Args) != 1 {
					continue
				}
				name, ok := stringLit(call.Args[0])
				if !ok || !strings.HasPrefix(typ.Name, "_") || !strings.HasSuffix(typ.Name, "Class") {
					continue
				}
				goType := strings.TrimSuffix(strings.TrimPrefix(typ.Name, "_"), "Class")
				goClass[goType] = name
				x.wrapper[p.path+"."+goType] = name
				x.wrapper[p.path+"."+typ.Name] = "+" + name
				x.class(name)
			}
		}
	}
	// Superclasses: the embedded first field of the wrapper struct.
	for goType, name := range goClass {
		st, ok := p.types[goType].(*ast.StructType)
		if !ok || len(st.Fields.List) == 0 || len(st.Fields.List[0].Names) != 0 {
			continue
		}
		if super := k.classOf(p, st.Fields.List[0].Type, x); super != "" {
			x.class(name).super = super
		}
	}
	// Methods: func (v_ View) X(params) R { rv := objc.Call[T](v_, objc.Sel("sel"), args...) }
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Body == nil || len(fd.Recv.List) != 1 {
				continue
			}
			recv, ok := fd.Recv.List[0].Type.(*ast.Ident)
			if !ok {
				continue
			}
			classSide := strings.HasPrefix(recv.Name, "_") && strings.HasSuffix(recv.Name, "Class")
			goType := recv.Name
			if classSide {
				goType = strings.TrimSuffix(strings.TrimPrefix(goType, "_"), "Class")
			}
			class, ok := goClass[goType]
			if !ok {
				continue
			}
			call := findObjcCall(fd.Body)
			if call == nil {
				continue
			}
			sel, ok := stringLit(call.Args[1].(*ast.CallExpr).Args[0])
			if !ok {
				continue
			}
			params := map[string]ast.Expr{}
			for _, fl := range fd.Type.Params.List {
				for _, n := range fl.Names {
					params[n.Name] = fl.Type
				}
			}
			m := objcMethod{result: k.kind(p, call.Fun.(*ast.IndexExpr).Index), where: fmt.Sprintf("darwinkit %s.%s.%s", p.name, recv.Name, fd.Name.Name)}
			for _, a := range call.Args[2:] {
				if _, ok := a.(*ast.CallExpr); ok && call.Ellipsis.IsValid() {
					m.variadic = true // append([]any{x}, args...)...
					continue
				}
				if id, ok := a.(*ast.Ident); ok && params[id.Name] != nil {
					m.args = append(m.args, k.kind(p, params[id.Name]))
				} else {
					m.args = append(m.args, "?")
				}
			}
			c := x.class(class)
			if classSide {
				c.cls[sel] = m
			} else {
				c.inst[sel] = m
			}
			x.methods++
		}
	}
}

// findObjcCall is the first objc.Call[T](recv, objc.Sel("..."), ...) in a
// generated body.
func findObjcCall(body *ast.BlockStmt) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		c, ok := n.(*ast.CallExpr)
		if !ok || len(c.Args) < 2 {
			return true
		}
		ix, ok := c.Fun.(*ast.IndexExpr)
		if !ok || !isSel(ix.X, "objc", "Call") {
			return true
		}
		if s, ok := c.Args[1].(*ast.CallExpr); ok && isSel(s.Fun, "objc", "Sel") && len(s.Args) == 1 {
			found = c
			return false
		}
		return true
	})
	return found
}

func isSel(e ast.Expr, pkg, name string) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name == pkg && s.Sel.Name == name
}

func stringLit(e ast.Expr) (string, bool) {
	b, ok := e.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(b.Value)
	return s, err == nil
}

// kinder turns darwinkit's type expressions into kinds.
type kinder struct{ pkgs map[string]*goPkg }

func basicKind(name string) string {
	switch name {
	case "bool":
		return "bool"
	case "int", "int64", "uint", "uint64", "uintptr":
		return "i64"
	case "int32", "uint32", "rune":
		return "i32"
	case "int16", "uint16":
		return "i16"
	case "int8", "uint8", "byte":
		return "i8"
	case "float64":
		return "f64"
	case "float32":
		return "f32"
	case "string":
		return "id" // darwinkit converts it to an NSString
	}
	return ""
}

func (k *kinder) kind(p *goPkg, e ast.Expr) string { return k.kindDepth(p, e, 0) }

func (k *kinder) kindDepth(p *goPkg, e ast.Expr, depth int) string {
	if depth > 16 {
		return "?"
	}
	switch t := e.(type) {
	case *ast.Ident:
		if b := basicKind(t.Name); b != "" {
			return b
		}
		if t.Name == "any" || t.Name == "error" {
			return "?"
		}
		return k.named(p, t.Name, depth)
	case *ast.SelectorExpr:
		pkgName, ok := t.X.(*ast.Ident)
		if !ok {
			return "?"
		}
		if pkgName.Name == "unsafe" && t.Sel.Name == "Pointer" {
			return "ptr"
		}
		path := p.imports[pkgName.Name]
		q := k.pkgs[path]
		if q == nil {
			return "?"
		}
		return k.named(q, t.Sel.Name, depth)
	case *ast.StarExpr:
		return "ptr"
	case *ast.ArrayType:
		if t.Len == nil {
			return "id" // a slice: NSArray (or NSData for []byte)
		}
		return "?"
	case *ast.MapType, *ast.InterfaceType:
		return "id"
	case *ast.FuncType:
		return "block"
	}
	return "?"
}

func (k *kinder) named(p *goPkg, name string, depth int) string {
	if p.path == darwinkitModule+"/objc" {
		switch name {
		case "Void":
			return "void"
		case "Selector":
			return "sel"
		case "Object", "Class", "IObject", "Protocol", "IClass", "IProtocol", "Block":
			return "id"
		}
	}
	te := p.types[name]
	switch t := te.(type) {
	case nil:
		return "?"
	case *ast.StructType:
		if len(t.Fields.List) > 0 && len(t.Fields.List[0].Names) == 0 {
			return "id" // a wrapper: embeds its superclass's wrapper
		}
		return "struct:" + name
	case *ast.InterfaceType:
		return "id"
	}
	return k.kindDepth(p, te, depth+1)
}

// classOf is the class an embedded wrapper type names (objc.Object is
// NSObject's).
func (k *kinder) classOf(p *goPkg, e ast.Expr, x *objcIndex) string {
	switch t := e.(type) {
	case *ast.Ident:
		return x.wrapper[p.path+"."+t.Name]
	case *ast.SelectorExpr:
		id, ok := t.X.(*ast.Ident)
		if !ok {
			return ""
		}
		path := p.imports[id.Name]
		if path == darwinkitModule+"/objc" && t.Sel.Name == "Object" {
			return "NSObject"
		}
		return x.wrapper[path+"."+t.Sel.Name]
	}
	return ""
}

// readManifest reads selectors.manifest lines:
//
//	class SMAppService : NSObject                 # ServiceManagement/SMAppService.h: ...
//	+ SMAppService mainAppService () -> id        # ServiceManagement/SMAppService.h: + (SMAppService *)mainAppService;
//	- SMAppService status () -> i64               # ...: @property (readonly) SMAppServiceStatus status;
//
// Every line must cite a header (a "# Framework/Header.h" comment).
func readManifest(x *objcIndex, data []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		body, cite, ok := strings.Cut(line, "#")
		cite = strings.TrimSpace(cite)
		if !ok || !strings.Contains(cite, ".h") {
			return fmt.Errorf("selectors.manifest:%d: no Apple header cited (# Framework/Header.h: declaration)", n)
		}
		f := strings.Fields(body)
		where := fmt.Sprintf("selectors.manifest:%d (%s)", n, cite)
		switch {
		case len(f) == 4 && f[0] == "class" && f[2] == ":":
			if f[3] != "-" { // "-": a root class
				x.class(f[1]).super = f[3]
			} else {
				x.class(f[1])
			}
		case len(f) >= 4 && (f[0] == "+" || f[0] == "-") && f[len(f)-2] == "->":
			args := strings.Join(f[3:len(f)-2], "")
			if !strings.HasPrefix(args, "(") || !strings.HasSuffix(args, ")") {
				return fmt.Errorf("selectors.manifest:%d: arguments must be (kind, ...)", n)
			}
			m := objcMethod{result: f[len(f)-1], where: where}
			if a := strings.Trim(args, "()"); a != "" {
				m.args = strings.Split(a, ",")
			}
			if strings.Count(f[2], ":") != len(m.args) {
				return fmt.Errorf("selectors.manifest:%d: %s takes %d arguments, %d listed", n, f[2], strings.Count(f[2], ":"), len(m.args))
			}
			c := x.class(f[1])
			if f[0] == "+" {
				c.cls[f[2]] = m
			} else {
				c.inst[f[2]] = m
			}
			x.methods++
		default:
			return fmt.Errorf("selectors.manifest:%d: cannot read %q", n, body)
		}
	}
	return sc.Err()
}

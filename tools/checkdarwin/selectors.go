package main

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"strings"
)

// selectorsManifest lists the selectors darwinkit does not generate, each
// citing Apple's header (see readManifest).
//
//go:embed selectors.manifest
var selectorsManifest []byte

// selCheck verifies the selectors the module's own code sends: in
// objc.Call[T](receiver, objc.Sel("..."), args...) the selector exists on
// the receiver's class or a superclass, takes as many arguments as are
// passed, and the arguments and T match its types by kind; in
// objc.NewClass[T](objc.Sel(...)...) each selector has the Go method
// darwinkit will look for on T and overrides a method of the superclass
// with the same kinds. A receiver whose Go type says nothing of its class
// (objc.Object, objc.Class) names it in a comment on the call's line or
// the line above: `objc:SMAppService` (an instance), `objc:+SMAppService`
// (the class).
type selCheck struct {
	x     *objcIndex
	c     *checker
	user  map[string]*objcClass // classes the module makes with NewClass, by Go type
	lines map[string][]string   // file -> its lines, for the comments
	sites map[string]bool       // the call sites checked, by position
	out   []Problem
}

// site counts a call site once (a file is checked again in its package's
// test variant).
func (s *selCheck) site(pos token.Pos) { s.sites[s.c.position(pos)] = true }

func (s *selCheck) problem(pkg string, pos token.Pos, format string, args ...any) {
	s.out = append(s.out, Problem{Package: pkg, Pos: s.c.position(pos), Msg: fmt.Sprintf(format, args...)})
}

// objcFunc reports whether the call's function is darwinkit's objc.<name>,
// and returns the instantiated type argument.
func objcFunc(info *types.Info, fun ast.Expr, name string) (types.Type, bool) {
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	switch f := fun.(type) {
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.Ident:
		id = f
	default:
		return nil, false
	}
	obj := info.Uses[id]
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != darwinkitModule+"/objc" || obj.Name() != name {
		return nil, false
	}
	if inst, ok := info.Instances[id]; ok && inst.TypeArgs.Len() > 0 {
		return inst.TypeArgs.At(0), true
	}
	return nil, true
}

// selLiteral is the selector of an objc.Sel("...") argument.
func selLiteral(info *types.Info, e ast.Expr) (string, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	if _, ok := objcFunc(info, call.Fun, "Sel"); !ok {
		return "", false
	}
	return stringLit(call.Args[0])
}

func (s *selCheck) checkPackage(pkg string, files []*ast.File, info *types.Info) {
	// User classes first: a call may target one.
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if t, ok := objcFunc(info, call.Fun, "NewClass"); ok && t != nil {
					s.userClass(pkg, call, t, info)
				}
			}
			return true
		})
	}
	for _, f := range files {
		inCall := map[*ast.CallExpr]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if t, ok := objcFunc(info, call.Fun, "Call"); ok {
				if len(call.Args) >= 2 {
					if sc, ok := call.Args[1].(*ast.CallExpr); ok {
						inCall[sc] = true
					}
				}
				s.checkCall(pkg, call, t, info)
			}
			if _, ok := objcFunc(info, call.Fun, "NewClass"); ok {
				for _, a := range call.Args {
					if sc, ok := a.(*ast.CallExpr); ok {
						inCall[sc] = true
					}
				}
			}
			return true
		})
		// A selector made elsewhere (performSelector:, a delegate): it
		// must at least exist somewhere.
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || inCall[call] {
				return true
			}
			if _, ok := objcFunc(info, call.Fun, "Sel"); !ok {
				return true
			}
			s.site(call.Pos())
			sel, ok := selLiteral(info, call)
			if !ok {
				s.problem(pkg, call.Pos(), "objc.Sel with a selector that is not a string literal: the selector check cannot see it")
				return true
			}
			if !s.anywhere(sel) {
				s.problem(pkg, call.Pos(), "selector %q is not a method of any class darwinkit or selectors.manifest knows", sel)
			}
			return true
		})
	}
}

func (s *selCheck) anywhere(sel string) bool {
	for _, c := range s.x.classes {
		if _, ok := c.inst[sel]; ok {
			return true
		}
		if _, ok := c.cls[sel]; ok {
			return true
		}
	}
	return false
}

// userClass registers objc.NewClass[T]'s class and checks its selectors.
func (s *selCheck) userClass(pkg string, call *ast.CallExpr, t types.Type, info *types.Info) {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return
	}
	super := "NSObject"
	for i := 0; i < st.NumFields(); i++ {
		if tag := reflect.StructTag(st.Tag(i)).Get("objc"); tag != "" {
			super = tag
			break
		}
	}
	uc := &objcClass{name: named.Obj().Name(), super: super, inst: map[string]objcMethod{}, cls: map[string]objcMethod{}}
	s.user[named.Obj().Pkg().Path()+"."+named.Obj().Name()] = uc
	if s.x.classes[super] == nil {
		s.problem(pkg, call.Pos(), "objc.NewClass[%s]: superclass %q is not a class darwinkit or selectors.manifest knows", uc.name, super)
		return
	}
	mset := types.NewMethodSet(named)
	for _, a := range call.Args {
		s.site(a.Pos())
		sel, ok := selLiteral(info, a)
		if !ok {
			s.problem(pkg, a.Pos(), "objc.NewClass[%s]: a selector that is not an objc.Sel string literal", uc.name)
			continue
		}
		goName := selectorToGoName(sel)
		ms := mset.Lookup(named.Obj().Pkg(), goName)
		if ms == nil {
			s.problem(pkg, a.Pos(), "objc.NewClass[%s]: %s has no method %s for selector %q (darwinkit panics at run time)", uc.name, uc.name, goName, sel)
			continue
		}
		if len(ms.Index()) > 1 {
			// Promoted from the embedded wrapper: darwinkit would register
			// the wrapper, which sends the same selector to the object
			// again, for ever.
			s.problem(pkg, a.Pos(), "objc.NewClass[%s]: %s has no method %s of its own for selector %q (the one it has is the embedded wrapper's, which sends %q to itself)", uc.name, uc.name, goName, sel, sel)
			continue
		}
		sig := ms.Type().(*types.Signature)
		var m objcMethod
		for i := 0; i < sig.Params().Len(); i++ {
			m.args = append(m.args, goKind(sig.Params().At(i).Type()))
		}
		m.result = "void"
		if sig.Results().Len() == 1 {
			m.result = goKind(sig.Results().At(0).Type())
		}
		m.where = "method " + uc.name + "." + goName
		uc.inst[sel] = m
		if n := strings.Count(sel, ":"); n != len(m.args) {
			s.problem(pkg, a.Pos(), "objc.NewClass[%s]: selector %q takes %d arguments, %s.%s takes %d", uc.name, sel, n, uc.name, goName, len(m.args))
			continue
		}
		sm, ok := s.x.lookup(super, sel, false)
		if !ok {
			s.problem(pkg, a.Pos(), "objc.NewClass[%s]: selector %q is not a method of %s or its superclasses (a typo? nothing would call it)", uc.name, sel, super)
			continue
		}
		for i := range m.args {
			if i < len(sm.args) && !compatible(sm.args[i], m.args[i]) {
				s.problem(pkg, a.Pos(), "objc.NewClass[%s]: %s argument %d is %s, %s's %q takes %s (%s)", uc.name, goName, i+1, m.args[i], super, sel, sm.args[i], sm.where)
			}
		}
		if !compatible(sm.result, m.result) {
			s.problem(pkg, a.Pos(), "objc.NewClass[%s]: %s returns %s, %s's %q returns %s (%s)", uc.name, goName, m.result, super, sel, sm.result, sm.where)
		}
	}
}

// selectorToGoName is darwinkit's own rule (objc/protocol.go): each part
// of the selector capitalised, colons dropped.
func selectorToGoName(sel string) string {
	var sb strings.Builder
	for _, part := range strings.Split(sel, ":") {
		if part != "" {
			sb.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return sb.String()
}

func (s *selCheck) checkCall(pkg string, call *ast.CallExpr, result types.Type, info *types.Info) {
	s.site(call.Pos())
	if len(call.Args) < 2 {
		return // go/types has reported it
	}
	sel, ok := selLiteral(info, call.Args[1])
	if !ok {
		s.problem(pkg, call.Args[1].Pos(), "objc.Call with a selector that is not an objc.Sel string literal: the selector check cannot see it")
		return
	}
	class, classSide, why := s.receiverClass(call.Args[0], info)
	if class == "" {
		s.problem(pkg, call.Pos(), "objc.Call %q: %s; name the class in a comment on this line or the one above (objc:Class for an instance, objc:+Class for the class)", sel, why)
		return
	}
	m, ok := s.lookup(class, sel, classSide)
	if !ok {
		side := "an instance method"
		if classSide {
			side = "a class method"
		}
		s.problem(pkg, call.Args[1].Pos(), "selector %q is not %s of %s or its superclasses", sel, side, class)
		return
	}
	args := call.Args[2:]
	want := strings.Count(sel, ":")
	if call.Ellipsis.IsValid() {
		return // a spread slice: its length is not known here
	}
	if len(args) != want && !(m.variadic && len(args) >= want) {
		s.problem(pkg, call.Pos(), "selector %q of %s takes %d arguments, %d passed", sel, class, want, len(args))
		return
	}
	for i, a := range args {
		if i >= len(m.args) {
			break
		}
		got := goKind(info.Types[a].Type)
		if !compatible(m.args[i], got) {
			s.problem(pkg, a.Pos(), "argument %d of %q on %s is %s, the method takes %s (%s)", i+1, sel, class, got, m.args[i], m.where)
		}
	}
	if result != nil {
		if got := goKind(result); !compatible(m.result, got) {
			s.problem(pkg, call.Pos(), "objc.Call[%s] for %q on %s: the method returns %s, not %s (%s)", types.TypeString(result, pkgName), sel, class, m.result, got, m.where)
		}
	}
}

func (s *selCheck) lookup(class, sel string, classSide bool) (objcMethod, bool) {
	for uc, n := s.userByName(class), 0; uc != nil && n < 8; n++ {
		if m, ok := uc.inst[sel]; ok && !classSide {
			return m, true
		}
		class = uc.super
		uc = s.userByName(class)
	}
	return s.x.lookup(class, sel, classSide)
}

func (s *selCheck) userByName(name string) *objcClass {
	for _, uc := range s.user {
		if uc.name == name {
			return uc
		}
	}
	return nil
}

// receiverClass is the class a receiver is an instance (or the class
// object) of: from its Go type, else from a comment.
func (s *selCheck) receiverClass(e ast.Expr, info *types.Info) (class string, classSide bool, why string) {
	t := info.Types[e].Type
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if named, ok := types.Unalias(t).(*types.Named); ok && named.Obj().Pkg() != nil {
		key := named.Obj().Pkg().Path() + "." + named.Obj().Name()
		if c, ok := s.x.wrapper[key]; ok {
			return strings.TrimPrefix(c, "+"), strings.HasPrefix(c, "+"), ""
		}
		if uc, ok := s.user[key]; ok {
			return uc.name, false, ""
		}
	}
	pos := s.c.files.fset.Position(e.Pos())
	lines := s.fileLines(pos.Filename)
	for _, ln := range []int{pos.Line, pos.Line - 1} {
		if ln < 1 || ln > len(lines) {
			continue
		}
		if _, after, ok := strings.Cut(lines[ln-1], "objc:"); ok {
			name := strings.Fields(after + " ")[0]
			if plus := strings.TrimPrefix(name, "+"); plus != name {
				return plus, true, ""
			}
			return name, false, ""
		}
	}
	return "", false, fmt.Sprintf("the receiver's type %s does not say which class it is", types.TypeString(info.Types[e].Type, pkgName))
}

func (s *selCheck) fileLines(name string) []string {
	if l, ok := s.lines[name]; ok {
		return l
	}
	data, _ := os.ReadFile(name)
	l := strings.Split(string(data), "\n")
	s.lines[name] = l
	return l
}

// goKind is the kind of a Go type as darwinkit passes it to Objective-C.
func goKind(t types.Type) string {
	if t == nil {
		return "?"
	}
	t = types.Unalias(t)
	if named, ok := t.(*types.Named); ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == darwinkitModule+"/objc" {
		switch named.Obj().Name() {
		case "Void":
			return "void"
		case "Selector":
			return "sel"
		case "Object", "Class", "IObject", "Protocol", "Block":
			return "id"
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch u.Kind() {
		case types.UntypedInt, types.UntypedRune:
			return "int*"
		case types.UntypedFloat:
			return "float*"
		case types.UntypedNil:
			return "nil"
		case types.UnsafePointer:
			return "ptr"
		case types.UntypedBool:
			return "bool"
		case types.UntypedString:
			return "id"
		}
		if k := basicKind(u.Name()); k != "" {
			return k
		}
		return "?"
	case *types.Pointer:
		return "ptr"
	case *types.Slice, *types.Map, *types.Interface:
		return "id"
	case *types.Signature:
		return "block"
	case *types.Struct:
		if u.NumFields() > 0 && u.Field(0).Embedded() {
			return "id" // a wrapper around an object
		}
		if named, ok := t.(*types.Named); ok {
			return "struct:" + named.Obj().Name()
		}
	}
	return "?"
}

// compatible reports whether a value of kind got passes (or is read) as
// kind want.
func compatible(want, got string) bool {
	switch {
	case want == got, want == "?", got == "?":
		return true
	case got == "int*":
		return want == "i64" || want == "i32" || want == "i16" || want == "i8"
	case got == "float*":
		return want == "f64" || want == "f32"
	case got == "nil":
		return want == "id" || want == "ptr" || want == "sel" || want == "block"
	case want == "id" && got == "block":
		return true
	}
	return false
}

// pkgName writes types as the code spells them (objc.Object).
func pkgName(p *types.Package) string { return p.Name() }

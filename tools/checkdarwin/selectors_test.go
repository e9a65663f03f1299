package main

import (
	"os"
	"strings"
	"testing"
)

// selectorSites is darwin code that sends selectors the ways the app does:
// darwinkit wrappers, a user class, and classes darwinkit does not generate
// (named in comments). Every site is right.
const selectorSites = `//go:build darwin

package sites

import (
	"unsafe"

	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"
)

type BoardView struct {
	appkit.View ` + "`objc:\"NSView\"`" + `
}

func (v BoardView) DrawRect(dirty foundation.Rect) {}
func (v BoardView) IsFlipped() bool               { return true }
func (v BoardView) MouseDown(event appkit.Event)  {}

func Register() objc.UserClass[BoardView] {
	return objc.NewClass[BoardView](objc.Sel("drawRect:"), objc.Sel("isFlipped"), objc.Sel("mouseDown:"))
}

func Sites(view appkit.View, svc objc.Object, cls objc.Class) {
	objc.Call[objc.Void](view, objc.Sel("setNeedsDisplay:"), true)
	_ = objc.Call[objc.Object](Register().Class, objc.Sel("alloc")) // objc:+BoardView
	_ = objc.Call[int](svc, objc.Sel("status"))                     // objc:SMAppService
	_ = objc.Call[objc.Object](cls, objc.Sel("mainAppService"))     // objc:+SMAppService
	var nsErr foundation.Error
	_ = objc.Call[bool](svc, objc.Sel("registerAndReturnError:"), unsafe.Pointer(&nsErr)) // objc:SMAppService
}
`

// TestSelectorCheckCatchesWhatTypeCheckingCannot plants the mistakes the
// review found possible: each type-checks (make check-darwin passes), and
// each is flagged by the selector check, at its line.
func TestSelectorCheckCatchesWhatTypeCheckingCannot(t *testing.T) {
	t.Parallel()
	goSum, err := os.ReadFile("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	planted := []struct{ from, to, want string }{
		{`objc.Sel("setNeedsDisplay:"), true)`, `objc.Sel("setNeedDisplay:"), true)`,
			`selector "setNeedDisplay:" is not an instance method of NSView`},
		{`objc.Call[objc.Void](view, objc.Sel("setNeedsDisplay:"), true)`, `objc.Call[objc.Void](view, objc.Sel("setNeedsDisplay:"))`,
			`selector "setNeedsDisplay:" of NSView takes 1 arguments, 0 passed`},
		{`objc.Sel("setNeedsDisplay:"), true)`, `objc.Sel("setNeedsDisplay:"), "yes")`,
			`argument 1 of "setNeedsDisplay:" on NSView is id, the method takes bool`},
		{`_ = objc.Call[int](svc, objc.Sel("status"))`, `_ = objc.Call[bool](svc, objc.Sel("status"))`,
			`objc.Call[bool] for "status" on SMAppService: the method returns i64, not bool`},
		{`_ = objc.Call[objc.Object](cls, objc.Sel("mainAppService"))     // objc:+SMAppService`, `_ = objc.Call[objc.Object](cls, objc.Sel("mainAppService"))     // objc:SMAppService`,
			`selector "mainAppService" is not an instance method of SMAppService`},
		{`objc.Sel("mouseDown:"))`, `objc.Sel("mouseDown:"), objc.Sel("mouseUp:"))`,
			`objc.NewClass[BoardView]: BoardView has no method MouseUp of its own for selector "mouseUp:"`},
		{`objc.Sel("mouseDown:"))`, `objc.Sel("mouseDown:"), objc.Sel("mouseDragged"))`,
			`objc.NewClass[BoardView]: BoardView has no method MouseDragged`},
		{`func (v BoardView) IsFlipped() bool               { return true }`, `func (v BoardView) IsFlipped() int                { return 1 }`,
			`objc.NewClass[BoardView]: IsFlipped returns i64, NSView's "isFlipped" returns bool`},
		{`unsafe.Pointer(&nsErr)) // objc:SMAppService`, `unsafe.Pointer(&nsErr))`,
			`objc.Call "registerAndReturnError:": the receiver's type objc.Object does not say which class it is`},
		{`_ = objc.Call[int](svc, objc.Sel("status"))`, `sel := "status"; _ = objc.Call[int](svc, objc.Sel(sel))`,
			`objc.Call with a selector that is not an objc.Sel string literal`},
	}
	files := map[string]string{
		"go.mod":               "module example.com/m\n\ngo 1.26\n\nrequire github.com/progrium/darwinkit v0.5.0\n",
		"go.sum":               string(goSum),
		"good/sites_darwin.go": selectorSites,
	}
	for i, p := range planted {
		if !strings.Contains(selectorSites, p.from) {
			t.Fatalf("planted %d: %q is not in the sites", i, p.from)
		}
		files["bad"+string(rune('a'+i))+"/sites_darwin.go"] = strings.Replace(selectorSites, p.from, p.to, 1)
	}
	dir := writeModule(t, files)

	// make check-darwin: every planted mistake type-checks.
	results, err := Check(dir, []string{"arm64"}, Options{Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range results[0].Problems {
		t.Errorf("the type check flags a planted mistake, so it would not need the selector check: %v", p)
	}

	results, err = Check(dir, []string{"arm64"}, Options{Tests: true, Selectors: true})
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	if r.IndexedClasses < 1500 || r.IndexedMethods < 20000 {
		t.Errorf("index of %d classes, %d selectors: darwinkit was not indexed", r.IndexedClasses, r.IndexedMethods)
	}
	byPkg := map[string][]string{}
	for _, p := range r.Problems {
		pkg, _, _ := strings.Cut(p.Pos, "/")
		byPkg[pkg] = append(byPkg[pkg], p.Msg)
	}
	if len(byPkg["good"]) > 0 {
		t.Errorf("problems in correct code: %q", byPkg["good"])
	}
	for i, p := range planted {
		pkg := "bad" + string(rune('a'+i))
		if got := strings.Join(byPkg[pkg], "\n"); !strings.Contains(got, p.want) {
			t.Errorf("planted %d (%s): want %q, got:\n%s", i, p.to, p.want, got)
		}
	}
	if r.SelectorSites < 10*8 {
		t.Errorf("only %d call sites checked", r.SelectorSites)
	}
}

func TestManifestLinesCiteAHeader(t *testing.T) {
	for _, bad := range []string{
		"+ SMAppService mainAppService () -> id",                // no citation
		"+ SMAppService mainAppService () -> id # see the docs", // no header
		"- SMAppService status (i64) -> i64 # SMAppService.h",   // one colon-less selector, one argument
		"? SMAppService status () -> i64 # SMAppService.h",
	} {
		if err := readManifest(newObjcIndex(), []byte(bad)); err == nil {
			t.Errorf("manifest line accepted: %q", bad)
		}
	}
	if err := readManifest(newObjcIndex(), selectorsManifest); err != nil {
		t.Fatalf("the checked-in manifest: %v", err)
	}
}

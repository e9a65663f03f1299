package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// writeModule lays out a throw-away module: files maps slash paths to
// contents; a go.mod is added unless files has one.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if _, ok := files["go.mod"]; !ok {
		files["go.mod"] = "module example.com/m\n\ngo 1.26\n"
	}
	for name, body := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runChecker(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func checkBoth(t *testing.T, dir string, opts Options) []*Result {
	t.Helper()
	results, err := Check(dir, []string{"arm64", "amd64"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return results
}

func problemsIn(results []*Result, arch string) []Problem {
	for _, r := range results {
		if r.Arch == arch {
			return r.Problems
		}
	}
	return nil
}

const portable = `package clock

// Ticks is built everywhere.
func Ticks() int { return 1 }
`

func TestPlantedErrorInDarwinFileFails(t *testing.T) {
	t.Parallel()
	broken := writeModule(t, map[string]string{
		"clock/clock.go": portable,
		"clock/clock_darwin.go": `package clock

func Native() int { return "not an int" }
`,
	})
	code, _, stderr := runChecker(t, "-C", broken)
	if code != 1 {
		t.Fatalf("exit code %d on a broken _darwin.go file, want 1; stderr:\n%s", code, stderr)
	}
	for _, arch := range []string{"arm64", "amd64"} {
		want := "darwin/" + arch + ": clock/clock_darwin.go:3:28: cannot use \"not an int\""
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	fixed := writeModule(t, map[string]string{
		"clock/clock.go": portable,
		"clock/clock_darwin.go": `package clock

func Native() int { return Ticks() * 2 }
`,
	})
	if code, stdout, stderr := runChecker(t, "-C", fixed); code != 0 {
		t.Fatalf("exit code %d on a correct module; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	} else if !strings.Contains(stdout, "darwin/arm64: ok") || !strings.Contains(stdout, "darwin/amd64: ok") {
		t.Errorf("summary does not say both arches are ok:\n%s", stdout)
	}
}

// A file that only builds for darwin is invisible to every Linux tool: go
// vet passes while the checker fails. An arch-specific file fails only its
// arch, which shows each arch is checked with its own file set.
func TestCatchesErrorsLinuxToolsCannotSee(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"clock/clock.go": portable,
		"clock/tagged.go": `//go:build darwin

package clock

var tagged string = Ticks()
`,
		"clock/clock_darwin_amd64.go": `package clock

func intelOnly() { undefinedOnIntel() }
`,
	})
	vet := exec.Command("go", "vet", "./...")
	vet.Dir = dir
	vet.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64")
	if out, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet for linux should pass (it never reads darwin files): %v\n%s", err, out)
	}

	results := checkBoth(t, dir, Options{})
	arm, amd := problemsIn(results, "arm64"), problemsIn(results, "amd64")
	if len(arm) != 1 || !strings.HasPrefix(arm[0].Pos, "clock/tagged.go:5:") {
		t.Errorf("darwin/arm64 problems = %v, want only the one in clock/tagged.go", arm)
	}
	if len(amd) != 2 {
		t.Fatalf("darwin/amd64 problems = %v, want tagged.go and clock_darwin_amd64.go", amd)
	}
	var sawIntel bool
	for _, p := range amd {
		if strings.HasPrefix(p.Pos, "clock/clock_darwin_amd64.go:3:") && strings.Contains(p.Msg, "undefined: undefinedOnIntel") {
			sawIntel = true
		}
	}
	if !sawIntel {
		t.Errorf("darwin/amd64 problems %v lack the one in clock_darwin_amd64.go", amd)
	}
}

func TestChecksDarwinTestFiles(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{
		"clock/clock.go": portable,
		"clock/clock_darwin_test.go": `package clock

import "testing"

func TestNative(t *testing.T) { t.Log(Ticks() + "s") }
`,
	})
	code, _, stderr := runChecker(t, "-C", dir)
	if code != 1 || !strings.Contains(stderr, "clock/clock_darwin_test.go:5:") {
		t.Errorf("exit code %d, stderr:\n%s\nwant a failure in clock_darwin_test.go", code, stderr)
	}
	if code, _, stderr := runChecker(t, "-C", dir, "-test=false"); code != 0 {
		t.Errorf("with -test=false the test file is not checked, yet exit code %d:\n%s", code, stderr)
	}
}

// FakeImportC gives every C.xxx an invalid type, about which go/types stays
// silent. Such silence inside a dependency must not fail the check, a real
// error in our code must, even in a cgo file, and a use of a dependency's
// C-typed API in our code is reported rather than passed unchecked.
func TestFakedCgoInDependenciesAndOwnCode(t *testing.T) {
	t.Parallel()
	dep := writeModule(t, map[string]string{
		"go.mod": "module example.com/dep\n\ngo 1.26\n",
		"native/native.go": `package native

// #include <stdint.h>
// static int32_t answer(void) { return 42; }
import "C"

func Answer() int { return int(C.answer()) }

// Raw leaks a C type into its signature.
func Raw() C.int32_t { return C.answer() }

// Broken is a genuine error in a dependency's declaration.
var Broken int = "forty-two"
`,
	})
	ownCgo := `package app

// #include <stdlib.h>
import "C"

import (
	"unsafe"

	"example.com/dep/native"
)

func Free(p unsafe.Pointer) { C.free(p) }

func Twice() int { return native.Answer() * 2 }
`
	mod := "module example.com/m\n\ngo 1.26\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => " + dep + "\n"

	clean := writeModule(t, map[string]string{"go.mod": mod, "app/app_darwin.go": ownCgo})
	for _, r := range checkBoth(t, clean, Options{}) {
		if len(r.Problems) != 0 {
			t.Errorf("darwin/%s: problems in a correct module: %v", r.Arch, r.Problems)
		}
		var sawBroken bool
		for _, p := range r.IgnoredDepErrors {
			sawBroken = sawBroken || strings.Contains(p.Msg, `"forty-two"`)
		}
		if !sawBroken {
			t.Errorf("darwin/%s: the dependency's own error was not seen (ignored: %v)", r.Arch, r.IgnoredDepErrors)
		}
	}

	broken := writeModule(t, map[string]string{
		"go.mod":            mod,
		"app/app_darwin.go": ownCgo + "\nfunc Wrong() string { return Twice() }\n",
		"app/raw_darwin.go": "package app\n\nimport \"example.com/dep/native\"\n\nfunc RawTwice() int { return native.Raw() * 2 }\n",
	})
	for _, r := range checkBoth(t, broken, Options{}) {
		var sawWrong, sawBlind bool
		for _, p := range r.Problems {
			sawWrong = sawWrong || strings.HasPrefix(p.Pos, "app/app_darwin.go:16:") && strings.Contains(p.Msg, "cannot use Twice()")
			sawBlind = sawBlind || strings.HasPrefix(p.Pos, "app/raw_darwin.go:5:") && strings.Contains(p.Msg, "example.com/dep/native.Raw")
		}
		if !sawWrong || !sawBlind || len(r.Problems) != 2 {
			t.Errorf("darwin/%s: problems = %v, want the error in app_darwin.go:16 and the unchecked use in raw_darwin.go:5", r.Arch, r.Problems)
		}
	}
}

// The panel the app needs, written against the real darwinkit v0.5.0: the
// checker must accept it and catch wrong calls into darwinkit.
const darwinkitPanel = `package panel

import (
	"unsafe"

	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"
)

// board is retained for the app's lifetime.
var board appkit.Panel

// BoardView is rebuilt from the object pointer on every call: no Go fields,
// which the array index below enforces at compile time.
type BoardView struct {
	appkit.View ` + "`objc:\"NSView\"`" + `
}

var _ = [1]struct{}{}[unsafe.Sizeof(BoardView{})-unsafe.Sizeof(unsafe.Pointer(nil))]

func (v BoardView) DrawRect(dirty foundation.Rect) {
	appkit.GraphicsContext_CurrentContext().SetShouldAntialias(false)
	appkit.Color_ColorWithSRGBRedGreenBlueAlpha(1, 0.7, 0.2, 1).SetFill()
	appkit.BezierPath_FillRect(v.Bounds())
}

func (v BoardView) MouseDown(event appkit.Event) {
	_ = v.ConvertPointFromView(event.LocationInWindow(), nil)
}

var boardViewClass = objc.NewClass[BoardView](objc.Sel("drawRect:"), objc.Sel("mouseDown:"))

func Show() {
	board = appkit.NewPanelWithContentRectStyleMaskBackingDefer(
		foundation.Rect{Size: foundation.Size{Width: 240, Height: 96}},
		appkit.WindowStyleMaskBorderless|appkit.WindowStyleMaskNonactivatingPanel,
		appkit.BackingStoreBuffered, false)
	objc.Retain(&board)
	board.SetLevel(appkit.FloatingWindowLevel)
	board.SetCollectionBehavior(appkit.WindowCollectionBehaviorCanJoinAllSpaces |
		appkit.WindowCollectionBehaviorFullScreenAuxiliary |
		appkit.WindowCollectionBehaviorStationary |
		appkit.WindowCollectionBehaviorIgnoresCycle)
	board.SetHidesOnDeactivate(false)
	board.SetReleasedWhenClosed(false)
	board.SetContentView(appkit.ViewFrom(boardViewClass.CreateInstance(0).Ptr()).InitWithFrame(board.Frame()))
	board.OrderFrontRegardless()
}
`

func TestRealDarwinkitCode(t *testing.T) {
	t.Parallel()
	goSum, err := os.ReadFile("../../go.sum") // pins darwinkit v0.5.0
	if err != nil {
		t.Fatal(err)
	}
	mod := "module example.com/m\n\ngo 1.26\n\nrequire github.com/progrium/darwinkit v0.5.0\n"

	wrong := strings.NewReplacer(
		"board.SetLevel(appkit.FloatingWindowLevel)", `board.SetLevel("floating")`,
		"board.OrderFrontRegardless()", "board.OrderFrontRegardless(nil)",
		"board.SetHidesOnDeactivate(false)", "board.SetHidesWhenInactive(false)",
		"appkit.View `objc:\"NSView\"`", "appkit.View `objc:\"NSView\"`\n\tclicks int",
	).Replace(darwinkitPanel)
	// One module, a correct and a broken package: darwinkit is loaded once.
	dir := writeModule(t, map[string]string{
		"go.mod":               mod,
		"go.sum":               string(goSum),
		"good/panel_darwin.go": darwinkitPanel,
		"bad/panel_darwin.go":  wrong,
	})
	for _, r := range checkBoth(t, dir, Options{}) {
		if r.Packages < 10 {
			t.Errorf("darwin/%s: only %d packages checked; darwinkit was not loaded", r.Arch, r.Packages)
		}
		var bad []string
		for _, p := range r.Problems {
			if !strings.HasPrefix(p.Pos, "bad/") {
				t.Errorf("darwin/%s: problem in correct darwinkit code: %v", r.Arch, p)
			}
			bad = append(bad, p.String())
		}
		joined := strings.Join(bad, "\n")
		for _, want := range []string{
			`as appkit.WindowLevel value in argument to board.SetLevel`,
			`too many arguments in call to board.OrderFrontRegardless`,
			`board.SetHidesWhenInactive undefined`,
			`index 8 out of bounds`, // the Go field on the view
		} {
			if !strings.Contains(joined, want) {
				t.Errorf("darwin/%s: problems lack %q:\n%s", r.Arch, want, joined)
			}
		}
	}
}

func TestRejectsUnknownArch(t *testing.T) {
	t.Parallel()
	dir := writeModule(t, map[string]string{"clock/clock.go": portable})
	code, _, stderr := runChecker(t, "-C", dir, "-arch", "z80")
	if code != 2 || !strings.Contains(stderr, `unknown GOARCH "z80"`) {
		t.Errorf("exit code %d, stderr %q; want 2 and a clear message", code, stderr)
	}
}

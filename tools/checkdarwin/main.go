// Command checkdarwin type-checks every package of the module as it builds
// for macOS (darwin/arm64 and darwin/amd64), from Linux, with cgo faked.
//
// The macOS app cannot be compiled here (darwinkit needs cgo and the macOS
// SDK), and `GOOS=darwin go vet` refuses cgo packages, so without this a
// broken _darwin.go file would only show up on a Mac. It lists the packages
// with `go list -deps` for darwin, then checks them from source with go/types
// in dependency order, standard library included, with types.Config.FakeImportC
// standing in for cgo. See DEVELOPERS.md for what this proves and what not.
//
// Usage:
//
//	checkdarwin [-C dir] [-arch arm64,amd64] [-test=true] [-selectors] [-v] [packages]   (default ./...)
//
// It exits 1 when a package of the module has a type error for any arch.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"
)

func main() {
	// A short-lived run over ~300 packages: fewer collections save ~15% CPU
	// for ~40 MB more peak memory.
	debug.SetGCPercent(400)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("checkdarwin", flag.ContinueOnError)
	flags.SetOutput(stderr)
	dir := flags.String("C", ".", "directory of the module to check")
	archList := flags.String("arch", "arm64,amd64", "comma-separated darwin GOARCH values")
	tests := flags.Bool("test", true, "also check the module's _test.go files")
	verbose := flags.Bool("v", false, "also list dependency errors that were ignored, and timings")
	selectors := flags.Bool("selectors", false, "also check every selector objc.Call, objc.Sel and objc.NewClass send (first arch)")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	opts := Options{Patterns: flags.Args(), Tests: *tests, Selectors: *selectors}
	var arches []string
	for _, a := range strings.Split(*archList, ",") {
		if a = strings.TrimSpace(a); a != "" {
			arches = append(arches, a)
		}
	}
	if len(arches) == 0 {
		fmt.Fprintln(stderr, "checkdarwin: -arch names no architecture")
		return 2
	}

	results, err := Check(*dir, arches, opts)
	if err != nil {
		fmt.Fprintf(stderr, "checkdarwin: %v\n", err)
		return 2
	}
	failed := false
	for _, res := range results {
		for _, p := range res.Problems {
			fmt.Fprintf(stderr, "darwin/%s: %s\n", res.Arch, p)
		}
		if *verbose {
			for _, p := range res.IgnoredDepErrors {
				fmt.Fprintf(stderr, "darwin/%s: ignored (dependency): %s\n", res.Arch, p)
			}
		}
		status := "ok"
		if len(res.Problems) > 0 {
			failed = true
			status = fmt.Sprintf("%d error(s)", len(res.Problems))
		}
		fmt.Fprintf(stdout, "checkdarwin: darwin/%s: %s: %d module packages, %d packages checked, %d dependency errors ignored (%v)\n",
			res.Arch, status, res.ModulePackages, res.Packages, len(res.IgnoredDepErrors), res.Elapsed.Round(time.Millisecond))
		if res.IndexedClasses > 0 {
			fmt.Fprintf(stdout, "checkdarwin: selectors: %d call sites checked against %d classes, %d selectors (darwinkit + selectors.manifest) (%v)\n",
				res.SelectorSites, res.IndexedClasses, res.IndexedMethods, res.SelectorElapsed.Round(time.Millisecond))
		}
	}
	if failed {
		return 1
	}
	return 0
}

// Package archtest holds the layering rules of the module as a table and the
// check that enforces them (arch_test.go reads the real packages' imports
// from their source files, directly and through the module). The table
// is the executable half of ARCHITECTURE.md: a package that imports against
// the flow (an input importing the hook program, the read side importing an
// action) fails `go test ./internal/archtest`, which `make test` runs.
package archtest

import (
	"fmt"
	"sort"
	"strings"
)

// Layer names a step of the pipeline (ARCHITECTURE.md, "The pipeline").
type Layer string

const (
	Shared  Layer = "shared"  // vocabulary every layer may use: session, terminal, proctree, rules, internal/*
	Reducer Layer = "reducer" // pure: one agent event → the session's next state
	Store   Layer = "store"   // the write side: $MEW_HOME/sessions
	Hook    Layer = "hook"    // the hook program (agent event → reducer → store)
	Screen  Layer = "screen"  // the terminal emulator that reads agents' screens
	Input   Layer = "input"   // sources the monitor reads (registry, rollouts, tmux, process scan, remotes)
	Wrapper Layer = "wrapper" // `mew run`: a PTY relay that writes its screen's state to the store
	Read    Layer = "read"    // the monitor: identity, liveness, combine
	Show    Layer = "show"    // the platform-neutral board and the terminal board
	Action  Layer = "action"  // jump, answer, install (and their remote halves)
	Act     Layer = "act"     // board/act: one lookup and one action path for a session, for every board and command
	App     Layer = "app"     // the macOS panel and the web board
	Program Layer = "program" // commands and the demo: wiring, may use everything
	Test    Layer = "test"    // e2e suite, stand-ins, tools and packaging checks: outside the product
)

// Module is the module path every package path below is relative to.
const Module = "github.com/mew-dev/mew"

// Placement maps a package (relative to Module) to its layer. The longest
// matching prefix wins; a package that matches none is an error, so a new
// package must be placed here on purpose.
var Placement = map[string]Layer{
	"session":    Shared,
	"terminal":   Shared,
	"proctree":   Shared,
	"rules":      Shared,
	"assets":     Shared,
	"plugins":    Shared,
	"usage":      Shared,
	"internal":   Shared,
	"reducer":    Reducer,
	"store":      Store,
	"hookbin":    Hook,
	"screen":     Screen,
	"screen/run": Wrapper,
	"source":     Input,
	"monitor":    Read,
	// The identity model: when two observations are one session.
	"monitor/identity": Read,
	"board":            Show,
	"board/act":        Act,
	"notify":           Act, // the alert sinks: after the board decides, beside the jump it may run
	"jump":             Action,
	"answer":           Action,
	"install":          Action,
	"app":              App,
	"web":              App, // the web board (`mew serve`): a panel in a browser
	"cmd":              Program,
	"demo":             Program,
	"replay":           Program,
	"e2e":              Test,
	"tools":            Test,
	"packaging":        Test,

	// Test helpers that start the real programs or fake whole setups.
	"internal/sshtest":   Test,
	"internal/testbin":   Test,
	"internal/fakeagent": Test,
	"internal/fixture":   Test,
	"internal/archtest":  Test,
	// Drives a real Chromium for the web board's tests.
	"internal/browsertest": Test,
}

// MayImport says which layers each layer may import besides its own.
// Everything flows one way: inputs → store → read → show → act; the shared
// vocabulary is open to all.
var MayImport = map[Layer][]Layer{
	Shared:  {},
	Reducer: {Shared},
	Store:   {Shared},
	Hook:    {Shared, Reducer, Store},
	Screen:  {Shared},
	Input:   {Shared, Store, Screen},
	Wrapper: {Shared, Store, Screen},
	Read:    {Shared, Store, Screen, Input},
	Show:    {Shared, Read},
	Action:  {Shared, Reducer, Store, Screen, Input, Wrapper}, // the hook's command line: internal/hookcli
	Act:     {Shared, Input, Read, Show, Action},
	App:     {Shared, Store, Read, Show, Action, Input, Act},
	Program: {Shared, Reducer, Store, Hook, Screen, Input, Wrapper, Read, Show, Action, Act, App, Program},
	Test:    {Shared, Reducer, Store, Hook, Screen, Input, Wrapper, Read, Show, Action, Act, App, Program, Test},
}

// Pure packages decide and do nothing else: no files, processes, network
// or clock of their own, so their tests are tables. Their standard-library
// imports are checked against Impure.
var Pure = []string{"reducer", "monitor/combine", "monitor/identity", "board", "session"}

// Impure lists standard-library packages a pure package may not import.
var Impure = []string{"os", "os/exec", "os/signal", "net", "net/http", "syscall", "io/fs"}

// Unreachable lists standard-library packages no package a pure package
// depends on may import, however far down: a pure package may use a type
// that lives beside a reader (proctree's), but nothing it links starts a
// process, sends a signal or opens a connection.
var Unreachable = []string{"os/exec", "os/signal", "net", "net/http", "plugin"}

// CheckPureClosures returns one line per pure package that reaches an
// Unreachable package through the module's packages (imports maps every
// module package to its direct imports), naming the path to it.
func CheckPureClosures(imports map[string][]string) []string {
	var bad []string
	for _, rel := range Pure {
		from := Module + "/" + rel
		if _, ok := imports[from]; !ok {
			continue
		}
		// Breadth first, so the path named is a shortest one.
		via := map[string]string{from: ""}
		queue := []string{from}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, imp := range imports[p] {
				if contains(Unreachable, imp) {
					bad = append(bad, fmt.Sprintf("%s (pure) reaches %s through %s", rel, imp, chain(via, p)))
					continue
				}
				if _, ours := imports[imp]; ours {
					if _, seen := via[imp]; !seen {
						via[imp] = p
						queue = append(queue, imp)
					}
				}
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// chain is the path from a pure package to p, as module-relative names.
func chain(via map[string]string, p string) string {
	var path []string
	for ; p != ""; p = via[p] {
		path = append([]string{strings.TrimPrefix(p, Module+"/")}, path...)
	}
	return strings.Join(path, " → ")
}

// Forbidden narrows the table: from (a package or a prefix) may not import
// to, for the reason given. A To ending in "/*" means the packages strictly
// below it, not the package itself ("source/*": every concrete source, but
// not the interface in package source).
var Forbidden = []struct{ From, To, Why string }{
	{"monitor", "source/*", "the read side depends on the source interface only; cmd/mew wires the concrete sources"},
	{"monitor/liveness", "monitor/combine", "liveness owns its enum; combine reads liveness, not the reverse"},
	{"monitor/identity", "monitor/combine", "identity decides which observations are one session, before combine decides its state"},
	{"monitor/identity", "monitor/liveness", "identity is told which processes run; it reads no process table"},
	{"source", "source/remote", "remote hosts join after combine, in the monitor; no local source needs them"},
}

// Package is what the check needs to know of one package.
type Package struct {
	Path    string // import path
	Imports []string
}

// Place gives the layer of a package path (relative to Module).
func Place(rel string) (Layer, bool) {
	best, layer := -1, Layer("")
	for prefix, l := range Placement {
		if under(rel, prefix) && len(prefix) > best {
			best, layer = len(prefix), l
		}
	}
	return layer, best >= 0
}

func allowed(from, to Layer) bool {
	if from == to {
		return true
	}
	for _, l := range MayImport[from] {
		if l == to {
			return true
		}
	}
	return false
}

// Check returns one line per broken rule, sorted: a package no layer
// holds, an import against the table, an impure import of a pure package.
func Check(pkgs []Package) []string {
	var bad []string
	for _, p := range pkgs {
		rel, ok := strings.CutPrefix(p.Path, Module+"/")
		if !ok {
			continue
		}
		from, ok := Place(rel)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: in no layer: place it in internal/archtest.Placement", rel))
			continue
		}
		pure := contains(Pure, rel)
		for _, imp := range p.Imports {
			if pure && contains(Impure, imp) {
				bad = append(bad, fmt.Sprintf("%s (pure) imports %s", rel, imp))
			}
			irel, ok := strings.CutPrefix(imp, Module+"/")
			if !ok {
				continue
			}
			to, ok := Place(irel)
			if !ok {
				continue // reported as its own package
			}
			if !allowed(from, to) {
				bad = append(bad, fmt.Sprintf("%s (%s) imports %s (%s): %s may import only %v", rel, from, irel, to, from, MayImport[from]))
			}
			for _, f := range Forbidden {
				if under(rel, f.From) && under(irel, f.To) && !under(rel, f.To) {
					bad = append(bad, fmt.Sprintf("%s imports %s: %s", rel, irel, f.Why))
				}
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// under says whether rel is prefix or below it; a prefix ending in "/*"
// takes only what is strictly below.
func under(rel, prefix string) bool {
	if p, ok := strings.CutSuffix(prefix, "/*"); ok {
		return strings.HasPrefix(rel, p+"/")
	}
	return rel == prefix || strings.HasPrefix(rel, prefix+"/")
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

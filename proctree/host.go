package proctree

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// HostApp is the GUI application a process runs under: the application the
// person sees, found from the process tree (never from inherited
// environment variables, which an IDE started from a terminal carries over).
type HostApp struct {
	Pid      int    // the process that belongs to the application
	Exe      string // its executable
	AppPath  string // the application bundle; "" for a known helper outside any bundle
	BundleID string
}

// ErrNoHost means no process above the given one belongs to an application.
var ErrNoHost = errors.New("no application above the process")

// ErrProcessReplaced means the pid now belongs to another process than the
// one recorded (the recorded one exited and the pid was reused).
var ErrProcessReplaced = errors.New("the recorded process has exited and its pid was reused")

// AppBundles returns the directories ending in ".app" that exe lies in,
// outermost first: for helpers inside an application (VS Code's
// "Code Helper.app" inside "Visual Studio Code.app") the outermost one is the
// application the person sees.
func AppBundles(exe string) []string {
	if !strings.HasPrefix(exe, "/") || !strings.Contains(exe, ".app/") {
		return nil
	}
	var out []string
	for i := 0; i < len(exe); {
		j := strings.Index(exe[i:], ".app/")
		if j < 0 {
			break
		}
		end := i + j + len(".app")
		// A bundle is a whole path component ending in ".app", not "x.apps".
		if name := filepath.Base(exe[:end]); name != ".app" {
			out = append(out, exe[:end])
		}
		i = end + 1
	}
	return out
}

// OutermostApp is the outermost ".app" directory exe lies in, or "": a guess
// from the path alone, cheap enough for the hook. HostInChain confirms it by
// reading the bundle.
func OutermostApp(exe string) string {
	if b := AppBundles(exe); len(b) > 0 {
		return b[0]
	}
	return ""
}

// knownHelpers are programs outside any bundle that stand for an
// application: iTerm2 (3.5+) runs every session under a detached
// "iTermServer-<version>" daemon whose parent is launchd, so the app itself is
// not among the session's ancestors.
var knownHelpers = []struct{ prefix, bundleID string }{
	{"iTermServer", "com.googlecode.iterm2"},
}

func knownHelper(p Proc) string {
	for _, h := range knownHelpers {
		if strings.HasPrefix(filepath.Base(p.Exe), h.prefix) || (p.Exe == "" && strings.HasPrefix(p.Name, h.prefix)) {
			return h.bundleID
		}
	}
	return ""
}

// HostInChain finds the host in chain, a process followed by its ancestors
// (nearest first): the nearest process whose executable lies in an
// application bundle, judged by that bundle's Info.plist (readBundleID
// returns its CFBundleIdentifier, or an error when the directory is not a
// bundle). Within one executable path the outermost real bundle wins.
func HostInChain(chain []Proc, readBundleID func(appPath string) (string, error)) (HostApp, error) {
	for _, p := range chain {
		for _, app := range AppBundles(p.Exe) {
			id, err := readBundleID(app)
			if err != nil || id == "" {
				continue // a directory named *.app that is not a bundle
			}
			return HostApp{Pid: p.Pid, Exe: p.Exe, AppPath: app, BundleID: id}, nil
		}
		if id := knownHelper(p); id != "" {
			return HostApp{Pid: p.Pid, Exe: p.Exe, BundleID: id}, nil
		}
	}
	return HostApp{}, ErrNoHost
}

// Chain returns pid's process followed by its ancestors, nearest first, up
// to (not including) pid 1. A parent that started after its child is not
// the child's parent but a later process that got the pid: the walk stops
// there rather than wander into an unrelated tree.
func Chain(t Table, pid int) ([]Proc, error) {
	p, err := t.Get(pid)
	if err != nil {
		return nil, err
	}
	out := []Proc{p}
	for range maxDepth {
		if p.PPid <= 1 || p.PPid == p.Pid {
			break
		}
		parent, err := t.Get(p.PPid)
		if err != nil {
			break
		}
		if parent.StartMs != 0 && p.StartMs != 0 && parent.StartMs > p.StartMs+startTolerance {
			break
		}
		out = append(out, parent)
		p = parent
	}
	return out, nil
}

// startTolerance absorbs rounding between sources of start times.
const startTolerance = 1000

// Host walks the live process table from pid up and returns its host.
func Host(t Table, pid int, readBundleID func(appPath string) (string, error)) (HostApp, error) {
	chain, err := Chain(t, pid)
	if err != nil {
		return HostApp{}, fmt.Errorf("process %d: %w", pid, err)
	}
	return HostInChain(chain, readBundleID)
}

// HostOfProcess is Host for a recorded process: it refuses a pid that now
// belongs to another process (startMs differs), whose tree says nothing
// about the recorded one.
func HostOfProcess(t Table, pid int, startMs int64, readBundleID func(appPath string) (string, error)) (HostApp, error) {
	alive, err := SameProcess(t, pid, startMs)
	if err != nil {
		return HostApp{}, err
	}
	if !alive {
		return HostApp{}, ErrProcessReplaced
	}
	return Host(t, pid, readBundleID)
}

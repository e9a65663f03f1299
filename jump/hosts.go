package jump

import (
	"path/filepath"
	"strings"

	"github.com/mew-dev/mew/terminal/termid"
)

// Kind is how Mew can reach into a host application.
type Kind string

const (
	KindTerminal Kind = "terminal" // Terminal.app: AppleScript tab by tty
	KindITerm    Kind = "iterm2"   // AppleScript session by unique ID or tty
	KindGhostty  Kind = "ghostty"  // AppleScript (1.3+) terminal by tty or working directory
	KindWezTerm  Kind = "wezterm"  // wezterm cli activate-pane
	KindKitty    Kind = "kitty"    // kitten @ focus-window
	KindWarp     Kind = "warp"     // its WARP_FOCUS_URL (Warp v0.2026.05.27+)
	KindVSCode   Kind = "vscode"   // VS Code and its forks: the window of a folder
	KindApp      Kind = "app"      // anything else: bring the application forward
)

// editor is one product of the VS Code family: its name and the folder of
// its user data (where globalStorage/storage.json lists the open folders).
type editor struct{ name, dataDir string }

var editors = map[string]editor{
	"com.microsoft.VSCode":          {"Visual Studio Code", "Code"},
	"com.microsoft.VSCodeInsiders":  {"Visual Studio Code - Insiders", "Code - Insiders"},
	"com.todesktop.230313mzl4w4u92": {"Cursor", "Cursor"},
	"com.exafunction.windsurf":      {"Windsurf", "Windsurf"},
	"com.vscodium":                  {"VSCodium", "VSCodium"},
}

// hostNames: the names a person knows terminals by (shared with the
// rows' place, board.Where).
var hostNames = termid.AppNames

// KindOf classifies a host by its bundle identifier (macOS).
func KindOf(bundleID string) Kind {
	switch bundleID {
	case "com.apple.Terminal":
		return KindTerminal
	case "com.googlecode.iterm2":
		return KindITerm
	case "com.mitchellh.ghostty":
		return KindGhostty
	case "com.github.wez.wezterm":
		return KindWezTerm
	case "net.kovidgoyal.kitty":
		return KindKitty
	case "dev.warp.Warp-Stable", "dev.warp.Warp-Preview":
		return KindWarp
	}
	if _, ok := editors[bundleID]; ok {
		return KindVSCode
	}
	return KindApp
}

// linuxTerminals are the terminal programs Mew can reach into on Linux,
// known by their executable's name (Linux has no bundles).
var linuxTerminals = map[string]Kind{
	"wezterm-gui": KindWezTerm,
	"kitty":       KindKitty,
}

// KindOfExe classifies a Linux process by its executable name; "" when Mew
// cannot reach into it.
func KindOfExe(exe string) Kind { return linuxTerminals[filepath.Base(exe)] }

// hostName is what messages call the host.
func hostName(h Host) string {
	if n, ok := hostNames[h.BundleID]; ok {
		return n
	}
	if e, ok := editors[h.BundleID]; ok {
		return e.name
	}
	if h.AppPath != "" {
		return strings.TrimSuffix(filepath.Base(h.AppPath), ".app")
	}
	if h.Exe != "" {
		return filepath.Base(h.Exe)
	}
	if termid.ValidBundleID(h.BundleID) {
		return h.BundleID
	}
	return "the terminal"
}

// termPrograms maps $TERM_PROGRAM to the terminal's bundle id: how a zellij
// session's terminal is known on macOS, where no process tree leads from
// the zellij server to it. Only the app can be brought forward that way.
var termPrograms = termid.TermPrograms

// HostOfTermProgram is the host app $TERM_PROGRAM names, or nil.
func HostOfTermProgram(termProgram string) *Host {
	id, ok := termPrograms[termProgram]
	if !ok {
		return nil
	}
	return &Host{Kind: KindOf(id), BundleID: id}
}

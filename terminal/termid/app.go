package termid

import (
	"path/filepath"
	"strings"
)

// What the terminal app of a session is called, from what the agent's
// process shows of it: pure (a process's recorded environment and
// ancestors in, a name out), so that combine can name the app on a row
// (board.Where) with the same names jump's messages use.

// AppNames maps a terminal's bundle id (macOS) to the name a person
// knows it by.
var AppNames = map[string]string{
	"com.apple.Terminal":     "Terminal",
	"com.googlecode.iterm2":  "iTerm2",
	"com.mitchellh.ghostty":  "Ghostty",
	"com.github.wez.wezterm": "WezTerm",
	"net.kovidgoyal.kitty":   "kitty",
	"dev.warp.Warp-Stable":   "Warp",
	"dev.warp.Warp-Preview":  "Warp Preview",
	"dev.zed.Zed":            "Zed",
	"org.alacritty":          "Alacritty",
}

// TermPrograms maps $TERM_PROGRAM to the terminal's bundle id.
var TermPrograms = map[string]string{
	"Apple_Terminal": "com.apple.Terminal",
	"iTerm.app":      "com.googlecode.iterm2",
	"ghostty":        "com.mitchellh.ghostty",
	"WezTerm":        "com.github.wez.wezterm",
	"WarpTerminal":   "dev.warp.Warp-Stable",
	"kitty":          "net.kovidgoyal.kitty",
}

// exeNames are terminal programs known by their executable's name (Linux
// has no bundles): an ancestor of the agent's process.
var exeNames = map[string]string{
	"wezterm-gui":           "WezTerm",
	"kitty":                 "kitty",
	"ghostty":               "Ghostty",
	"alacritty":             "Alacritty",
	"gnome-terminal-server": "GNOME Terminal",
	"konsole":               "Konsole",
	"xfce4-terminal":        "Xfce Terminal",
	"foot":                  "foot",
	"xterm":                 "xterm",
	"iTerm2":                "iTerm2",
}

// App names the terminal app a session's process runs in ("iTerm2",
// "WezTerm"), from its environment (recorded by the hook or read by the
// process scan), its host app (bundleID, appPath) and its ancestors'
// executables, nearest first; and the app's own number for the pane when
// it numbers them ("pane 3", kitty's "window 2"). Both "" when nothing
// tells. Inside tmux the environment names tmux, not the outer app:
// callers say the tmux pane then.
func App(env map[string]string, bundleID, appPath string, exes []string) (app, pane string) {
	switch {
	case env["WEZTERM_PANE"] != "":
		app = "WezTerm"
		if ValidPaneNumber(env["WEZTERM_PANE"]) {
			pane = "pane " + env["WEZTERM_PANE"]
		}
	case env["KITTY_WINDOW_ID"] != "":
		app = "kitty"
		if ValidPaneNumber(env["KITTY_WINDOW_ID"]) {
			pane = "window " + env["KITTY_WINDOW_ID"]
		}
	case env["ITERM_SESSION_ID"] != "":
		app = "iTerm2"
	case env["GHOSTTY_SURFACE_ID"] != "":
		app = "Ghostty"
	case env["TERM_PROGRAM"] == "vscode":
		app = "VS Code" // and its forks: they all say vscode
	case TermPrograms[env["TERM_PROGRAM"]] != "":
		app = AppNames[TermPrograms[env["TERM_PROGRAM"]]]
	case AppNames[env["__CFBundleIdentifier"]] != "":
		app = AppNames[env["__CFBundleIdentifier"]]
	case AppNames[bundleID] != "":
		app = AppNames[bundleID]
	case ValidAppPath(appPath):
		app = strings.TrimSuffix(filepath.Base(appPath), ".app")
	default:
		for _, e := range exes {
			if n := exeNames[filepath.Base(e)]; n != "" {
				return n, ""
			}
		}
	}
	return app, pane
}

package termid

import "testing"

func TestAppNamesTheTerminal(t *testing.T) {
	cases := []struct {
		env             map[string]string
		bundle, appPath string
		exes            []string
		app, pane       string
	}{
		{env: map[string]string{"TERM_PROGRAM": "Apple_Terminal"}, app: "Terminal"},
		{env: map[string]string{"TERM_PROGRAM": "iTerm.app", "ITERM_SESSION_ID": "w0t0p0:x"}, app: "iTerm2"},
		{env: map[string]string{"TERM_PROGRAM": "WezTerm", "WEZTERM_PANE": "3"}, app: "WezTerm", pane: "pane 3"},
		{env: map[string]string{"WEZTERM_PANE": "3; rm -rf /"}, app: "WezTerm"},
		{env: map[string]string{"KITTY_WINDOW_ID": "2"}, app: "kitty", pane: "window 2"},
		{env: map[string]string{"TERM_PROGRAM": "ghostty"}, app: "Ghostty"},
		{env: map[string]string{"TERM_PROGRAM": "vscode"}, app: "VS Code"},
		{bundle: "com.apple.Terminal", app: "Terminal"},
		{appPath: "/Applications/Hyper.app", app: "Hyper"},
		{exes: []string{"/usr/bin/zsh", "/usr/bin/kitty"}, app: "kitty"},
		{env: map[string]string{"TERM_PROGRAM": "tmux"}, exes: []string{"/usr/bin/tmux"}},
		{},
	}
	for _, c := range cases {
		app, pane := App(c.env, c.bundle, c.appPath, c.exes)
		if app != c.app || pane != c.pane {
			t.Errorf("App(%v, %q, %q, %v) = %q, %q; want %q, %q", c.env, c.bundle, c.appPath, c.exes, app, pane, c.app, c.pane)
		}
	}
}

package terminal

import (
	"strings"
	"testing"

	"github.com/mew-dev/mew/proctree"
)

// guid is an iTerm2 session GUID of the right shape.
const guid = "6A3C1E2F-0B4D-4C5E-9F60-7A8B9C0D1E2F"

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// Env keeps the listed variables only, and only plain, bounded values.
func TestEnvKeepsPlainTerminalVariables(t *testing.T) {
	env, tm := Env(envOf(map[string]string{
		"TERM_PROGRAM":     "iTerm.app",
		"ITERM_SESSION_ID": "w0t1p0:" + guid,
		"TMUX":             "/private/tmp/tmux-501/default,777,0",
		"TMUX_PANE":        "%5",
		"WEZTERM_PANE":     "7\x1b[2J", // a control character: dropped
		"KITTY_WINDOW_ID":  strings.Repeat("1", maxEnvValue+1),
		"HOME":             "/Users/dev", // not a terminal's: never kept
		RunTtyEnv:          "/dev/ttys004",
	}))
	want := map[string]string{
		"TERM_PROGRAM": "iTerm.app", "ITERM_SESSION_ID": "w0t1p0:" + guid,
		"TMUX": "/private/tmp/tmux-501/default,777,0", "TMUX_PANE": "%5", RunTtyEnv: "/dev/ttys004",
	}
	if len(env) != len(want) {
		t.Errorf("env = %v, want %v", env, want)
	}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("%s = %q, want %q", k, env[k], v)
		}
	}
	if tm == nil || tm.Socket != "/private/tmp/tmux-501/default" || tm.ServerPid != 777 || tm.Pane != "%5" {
		t.Errorf("tmux = %+v", tm)
	}
	if _, tm := Env(envOf(nil)); tm != nil {
		t.Errorf("no $TMUX: tmux = %+v", tm)
	}
}

type procs map[int]proctree.Proc

func (p procs) Get(pid int) (proctree.Proc, error) {
	if x, ok := p[pid]; ok {
		return x, nil
	}
	return proctree.Proc{}, proctree.ErrNoProcess
}

func TestDescribeAgent(t *testing.T) {
	table := procs{
		30: {Pid: 30, PPid: 20, Name: "claude", StartMs: 1234},
		20: {Pid: 20, PPid: 10, Name: "zsh", Exe: "/bin/zsh"},
		10: {Pid: 10, PPid: 1, Name: "iTerm2", Exe: "/Applications/iTerm.app/Contents/MacOS/iTerm2"},
	}
	getenv := envOf(map[string]string{"TERM_PROGRAM": "iTerm.app", "CLAUDE_CODE_ENTRYPOINT": "sdk-ts"})
	p := DescribeAgent(table[30], table, getenv, func(pid int) (string, error) { return "/dev/ttys003", nil })
	if p.Pid != 30 || p.StartMs != 1234 || p.Name != "claude" || p.Tty != "/dev/ttys003" || !p.Headless {
		t.Errorf("process = %+v", p)
	}
	if len(p.Ancestors) != 2 || p.Ancestors[1].Pid != 10 {
		t.Errorf("ancestors = %+v", p.Ancestors)
	}
	if p.Host == nil || p.Host.AppPath != "/Applications/iTerm.app" || p.Host.Pid != 10 {
		t.Errorf("host = %+v", p.Host)
	}
	if p.Env["TERM_PROGRAM"] != "iTerm.app" {
		t.Errorf("env = %v", p.Env)
	}
	// A zero agent: the environment only.
	p = DescribeAgent(proctree.Proc{}, table, envOf(map[string]string{"CLAUDE_CODE_SESSION_ATTENDED": "1", "CLAUDE_CODE_ENTRYPOINT": "sdk-ts"}), nil)
	if p.Pid != 0 || p.Ancestors != nil || p.Headless {
		t.Errorf("zero agent: %+v", p)
	}
}

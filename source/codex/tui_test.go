package codex

import (
	"testing"
	"time"

	"github.com/mew-dev/mew/source/procscan"
)

func TestAsUI(t *testing.T) {
	native := "/x/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
	cases := []struct {
		name       string
		p          procscan.Proc
		ok         bool
		dir, resum string
	}{
		{"TUI", procscan.Proc{Name: "codex", Args: []string{native}, Tty: "/dev/pts/2", Cwd: "/p"}, true, "/p", ""},
		{"TUI with a prompt", procscan.Proc{Name: "codex", Args: []string{native, "please mew-shell"}, Tty: "/dev/pts/2", Cwd: "/p"}, true, "/p", ""},
		{"TUI in another dir", procscan.Proc{Name: "codex", Args: []string{native, "-c", "model=o3", "--cd", "sub", "hi"}, Tty: "/dev/pts/2", Cwd: "/p"}, true, "/p/sub", ""},
		{"-C=abs", procscan.Proc{Name: "codex", Args: []string{native, "-C=/q"}, Tty: "/dev/pts/2", Cwd: "/p"}, true, "/q", ""},
		{"resume", procscan.Proc{Name: "codex", Args: []string{native, "resume", sid}, Tty: "/dev/pts/2", Cwd: "/p"}, true, "/p", sid},
		{"exec", procscan.Proc{Name: "codex", Args: []string{native, "exec", "do it"}, Tty: "/dev/pts/2", Cwd: "/p"}, true, "/p", ""},
		{"a flag's value is not a subcommand", procscan.Proc{Name: "codex", Args: []string{native, "-m", "login"}, Tty: "/dev/pts/2", Cwd: "/p"}, true, "/p", ""},
		{"login", procscan.Proc{Name: "codex", Args: []string{native, "login"}, Tty: "/dev/pts/2", Cwd: "/p"}, false, "", ""},
		{"daemon", procscan.Proc{Name: "codex", Args: []string{native, "app-server", "--listen", "unix://", "--managed-daemon"}, Cwd: "/p"}, false, "", ""},
		{"no terminal", procscan.Proc{Name: "codex", Args: []string{native}, Cwd: "/p"}, false, "", ""},
		{"the node wrapper", procscan.Proc{Name: "node", Args: []string{"node", "/x/bin/codex"}, Tty: "/dev/pts/2", Cwd: "/p"}, false, "", ""},
	}
	for _, c := range cases {
		u, ok := AsUI(c.p)
		if ok != c.ok || (ok && (u.Dir != c.dir || u.Resume != c.resum)) {
			t.Errorf("%s: %+v %v, want ok=%v dir %q resume %q", c.name, u, ok, c.ok, c.dir, c.resum)
		}
		if u.Resuming {
			t.Errorf("%s: resuming", c.name)
		}
	}
	for _, args := range [][]string{{native, "resume", "--last"}, {native, "--cd", "/p", "resume"}, {native, "resume", "--last", "go on"}} {
		if u, ok := AsUI(procscan.Proc{Name: "codex", Args: args, Tty: "/dev/pts/2", Cwd: "/p"}); !ok || !u.Resuming || u.Resume != "" {
			t.Errorf("%v: %+v %v, want a TUI resuming an unnamed session", args, u, ok)
		}
	}
}

func TestCreatedFromID(t *testing.T) {
	// The recorded b-approve session; its rollout file is named
	// rollout-2026-12-01T00-50-09-<id>.jsonl.
	if got := CreatedFromID(sid); !got.Equal(time.Date(2026, 12, 1, 0, 50, 9, 132e6, time.UTC)) {
		t.Errorf("CreatedFromID = %v", got)
	}
	for _, id := range []string{"", "not-a-uuid", "01a22f14-9a6c-46f1-9739-9d3cb1621146", "tmux:%12"} {
		if got := CreatedFromID(id); !got.IsZero() {
			t.Errorf("CreatedFromID(%q) = %v, want zero", id, got)
		}
	}
}

func TestAssign(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	ui := func(pid int, start float64, dir string) UI {
		return UI{Proc: procscan.Proc{Pid: pid, StartMs: at(start).UnixMilli()}, Dir: dir}
	}
	sess := func(id string, created float64, cwd string) Session {
		return Session{ID: id, Created: at(created), Cwd: cwd, Active: at(created + 1)}
	}
	active := func(s Session, last float64) Session { s.Active = at(last); return s }
	resuming := func(pid int, start float64, dir string) UI {
		u := ui(pid, start, dir)
		u.Resuming = true
		return u
	}
	cases := []struct {
		name     string
		sessions []Session
		uis      []UI
		want     map[string]int
	}{
		{"one directory each", []Session{sess("a", 2, "/p"), sess("b", 1, "/q")}, []UI{ui(1, 0, "/p"), ui(2, 0.5, "/q")}, map[string]int{"a": 0, "b": 1}},
		{"same directory: the first started TUI gets the first session", []Session{sess("b", 30, "/p"), sess("a", 20, "/p")}, []UI{ui(2, 10, "/p"), ui(1, 0, "/p")}, map[string]int{"a": 1, "b": 0}},
		{"a session created before the TUI started is not its", []Session{sess("old", 0, "/p")}, []UI{ui(1, 60, "/p")}, map[string]int{}},
		{"/new: the TUI shows the newer session, the older one's TUI is gone", []Session{sess("first", 1, "/p"), sess("second", 50, "/p")}, []UI{ui(1, 0, "/p")}, map[string]int{"second": 0}},
		{"its TUI exited", []Session{sess("a", 1, "/p")}, []UI{ui(1, 0, "/q")}, map[string]int{}},
		{"resume --last: the most recently active session of its folder, however old", []Session{active(sess("old", -7200, "/p"), -3000), active(sess("last", -3600, "/p"), -60), sess("elsewhere", -10, "/q")}, []UI{resuming(1, 0, "/p")}, map[string]int{"last": 0}},
		{"resume --last beside a TUI of the same folder: each its own", []Session{active(sess("last", -3600, "/p"), -60), sess("new", 3, "/p")}, []UI{ui(1, 2, "/p"), resuming(2, 0, "/p")}, map[string]int{"last": 1, "new": 0}},
		{"resume --last with no older session: a new one, as a fresh TUI", []Session{sess("new", 1, "/p")}, []UI{resuming(1, 0, "/p")}, map[string]int{"new": 0}},
		{"resume names its session", []Session{sess("a", 1, "/p"), sess("r", -3600, "/p")}, []UI{ui(1, 0, "/p"), {Proc: procscan.Proc{Pid: 2, StartMs: at(5).UnixMilli()}, Dir: "/p", Resume: "r"}}, map[string]int{"a": 0, "r": 1}},
	}
	for _, c := range cases {
		got := Assign(c.sessions, c.uis)
		if len(got) != len(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
			continue
		}
		for id, i := range c.want {
			if j, ok := got[id]; !ok || j != i {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}

package procscan

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
)

// fakeTable is a process table and the command lines of its processes.
type fakeTable struct {
	entries []entry
	argv    map[int][]string
	reads   map[int]int // command line reads by pid
}

func (f *fakeTable) source(book *rules.Book) *Source {
	f.reads = map[int]int{}
	return &Source{
		Rules: func() (*rules.Book, []error) { return book, nil },
		table: func() ([]entry, error) { return append([]entry(nil), f.entries...), nil },
		cmdline: func(pid int) ([]string, error) {
			f.reads[pid]++
			return f.argv[pid], nil
		},
		details: func(pid int) detail {
			return detail{tty: "/dev/pts/" + strings.Repeat("1", pid%3+1), tmux: &session.Tmux{Pane: "%7"}}
		},
		owner: func(int) int { return os.Getuid() },
	}
}

func byFallback(obs []source.Observation) map[string]source.Observation {
	m := map[string]source.Observation{}
	for _, o := range obs {
		m[o.Fallback] = o
	}
	return m
}

func TestPollFindsEveryAgentOnce(t *testing.T) {
	me := os.Getuid()
	f := &fakeTable{
		entries: []entry{
			{pid: 100, ppid: 1, name: "zsh", tty: true, uid: me},
			{pid: 101, ppid: 100, name: "claude", tty: true, uid: me, startMs: 5},
			{pid: 102, ppid: 100, name: "opencode", tty: true, uid: me},
			// Gemini CLI relaunches itself: two node processes.
			{pid: 103, ppid: 100, name: "node", tty: true, uid: me},
			{pid: 104, ppid: 103, name: "node", tty: true, uid: me},
			{pid: 105, ppid: 100, name: "amp", tty: true, uid: me},
			{pid: 106, ppid: 100, name: "codex", tty: true, uid: me},
			{pid: 107, ppid: 1, name: "codex", tty: false, uid: me}, // app-server daemon
			// Claude runs gemini through its Bash tool: a tool call, not a session.
			{pid: 108, ppid: 101, name: "bash", tty: true, uid: me},
			{pid: 109, ppid: 108, name: "node", tty: true, uid: me},
			{pid: 110, ppid: 1, name: "claude", tty: true, uid: me + 1}, // someone else's
			{pid: 111, ppid: 100, name: "claude", tty: true, uid: me, zombie: true},
			{pid: 112, ppid: 100, name: "node", tty: true, uid: me}, // some other node program
			{pid: 114, ppid: 1, name: "cline", tty: false, uid: me}, // Cline's hub daemon: terminal = true
			{pid: 113, ppid: 100, name: "vim", tty: true, uid: me},
		},
		argv: map[int][]string{
			101: {"claude"}, 102: {"/home/p/.npm/bin/opencode"},
			103: {"node", "/usr/local/bin/gemini"}, 104: {"/usr/bin/node", "--max-old-space-size=12052", "/usr/local/bin/gemini"},
			105: {"amp"}, 106: {"codex"}, 107: {"codex", "app-server", "--listen", "unix://"},
			109: {"node", "/usr/local/bin/gemini", "-p", "hi"}, 110: {"claude"}, 112: {"node", "server.js"}, 113: {"vim", "gemini.txt"},
			114: {"cline", "--cline-hub-daemon"},
		},
	}
	s := f.source(rules.Embedded())
	obs, err := s.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := byFallback(obs)
	want := map[string]string{"proc:101": "claude", "proc:102": "opencode", "proc:103": "gemini", "proc:105": "amp", "proc:106": "codex"}
	if len(got) != len(want) {
		t.Errorf("listed %v, want exactly %v", keys(got), want)
	}
	for id, agent := range want {
		o, ok := got[id]
		if !ok || o.Agent != agent || o.ID != "" {
			t.Errorf("%s: %+v, want agent %s, no id of its own (merged by process)", id, o, agent)
		}
	}
	c := got["proc:101"]
	if c.Process.Pid != 101 || c.Process.StartMs != 5 || c.Process.Tty == "" || c.Process.Tmux == nil || c.Process.Tmux.Pane != "%7" {
		t.Errorf("process of proc:101: %+v", c.Process)
	}
	// A second poll reads no command line again; an exec (the same pid,
	// another name) is looked at anew.
	reads := len(f.reads)
	s.Scan(context.Background())
	if n := sum(f.reads); n != reads {
		t.Errorf("a second poll read %d command lines, want none", n-reads)
	}
	f.entries[len(f.entries)-1].name = "opencode" // vim exec'd opencode
	f.argv[113] = []string{"opencode"}
	obs, _ = s.Scan(context.Background())
	if o, ok := byFallback(obs)["proc:113"]; !ok || o.Agent != "opencode" || f.reads[113] != 2 {
		t.Errorf("after exec: %+v, %d reads", o, f.reads[113])
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func sum(m map[int]int) (n int) {
	for _, v := range m {
		n += v
	}
	return n
}

// The real table: a program named like an agent is found, with its
// working directory, and forgotten when it ends.
func TestScanFindsARealProcess(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep(1)")
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, "opencode")
	data, _ := os.ReadFile(sleep)
	if err := os.WriteFile(fake, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(fake, "30")
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	s := New(func() (*rules.Book, []error) { return rules.Embedded(), nil })
	var found *source.Observation
	for range 100 {
		obs, err := s.Scan(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for i, o := range obs {
			if o.Process.Pid == cmd.Process.Pid {
				found = &obs[i]
			}
		}
		if found != nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if found == nil || found.Agent != session.AgentOpenCode || found.Process.Cwd != real || found.Process.StartMs == 0 || found.Process.Name != "opencode" {
		t.Fatalf("found %+v", found)
	}
	cmd.Process.Kill()
	cmd.Wait()
	obs, _ := s.Scan(context.Background())
	for _, o := range obs {
		if o.Process.Pid == cmd.Process.Pid {
			t.Fatal("a process that ended is still listed")
		}
	}
}

func TestWatchSendsOnlyChanges(t *testing.T) {
	f := &fakeTable{
		entries: []entry{{pid: 201, ppid: 1, name: "claude", tty: true, uid: -1}},
		argv:    map[int][]string{201: {"claude"}},
	}
	s := f.source(rules.Embedded())
	s.Poll = 10 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan []source.Observation, 16)
	go s.Watch(ctx, out)
	if first := <-out; len(first) != 1 {
		t.Fatalf("first send %v", first)
	}
	select {
	case again := <-out:
		t.Fatalf("sent an unchanged set again: %v", again)
	case <-time.After(100 * time.Millisecond):
	}
}

// A process whose owner cannot be read (Linux reads it for agents only) is
// not listed: this user's own processes are always readable, so it is
// another user's, or gone (issue 40: `mew status` listed other users'
// agents).
func TestUnreadableOwnerIsNotMine(t *testing.T) {
	me := os.Getuid()
	f := &fakeTable{
		entries: []entry{
			{pid: 100, ppid: 1, name: "zsh", tty: true, uid: me},
			{pid: 101, ppid: 100, name: "claude", tty: true, uid: -1},
			{pid: 102, ppid: 100, name: "codex", tty: true, uid: -1},
		},
		argv: map[int][]string{101: {"claude"}, 102: {"codex"}},
	}
	s := f.source(rules.Embedded())
	s.owner = func(pid int) int {
		if pid == 101 {
			return me
		}
		return -1
	}
	obs, err := s.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := byFallback(obs)
	if _, ok := got["proc:101"]; !ok || len(got) != 1 {
		t.Errorf("listed %v, want only proc:101 (the owner of 102 is unknown)", keys(got))
	}
}

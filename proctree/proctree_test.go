package proctree

import (
	"errors"
	"os"
	"testing"
)

type fakeTable map[int]Proc

func (f fakeTable) Get(pid int) (Proc, error) {
	if p, ok := f[pid]; ok {
		return p, nil
	}
	return Proc{}, ErrNoProcess
}

func TestAgentSkipsShells(t *testing.T) {
	tab := fakeTable{
		50: {Pid: 50, PPid: 40, Name: "mew-hook"},
		40: {Pid: 40, PPid: 30, Name: "sh"},
		30: {Pid: 30, PPid: 20, Name: "-zsh", Exe: "/bin/zsh"},
		20: {Pid: 20, PPid: 10, Name: "claude", StartMs: 1234},
		10: {Pid: 10, PPid: 1, Name: "login"},
	}
	a, err := Agent(tab, 50)
	if err != nil || a.Pid != 20 || a.StartMs != 1234 {
		t.Fatalf("agent = %+v, %v", a, err)
	}
	anc := Ancestors(tab, 20)
	if len(anc) != 1 || anc[0].Pid != 10 {
		t.Fatalf("ancestors = %+v", anc)
	}
}

func TestAgentFailures(t *testing.T) {
	if _, err := Agent(fakeTable{}, 5); !errors.Is(err, ErrNoProcess) {
		t.Fatalf("missing: %v", err)
	}
	onlyShells := fakeTable{5: {Pid: 5, PPid: 4}, 4: {Pid: 4, PPid: 1, Name: "bash"}}
	if _, err := Agent(onlyShells, 5); err == nil {
		t.Fatal("a shell directly under init is not an agent")
	}
	loop := fakeTable{5: {Pid: 5, PPid: 6, Name: "sh"}, 6: {Pid: 6, PPid: 5, Name: "sh"}}
	if _, err := Agent(loop, 5); err == nil {
		t.Fatal("a cycle must not loop forever")
	}
	if anc := Ancestors(loop, 5); len(anc) > maxDepth {
		t.Fatalf("ancestors of a cycle: %d", len(anc))
	}
}

func TestSameProcess(t *testing.T) {
	tab := fakeTable{7: {Pid: 7, StartMs: 10_000}}
	for _, c := range []struct {
		pid   int
		start int64
		want  bool
	}{{7, 10_000, true}, {7, 10_900, true}, {7, 12_000, false}, {8, 10_000, false}, {7, 0, true}} {
		if got, err := SameProcess(tab, c.pid, c.start); got != c.want || err != nil {
			t.Errorf("SameProcess(%d, %d) = %v %v", c.pid, c.start, got, err)
		}
	}
}

func TestLeanReadsThisProcess(t *testing.T) {
	p, err := Lean{WithExe: true}.Get(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	if p.PPid != os.Getppid() || p.Exe != exe || p.StartMs == 0 || p.StartTicks == 0 {
		t.Fatalf("%+v", p)
	}
	if ms, ok := TicksToUnixMs(p.StartTicks); !ok || ms != p.StartMs {
		t.Fatalf("ticks → %d, want %d", ms, p.StartMs)
	}
	if _, err := (Lean{}).Get(1 << 29); !errors.Is(err, ErrNoProcess) {
		t.Fatalf("missing pid: %v", err)
	}
	if tty, err := Tty(os.Getpid()); err != nil || (tty != "" && tty[:5] != "/dev/") {
		t.Fatalf("tty %q %v", tty, err)
	}
}

func TestIsShell(t *testing.T) {
	for name, want := range map[string]bool{"sh": true, "/bin/bash": true, "-zsh": true, "claude": false, "node": false, "": false} {
		if IsShell(name) != want {
			t.Errorf("IsShell(%q) != %v", name, want)
		}
	}
}

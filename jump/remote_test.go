package jump

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mew-dev/mew/proctree"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

func TestSSHDestination(t *testing.T) {
	cases := []struct {
		argv                   string
		user, host, port, rest string
		ok                     bool
	}{
		{"ssh devbox", "", "devbox", "", "", true},
		{"ssh me@devbox", "me", "devbox", "", "", true},
		{"ssh -p 2222 -i /k/id -A devbox tmux attach", "", "devbox", "2222", "tmux attach", true},
		{"ssh -tt -p2222 me@devbox", "me", "devbox", "2222", "", true},
		{"ssh -l me -o Port=22 devbox", "me", "devbox", "22", "", true},
		{"ssh -oUser=you -J bastion devbox", "you", "devbox", "", "", true},
		{"ssh -vvv -- devbox ls", "", "devbox", "", "ls", true},
		{"ssh ssh://me@devbox:2200", "me", "devbox", "2200", "", true},
		{"ssh me@[::1]", "me", "::1", "", "", true},
		{"ssh -p 22", "", "", "", "", false},
		{"ssh", "", "", "", "", false},
	}
	for _, c := range cases {
		user, host, port, rest, ok := SSHDestination(strings.Fields(c.argv))
		if ok != c.ok || (ok && (user != c.user || host != c.host || port != c.port || strings.Join(rest, " ") != c.rest)) {
			t.Errorf("SSHDestination(%q) = %q %q %q %q %v", c.argv, user, host, port, rest, ok)
		}
	}
}

func TestTargetsRemote(t *testing.T) {
	r := remote.Remote{Name: "box", Host: "me@devbox", SSHOptions: []string{"Port=2222"}}
	yes := []string{"ssh devbox", "ssh me@devbox", "ssh -p 2222 DEVBOX", "ssh -t devbox tmux attach"}
	no := []string{"ssh you@devbox", "ssh -p 22 devbox", "ssh otherbox", "ssh -T -o BatchMode=yes -- devbox mew status --watch --json --feed", "ssh -p 2222"}
	for _, a := range yes {
		if !TargetsRemote(r, strings.Fields(a)) {
			t.Errorf("%q should target %s", a, r.Host)
		}
	}
	for _, a := range no {
		if TargetsRemote(r, strings.Fields(a)) {
			t.Errorf("%q should not target %s", a, r.Host)
		}
	}
}

func TestRemotePaneArgv(t *testing.T) {
	r := remote.Remote{Name: "box", Host: "devbox"}
	argv, err := RemotePaneArgv(r, "/usr/bin/ssh", "%12", "select-window", "select-pane")
	if err != nil {
		t.Fatal(err)
	}
	if got := argv[len(argv)-1]; got != `tmux select-window -t%12 \; select-pane -t%12` {
		t.Errorf("remote command %q", got)
	}
	for _, bad := range []string{"%1;reboot", "$(id)", "%", "1", "%1 %2", ""} {
		if _, err := RemotePaneArgv(r, "/usr/bin/ssh", bad, "select-pane"); err == nil {
			t.Errorf("pane %q accepted", bad)
		}
	}
}

type procTable map[int]proctree.Proc

func (f procTable) Get(pid int) (proctree.Proc, error) {
	if p, ok := f[pid]; ok {
		return p, nil
	}
	return proctree.Proc{}, proctree.ErrNoProcess
}

const terminalApp = "/System/Applications/Utilities/Terminal.app"

// A Mac with Terminal.app: ssh processes under a shell under Terminal.
func macRemoteSystem(ssh []SSHProc, ttys map[int]string) RemoteSystem {
	procs := procTable{50: {Pid: 50, PPid: 1, Name: "Terminal", Exe: terminalApp + "/Contents/MacOS/Terminal"}}
	for _, p := range ssh {
		procs[p.Pid-1] = proctree.Proc{Pid: p.Pid - 1, PPid: 50, Name: "-zsh", Exe: "/bin/zsh"}
		procs[p.Pid] = proctree.Proc{Pid: p.Pid, PPid: p.Pid - 1, Name: "ssh", Exe: "/usr/bin/ssh", StartMs: p.StartMs}
	}
	return RemoteSystem{
		SSH: "/usr/bin/ssh",
		ListSSH: func(context.Context) ([]SSHProc, error) {
			return ssh, nil
		},
		Local: System{
			GOOS: "darwin", Procs: procs,
			BundleID: func(app string) (string, error) {
				if app == terminalApp {
					return "com.apple.Terminal", nil
				}
				return "", os.ErrNotExist
			},
			Environ: func(int, []string) (map[string]string, error) {
				return map[string]string{"TERM_PROGRAM": "Apple_Terminal"}, nil
			},
			Tty: func(pid int) (string, error) {
				if t, ok := ttys[pid]; ok {
					return t, nil
				}
				return "", fmt.Errorf("no tty")
			},
			IsExecutable: func(string) bool { return false },
		},
	}
}

func argvs(p Plan) []string {
	var out []string
	for _, s := range append(append([]Step{}, p.Inner...), p.Outer...) {
		out = append(out, strings.Join(s.Argv, " "))
	}
	return out
}

func TestPlanRemoteOneTerminalAndTmuxThere(t *testing.T) {
	r := remote.Remote{Name: "box", Host: "devbox"}
	sys := macRemoteSystem([]SSHProc{
		{Pid: 101, Argv: []string{"ssh", "devbox"}},
		{Pid: 201, Argv: []string{"ssh", "otherbox"}},
		{Pid: 301, Argv: []string{"ssh", "-T", "devbox", "mew", "status", "--watch", "--json", "--feed"}}, // Mew's own
	}, map[int]string{101: "/dev/ttys003", 201: "/dev/ttys004", 301: "/dev/ttys009"})
	s := session.Shown{ID: "s1", Host: "box", State: session.Waiting, Tmux: "%7"}
	p := PlanRemote(context.Background(), s, r, sys)
	got := argvs(p)
	if p.Precision != Pane || len(p.Inner) != 1 || !strings.HasSuffix(got[0], `-- devbox tmux select-window -t%7 \; select-pane -t%7`) {
		t.Fatalf("plan %+v\nsteps %q", p, got)
	}
	if !slices.ContainsFunc(p.Outer, func(s Step) bool { return slices.Contains(s.Argv, "/dev/ttys003") }) {
		t.Errorf("the Terminal tab of the ssh to devbox (ttys003) is not raised: %q", got)
	}
	if !strings.Contains(p.Why, "pid 101") || !strings.Contains(p.Why, "box: tmux pane %7") {
		t.Errorf("why %q", p.Why)
	}
	res := Execute(context.Background(), okExec{}, p, 0)
	if res.Precision != Pane {
		t.Errorf("executed: %+v", res)
	}
}

type okExec struct{}

func (okExec) Run(context.Context, Step) (string, error) { return "ok", nil }

func TestPlanRemoteSaysWhenOnlyTheSSHTerminal(t *testing.T) {
	r := remote.Remote{Name: "box", Host: "devbox"}
	sys := macRemoteSystem([]SSHProc{{Pid: 101, Argv: []string{"ssh", "devbox"}}}, map[int]string{101: "/dev/ttys003"})
	p := PlanRemote(context.Background(), session.Shown{ID: "s1", Host: "box"}, r, sys)
	if len(p.Inner) != 0 || p.Precision != Tab || !strings.Contains(p.Why, "only the SSH terminal can be raised: the session does not run in tmux on box") {
		t.Errorf("plan %+v", p)
	}
	// A pane id that is not one goes nowhere near a command line.
	p = PlanRemote(context.Background(), session.Shown{ID: "s1", Host: "box", Tmux: "%1;reboot"}, r, sys)
	if len(p.Inner) != 0 || strings.Contains(strings.Join(argvs(p), " "), "reboot") {
		t.Errorf("hostile pane id: %q", argvs(p))
	}
}

func TestPlanRemoteSeveralTerminalsRaisesTheAppOnly(t *testing.T) {
	r := remote.Remote{Name: "box", Host: "devbox"}
	sys := macRemoteSystem([]SSHProc{
		{Pid: 101, Argv: []string{"ssh", "devbox"}},
		{Pid: 111, Argv: []string{"ssh", "-t", "devbox", "tmux", "attach"}},
	}, map[int]string{101: "/dev/ttys003", 111: "/dev/ttys005"})
	p := PlanRemote(context.Background(), session.Shown{ID: "s1", Host: "box", Tmux: "%7"}, r, sys)
	got := argvs(p)
	if p.Precision != App || len(p.Outer) != 1 || p.Outer[0].Gives != App {
		t.Fatalf("plan %+v %q", p, got)
	}
	if len(p.Inner) != 1 || !strings.Contains(p.Why, "2 terminals run an ssh to box") {
		t.Errorf("the pane is still selected there, and the plan says why only the app comes forward: %+v", p)
	}
}

func TestPlanRemoteNoTerminal(t *testing.T) {
	r := remote.Remote{Name: "box", Host: "devbox"}
	sys := macRemoteSystem([]SSHProc{{Pid: 101, Argv: []string{"ssh", "devbox"}}}, nil) // no tty: a script's ssh
	p := PlanRemote(context.Background(), session.Shown{ID: "s1", Host: "box", Tmux: "%7"}, r, sys)
	if p.Precision != None || len(p.Inner)+len(p.Outer) != 0 || !strings.Contains(p.Why, "no terminal on this machine runs an ssh to box") {
		t.Errorf("plan %+v", p)
	}
}

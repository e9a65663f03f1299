package jump

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/shirou/gopsutil/v3/process"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
	"github.com/mew-dev/mew/terminal/termid"
)

// A jump to a session on another machine (source/remote) brings forward
// the terminal on this machine that runs the person's ssh to that host
// (found in the process table, planned like any local terminal), then
// selects the session's tmux pane there over a second ssh. When the
// session does not run in tmux there, only the SSH terminal can be raised,
// and the plan says so.

// SSHProc is an ssh client process on this machine.
type SSHProc struct {
	Pid     int
	StartMs int64
	Argv    []string
}

// RemoteSystem is what planning a remote jump reads.
type RemoteSystem struct {
	Local System
	// SSH is the ssh program for the pane step ("" leaves it out).
	SSH string
	// ListSSH lists the ssh client processes (ListSSHProcs).
	ListSSH func(ctx context.Context) ([]SSHProc, error)
}

// LocalRemoteSystem is this machine.
func LocalRemoteSystem() RemoteSystem {
	ssh, _ := remote.FindSSH()
	return RemoteSystem{Local: LocalSystem(), SSH: ssh, ListSSH: ListSSHProcs}
}

// ListSSHProcs lists the processes named ssh, with their arguments.
func ListSSHProcs(ctx context.Context) ([]SSHProc, error) {
	ps, err := process.ProcessesWithContext(ctx)
	if err != nil {
		return nil, err
	}
	var out []SSHProc
	for _, p := range ps {
		name, err := p.NameWithContext(ctx)
		if err != nil || name != "ssh" {
			continue
		}
		argv, err := p.CmdlineSliceWithContext(ctx)
		if err != nil || len(argv) == 0 {
			continue
		}
		start, _ := p.CreateTimeWithContext(ctx)
		out = append(out, SSHProc{Pid: int(p.Pid), StartMs: start, Argv: argv})
	}
	return out, nil
}

// sshWithArg are the ssh options that take a value (OpenSSH 9).
const sshWithArg = "BbcDEeFIiJLlmOoPpQRSWw"

// SSHDestination reads an ssh command line: the user, host and port it
// connects to (user and port "" when not given), and the remote command.
func SSHDestination(argv []string) (user, host, port string, command []string, ok bool) {
	if len(argv) == 0 {
		return "", "", "", nil, false
	}
	args := argv[1:]
	i := 0
options:
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			i++
			break options
		case !strings.HasPrefix(a, "-") || a == "-":
			break options
		}
		for j := 1; j < len(a); j++ {
			if !strings.ContainsRune(sshWithArg, rune(a[j])) {
				continue // a flag without a value
			}
			value := a[j+1:]
			if value == "" && i+1 < len(args) {
				i++
				value = args[i]
			}
			switch a[j] {
			case 'l':
				user = value
			case 'p':
				port = value
			case 'o':
				k, v, _ := strings.Cut(strings.Replace(value, " ", "=", 1), "=")
				switch strings.ToLower(strings.TrimSpace(k)) {
				case "user":
					user = strings.TrimSpace(v)
				case "port":
					port = strings.TrimSpace(v)
				}
			}
			break
		}
	}
	if i >= len(args) {
		return "", "", "", nil, false // options only
	}
	dest := args[i]
	if rest, isURI := strings.CutPrefix(dest, "ssh://"); isURI {
		dest = rest
		if k := strings.LastIndexByte(dest, ':'); k > 0 && strings.Count(dest, ":") == 1 {
			dest, port = dest[:k], dest[k+1:]
		}
	}
	if u, h, found := strings.Cut(dest, "@"); found {
		user, dest = u, h
	}
	dest = strings.TrimSuffix(strings.TrimPrefix(dest, "["), "]")
	return user, dest, port, args[i+1:], dest != ""
}

// TargetsRemote reports whether an ssh command line connects to r as the
// person would: the same host, and no other user or port than r's. Mew's
// own feed connections are not the person's terminal.
func TargetsRemote(r remote.Remote, argv []string) bool {
	user, host, port, command, ok := SSHDestination(argv)
	if !ok || strings.Contains(strings.Join(command, " "), remote.FeedFlag) {
		return false
	}
	ruser, rhost, _ := strings.Cut(r.Host, "@")
	if !strings.Contains(r.Host, "@") {
		ruser, rhost = "", r.Host
	}
	rhost = strings.TrimSuffix(strings.TrimPrefix(rhost, "["), "]")
	rport := ""
	for _, o := range r.SSHOptions {
		k, v, _ := strings.Cut(o, "=")
		switch k {
		case "Port":
			rport = v
		case "User":
			if ruser == "" {
				ruser = v
			}
		}
	}
	return strings.EqualFold(host, rhost) &&
		(user == "" || ruser == "" || user == ruser) &&
		(port == "" || rport == "" || port == rport)
}

// terminalEnv are the variables of the ssh process that place its
// terminal (the ones the hook records for an agent).
var terminalEnv = []string{
	"TERM_PROGRAM", "TERM_SESSION_ID", "ITERM_SESSION_ID", "TMUX", "TMUX_PANE",
	"WEZTERM_PANE", "WEZTERM_UNIX_SOCKET", "KITTY_WINDOW_ID", "KITTY_LISTEN_ON", "__CFBundleIdentifier",
}

// RemotePaneArgv is the command that selects pane (a tmux pane id) on r's
// tmux server: the window, then the pane. It is the seam for other
// commands on a remote pane (an answer types into it the same way).
func RemotePaneArgv(r remote.Remote, ssh, pane string, tmuxCommand ...string) ([]string, error) {
	if !termid.ValidTmuxPane(pane) {
		return nil, fmt.Errorf("%q is not a tmux pane id", text.OneLine(pane, 80))
	}
	if !termid.ValidPath(ssh) {
		return nil, fmt.Errorf("no ssh program")
	}
	// "-t%N" keeps '%' off the start of a word (old fish expands it).
	words := []string{"tmux"}
	for i, c := range tmuxCommand {
		if i > 0 {
			words = append(words, `\;`)
		}
		words = append(words, c, "-t"+pane)
	}
	return r.SSHArgv(ssh, words...)
}

// PlanRemote plans the jump to s, a session on r.
func PlanRemote(ctx context.Context, s session.Shown, r remote.Remote, sys RemoteSystem) Plan {
	p := Plan{SessionID: s.ID, Precision: None, Mechanism: "none"}
	if s.Offline {
		p.Why = fmt.Sprintf("%s cannot be reached now, so its pane cannot be selected", r.Name)
		// The SSH terminal may still be there: raising it is better than nothing.
	}
	procs, err := sys.ListSSH(ctx)
	if err != nil {
		p.Why = join(p.Why, "cannot list the ssh processes: "+err.Error())
		return p
	}
	type term struct {
		proc SSHProc
		tty  string
	}
	var terms []term
	for _, sp := range procs {
		if !TargetsRemote(r, sp.Argv) {
			continue
		}
		tty := ""
		if sys.Local.Tty != nil {
			tty, _ = sys.Local.Tty(sp.Pid)
		}
		if tty == "" {
			continue // no terminal: a script's or a tunnel's ssh
		}
		terms = append(terms, term{sp, tty})
	}
	if len(terms) == 0 {
		p.Why = join(p.Why, fmt.Sprintf("no terminal on this machine runs an ssh to %s (%s)", r.Name, r.Host))
		return p
	}
	t := terms[0]
	env := map[string]string{}
	if sys.Local.Environ != nil {
		env, _ = sys.Local.Environ(t.proc.Pid, terminalEnv)
	}
	rec := session.Record{ID: s.ID, Process: &session.Process{
		Pid: t.proc.Pid, StartMs: t.proc.StartMs, Name: "ssh", Tty: t.tty, Env: env, Tmux: tmuxFromEnv(env),
	}}
	plan := Make(Gather(ctx, rec, sys.Local))
	plan.SessionID = s.ID
	var why []string
	if len(terms) > 1 {
		// Which of the person's ssh terminals shows the session cannot be
		// told from here: raise the application, not a guessed tab.
		keepAppOnly(&plan)
		why = append(why, fmt.Sprintf("%d terminals run an ssh to %s and Mew cannot tell which one shows the session, so it brings %s forward only", len(terms), r.Name, hostOr(plan.Host)))
	} else {
		why = append(why, fmt.Sprintf("the ssh to %s (pid %d) on %s", r.Name, t.proc.Pid, t.tty))
	}
	why = append(why, plan.Why)
	switch {
	case s.Offline:
		why = append(why, p.Why)
	case !termid.ValidTmuxPane(s.Tmux):
		why = append(why, fmt.Sprintf("only the SSH terminal can be raised: the session does not run in tmux on %s", r.Name))
	case sys.SSH == "":
		why = append(why, "only the SSH terminal can be raised: ssh was not found to select the pane")
	case plan.Precision == None:
		why = append(why, "nothing on this machine can be brought forward, so the pane is not selected either")
	default:
		argv, err := RemotePaneArgv(r, sys.SSH, s.Tmux, "select-window", "select-pane")
		if err != nil {
			why = append(why, "only the SSH terminal can be raised: "+err.Error())
			break
		}
		plan.Inner = append(plan.Inner, Step{Name: fmt.Sprintf("%s: select tmux pane %s over ssh", r.Name, s.Tmux), Argv: argv, Gives: Pane})
		why = append(why, fmt.Sprintf("%s: tmux pane %s", r.Name, s.Tmux))
	}
	plan.Why = strings.Join(nonEmpty(why), "; ")
	if len(plan.Inner) == 0 && len(plan.Outer) == 0 {
		plan.Precision, plan.Mechanism = None, "none"
	} else if len(plan.Inner) > 0 && plan.Precision.AtLeast(Tab) {
		plan.Precision = Pane
	}
	return plan
}

// keepAppOnly drops every step that picks a tab or pane, keeping the ones
// that only bring the application forward.
func keepAppOnly(p *Plan) {
	var outer []Step
	for _, s := range p.Outer {
		if s.Gives == App {
			outer = append(outer, s)
		}
	}
	p.Inner, p.Outer, p.InnerShowsHost = nil, outer, false
	p.Target = Target{}
	p.Precision = None
	if len(outer) > 0 {
		p.Precision = App
	}
}

// tmuxFromEnv is $TMUX ("socket,server-pid,session") and $TMUX_PANE of a
// process, as the hook records them for an agent.
func tmuxFromEnv(env map[string]string) *session.Tmux {
	v := env["TMUX"]
	if v == "" {
		return nil
	}
	parts := strings.Split(v, ",")
	t := &session.Tmux{Socket: parts[0], Pane: env["TMUX_PANE"]}
	if len(parts) > 1 {
		t.ServerPid, _ = strconv.Atoi(parts[1])
	}
	return t
}

func hostOr(name string) string {
	if name == "" {
		return "the terminal"
	}
	return name
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func nonEmpty(in []string) []string {
	var out []string
	for _, s := range in {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

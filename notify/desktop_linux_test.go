package notify

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/session"
)

// privateBus starts a session bus of the test's own (Debian's dbus-daemon)
// and returns its address.
func privateBus(t *testing.T) string {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("no dbus-daemon (apt-get install dbus-daemon; .ci/run installs it)")
	}
	cfg := filepath.Join(t.TempDir(), "bus.conf")
	// A minimal session bus on a socket in the test's folder: no service
	// activation, nothing of the machine's own bus.
	conf := `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:dir=` + filepath.Dir(cfg) + `</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(daemon, "--config-file="+cfg, "--print-address", "--nofork")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon: %v", err)
	}
	return strings.TrimSpace(addr)
}

// noteServer stands in for a desktop's notification service.
type noteServer struct {
	conn  *dbus.Conn
	mu    sync.Mutex
	next  uint32
	notes chan note
}

type note struct {
	ID       uint32
	Summary  string
	Body     string
	Actions  []string
	Replaces uint32
}

func (s *noteServer) Notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	s.mu.Lock()
	s.next++
	id := s.next
	if replaces != 0 {
		id = replaces
	}
	s.mu.Unlock()
	s.notes <- note{ID: id, Summary: summary, Body: body, Actions: actions, Replaces: replaces}
	return id, nil
}

func (s *noteServer) GetCapabilities() ([]string, *dbus.Error) {
	return []string{"actions", "body"}, nil
}

func startNoteServer(t *testing.T, addr string) *noteServer {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	s := &noteServer{conn: conn, notes: make(chan note, 8)}
	if err := conn.Export(s, notifyPath, notifyIface); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName(notifyDest, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v %v", notifyDest, reply, err)
	}
	return s
}

// stepLog is a jump.Exec that records the steps it is given.
type stepLog struct{ steps chan jump.Step }

func (e stepLog) Run(ctx context.Context, s jump.Step) (string, error) {
	e.steps <- s
	return s.Want, nil
}

func TestDesktopNotificationJumpRunsTheJumpPlan(t *testing.T) {
	addr := privateBus(t)
	srv := startNoteServer(t, addr)

	id := "2f0c1c9e-5d1a-4b8e-8f7e-3a9b0c1d2e3f"
	rec := session.Record{ID: id, Agent: session.AgentClaude, Process: &session.Process{
		Pid: os.Getpid(), Tmux: &session.Tmux{Socket: "/tmp/tmux-1000/default", Pane: "%7"},
	}}
	sessions := &act.Sessions{}
	sessions.Set([]session.Record{rec})
	steps := stepLog{steps: make(chan jump.Step, 16)}
	// The plan as jump.PlanFor makes it for a pane of this tmux server;
	// the runner runs its steps through the recording Exec.
	planned := make(chan session.Record, 1)
	jumper := &act.Jumper{Runner: &jump.Runner{Exec: steps}, Sessions: sessions,
		Plan: func(ctx context.Context, r session.Record) jump.Plan {
			planned <- r
			return jump.Plan{SessionID: r.ID, Mechanism: "tmux", Precision: jump.Pane,
				Inner: []jump.Step{{Name: "select the pane", Argv: []string{"tmux", "select-pane", "-t", r.Process.Tmux.Pane}, Gives: jump.Pane}}}
		}}
	jumped := make(chan jump.Result, 1)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d := Start(ctx, []Sink{{Name: "desk", Kind: KindDesktop}}, Options{
		Desktop: func() (DesktopConn, error) {
			c, err := dbus.Connect(addr)
			return c, err
		},
		Log:  tlog{t},
		Jump: func(id string) { jumper.Submit(id, func(r jump.Result) { jumped <- r }) },
	})
	d.Send(Message{Event: session.Waiting, Title: "shop needs your permission", Body: "Bash: make test",
		Session: session.Shown{ID: id, State: session.Waiting}})

	var n note
	select {
	case n = <-srv.notes:
	case <-time.After(20 * time.Second):
		t.Fatal("the notification server got nothing")
	}
	if n.Summary != "shop needs your permission" || n.Body != "Bash: make test" || len(n.Actions) != 2 || n.Actions[0] != ActionJump {
		t.Fatalf("notification: %+v", n)
	}
	// The person clicks Jump: the service says so to everyone on the bus.
	if err := srv.conn.Emit(notifyPath, notifyIface+".ActionInvoked", n.ID, ActionJump); err != nil {
		t.Fatal(err)
	}
	var r jump.Result
	select {
	case r = <-jumped:
	case <-time.After(20 * time.Second):
		t.Fatal("Jump ran no jump")
	}
	if p := <-planned; p.ID != id {
		t.Fatalf("planned the jump of %q", p.ID)
	}
	if r.Plan.SessionID != id {
		t.Fatalf("jump plan for %q, want %q: %+v", r.Plan.SessionID, id, r.Plan)
	}
	// A second alert of the same session replaces its notification.
	d.Send(Message{Event: session.Done, Title: "shop is done", Session: session.Shown{ID: id}})
	select {
	case n2 := <-srv.notes:
		if n2.Replaces != n.ID {
			t.Fatalf("second notification replaces %d, want %d", n2.Replaces, n.ID)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no second notification")
	}
}

// Another program on the session bus emits ActionInvoked for the id Mew's
// next notification will get, before it is posted and after: neither
// jumps. Only the server the notification went to can click it.
func TestDesktopJumpOnlyFromTheNotificationServer(t *testing.T) {
	addr := privateBus(t)
	srv := startNoteServer(t, addr)
	spoofer, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer spoofer.Close()

	id := "2f0c1c9e-5d1a-4b8e-8f7e-3a9b0c1d2e3f"
	var mu sync.Mutex
	jumps := 0
	jumped := make(chan struct{}, 16)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d := Start(ctx, []Sink{{Name: "desk", Kind: KindDesktop}}, Options{
		Desktop: func() (DesktopConn, error) { return dbus.Connect(addr) },
		Log:     tlog{t},
		Jump: func(string) {
			mu.Lock()
			jumps++
			mu.Unlock()
			jumped <- struct{}{}
		},
	})
	next := func(what string) note {
		t.Helper()
		select {
		case n := <-srv.notes:
			return n
		case <-time.After(20 * time.Second):
			t.Fatalf("no %s notification", what)
		}
		return note{}
	}
	// Mew connects (and follows the signals) on its first alert.
	d.Send(Message{Event: session.Done, Title: "other", Session: session.Shown{ID: "other"}})
	first := next("first")
	// The spoof before the notification exists: the server's next id.
	if err := spoofer.Emit(notifyPath, notifyIface+".ActionInvoked", first.ID+1, ActionJump); err != nil {
		t.Fatal(err)
	}
	if err := spoofer.Emit(notifyPath, notifyIface+".ActionInvoked", uint32(999), ActionJump); err != nil {
		t.Fatal(err)
	}
	// A round trip to the bus: it handles one sender's messages in order,
	// so the spoofs are on their way to Mew before the alert is queued.
	if err := spoofer.BusObject().Call("org.freedesktop.DBus.GetId", 0).Err; err != nil {
		t.Fatal(err)
	}
	d.Send(Message{Event: session.Waiting, Title: "shop waits", Session: session.Shown{ID: id}})
	n := next("waiting")
	if n.ID != first.ID+1 {
		t.Fatalf("server gave id %d, want %d", n.ID, first.ID+1)
	}
	// One more alert through the same worker: the send of the waiting one
	// (which runs a click that came before its reply) has ended.
	d.Send(Message{Event: session.Done, Title: "other again", Session: session.Shown{ID: "other"}})
	next("sync")
	mu.Lock()
	if jumps != 0 {
		t.Errorf("the spoof sent before the notification existed jumped")
	}
	mu.Unlock()
	// And after it exists.
	if err := spoofer.Emit(notifyPath, notifyIface+".ActionInvoked", n.ID, ActionJump); err != nil {
		t.Fatal(err)
	}
	if err := spoofer.BusObject().Call("org.freedesktop.DBus.GetId", 0).Err; err != nil {
		t.Fatal(err)
	}
	// The real click.
	if err := srv.conn.Emit(notifyPath, notifyIface+".ActionInvoked", n.ID, ActionJump); err != nil {
		t.Fatal(err)
	}
	select {
	case <-jumped:
	case <-time.After(20 * time.Second):
		t.Fatal("the server's own click did not jump")
	}
	// The spoof after the notification was routed before the real click
	// was sent (the round trip above): once the click jumped, the spoof
	// was judged.
	mu.Lock()
	defer mu.Unlock()
	if jumps != 1 {
		t.Errorf("%d jumps, want 1 (the server's own click only)", jumps)
	}
}

package notify

import (
	"context"
	"sync"

	"github.com/godbus/dbus/v5"

	"github.com/mew-dev/mew/session"
)

// The freedesktop notification service (Linux desktops: GNOME, KDE, dunst,
// mako, …).
const (
	notifyDest  = "org.freedesktop.Notifications"
	notifyPath  = dbus.ObjectPath("/org/freedesktop/Notifications")
	notifyIface = "org.freedesktop.Notifications"
	// ActionJump is the action key of the notification's Jump button.
	ActionJump = "jump"
)

// DesktopConn is the D-Bus connection the desktop sink uses.
type DesktopConn = *dbus.Conn

// SessionBus connects to the person's session bus
// ($DBUS_SESSION_BUS_ADDRESS).
func SessionBus() (DesktopConn, error) { return dbus.ConnectSessionBus() }

// desktopSender posts notifications and runs the jump of the one whose
// Jump is clicked.
type desktopSender struct {
	dial func() (DesktopConn, error)
	jump func(id string)
	log  Logger

	mu     sync.Mutex
	conn   DesktopConn
	byNote map[uint32]noteOf // notification id → whose and from which server
	bySess map[string]uint32 // the session's last notification, replaced by its next
	// early holds a Jump that came before Notify's reply did (the service
	// may signal first): it runs once the id is known.
	early map[uint32]bool
	// server is the unique name the last Notify went to: an early Jump
	// counts only from it.
	server string
}

// noteOf is a notification Mew posted: its session, and the unique bus
// name of the server that took it. Any program on the session bus can
// emit an ActionInvoked; only that server's count.
type noteOf struct {
	session, server string
}

const maxNotes = 256

func (d *desktopSender) send(ctx context.Context, m Message) error {
	conn, err := d.connect()
	if err != nil {
		return err
	}
	d.mu.Lock()
	replaces := d.bySess[m.Session.ID]
	d.mu.Unlock()
	var actions []string
	if d.jump != nil && session.ValidID(m.Session.ID) {
		actions = []string{ActionJump, "Jump"}
	}
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1))}
	// Notify goes to the service's unique name, so the sender its
	// ActionInvoked must come from is known exactly.
	var server string
	if err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetNameOwner", 0, notifyDest).Store(&server); err != nil {
		d.drop(conn)
		return err
	}
	d.mu.Lock()
	d.server = server
	d.mu.Unlock()
	var id uint32
	call := conn.Object(server, notifyPath).CallWithContext(ctx, notifyIface+".Notify", 0,
		"Mew", replaces, "", m.Title, m.Body, actions, hints, int32(-1))
	if err := call.Store(&id); err != nil {
		d.drop(conn)
		return err
	}
	d.mu.Lock()
	if len(d.byNote) >= maxNotes {
		clear(d.byNote)
	}
	d.byNote[id] = noteOf{session: m.Session.ID, server: server}
	d.bySess[m.Session.ID] = id
	clicked := d.early[id]
	delete(d.early, id)
	d.mu.Unlock()
	if clicked {
		d.jumpTo(m.Session.ID)
	}
	return nil
}

// connect dials the bus once and follows the service's ActionInvoked.
func (d *desktopSender) connect() (DesktopConn, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn != nil {
		return d.conn, nil
	}
	conn, err := d.dial()
	if err != nil {
		return nil, err
	}
	if err := conn.AddMatchSignal(dbus.WithMatchInterface(notifyIface), dbus.WithMatchMember("ActionInvoked")); err != nil {
		conn.Close()
		return nil, err
	}
	ch := make(chan *dbus.Signal, 16)
	conn.Signal(ch)
	d.conn, d.byNote, d.bySess, d.early = conn, map[uint32]noteOf{}, map[string]uint32{}, map[uint32]bool{}
	go d.follow(ch)
	return conn, nil
}

func (d *desktopSender) follow(ch <-chan *dbus.Signal) {
	for sig := range ch {
		if sig.Name != notifyIface+".ActionInvoked" || len(sig.Body) != 2 {
			continue
		}
		note, ok1 := sig.Body[0].(uint32)
		action, ok2 := sig.Body[1].(string)
		if !ok1 || !ok2 || action != ActionJump {
			continue
		}
		d.mu.Lock()
		n, ok := d.byNote[note]
		if !ok && sig.Sender == d.server {
			// Other programs' notifications signal here too: keep few.
			if len(d.early) >= maxNotes {
				clear(d.early)
			}
			d.early[note] = true
		}
		d.mu.Unlock()
		if ok && sig.Sender == n.server {
			d.jumpTo(n.session)
		}
	}
}

func (d *desktopSender) jumpTo(id string) {
	if d.jump != nil {
		d.log.Printf("notify: Jump clicked on the notification of %s", id)
		d.jump(id)
	}
}

// drop forgets a connection that failed, so the next message dials again.
func (d *desktopSender) drop(conn DesktopConn) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn == conn && !conn.Connected() {
		conn.Close()
		d.conn = nil
	}
}

package notify

import (
	"context"
	"github.com/mew-dev/mew/internal/weblink"
	"sync"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/source/tmux"
)

// Holder is one Mew's half of "exactly one Mew per $MEW_HOME sends": the
// sending lock, taken when free (at start, or at an alert once the Mew
// that held it quit) and held until Release.
type Holder struct {
	Home string
	Log  Logger
	mu   sync.Mutex
	lock *Lock
	said bool
}

// Holds reports whether this Mew sends, taking the lock if it is free.
func (h *Holder) Holds() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lock != nil {
		return true
	}
	l, ok, err := TryLock(h.Home)
	if err != nil || !ok {
		if !h.said {
			h.said = true
			if err != nil {
				h.Log.Printf("notify: cannot take %s: %v; not sending", LockName, err)
			} else {
				h.Log.Printf("notify: another Mew of this MEW_HOME sends the alerts")
			}
		}
		return false
	}
	h.lock, h.said = l, false
	h.Log.Printf("notify: this Mew sends the alerts (%s)", LockName)
	return true
}

// Release lets the lock go.
func (h *Holder) Release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lock.Release()
	h.lock = nil
}

// TmuxFocus reports the panes in front on the tmux server Mew reads: the
// active pane of each attached client's current window.
func TmuxFocus(ctx context.Context) board.Focus {
	clients, err := tmux.ListClients(ctx, tmux.Exec{Socket: tmux.SocketFromEnv()})
	if err != nil {
		return board.Focus{}
	}
	in := make([]board.TmuxClient, len(clients.List))
	for i, c := range clients.List {
		in[i] = board.TmuxClient{Flags: c.Flags, Pane: c.Pane, ServerPid: c.ServerPid, Socket: c.Socket, TTY: c.TTY}
	}
	return board.Focus{Panes: board.FrontPanes(in, clients.FocusEvents)}
}

// StartService starts the sinks of notify.json and a loop feeding them;
// the returned channel takes the monitor's updates (Offer). It reads the
// sinks once: `mew notify add` says to restart a running Mew. A Jump on
// a desktop notification jumps through sessions.
func StartService(ctx context.Context, home string, log Logger, h *Holder, sessions *act.Sessions, focus func(context.Context) board.Focus) chan monitor.Update {
	cfg, err := LoadConfig(home)
	if err != nil {
		log.Printf("notify: %v; no sinks", err)
	}
	jumper := &act.Jumper{Runner: &jump.Runner{Exec: jump.CommandExec{}}, Sessions: sessions}
	d := Start(ctx, cfg.Sinks, Options{
		Home: home, Log: log,
		Jump: func(id string) {
			jumper.Submit(id, func(r jump.Result) { log.Printf("jump %s from a notification: %s", id, r.Message) })
		},
	})
	if len(cfg.Sinks) > 0 {
		log.Printf("notify: %d sink(s)", len(cfg.Sinks))
	}
	ch := make(chan monitor.Update, 1)
	loop := &Loop{
		Board: board.DefaultConfig(), Prefs: &alertprefs.Store{Home: home},
		Focus: focus, Sending: h.Holds, Send: d.Send, Log: log, Now: time.Now,
		Link: func(id string) string { return weblink.Session(weblink.Load(home), id) },
		Sent: &Sent{Home: home, Log: log},
	}
	go loop.Run(ctx, ch)
	return ch
}

// Offer hands u to the loop, replacing an update it has not read yet: the
// loop needs the latest, and never blocks the board.
func Offer(ch chan monitor.Update, u monitor.Update) {
	for {
		select {
		case ch <- u:
			return
		default:
		}
		select {
		case <-ch:
		default:
		}
	}
}

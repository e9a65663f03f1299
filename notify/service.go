package notify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/internal/weblink"
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
	// Who this Mew is ("mew watch --headless"): written in the lock for
	// the Mews that defer to it to name.
	Who  string
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
			} else if who := Holding(h.Home); who != "" {
				h.Log.Printf("notify: not sending: %s sends the alerts of this MEW_HOME; this one takes over when it quits", who)
			} else {
				h.Log.Printf("notify: not sending: another Mew of this MEW_HOME sends the alerts; this one takes over when it quits")
			}
		}
		return false
	}
	h.lock, h.said = l, false
	l.Say(h.Who)
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
// the returned channel takes the monitor's updates (Offer). The sinks are
// read again when notify.json changes (`mew notify add` while Mew runs).
// A Jump on a desktop notification jumps through sessions.
func StartService(ctx context.Context, home string, log Logger, h *Holder, sessions *act.Sessions, focus func(context.Context) board.Focus) chan monitor.Update {
	jumper := &act.Jumper{Runner: &jump.Runner{Exec: jump.CommandExec{}}, Sessions: sessions}
	live := &LiveSinks{Ctx: ctx, Home: home, Log: log, Options: Options{
		Home: home, Log: log,
		Jump: func(id string) {
			jumper.Submit(id, func(r jump.Result) { log.Printf("jump %s from a notification: %s", id, r.Message) })
		},
	}}
	live.Refresh()
	go func() {
		// A sink added or removed shows within seconds, not only at the
		// next alert (one stat every 2 s).
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				live.Refresh()
			}
		}
	}()
	ch := make(chan monitor.Update, 1)
	loop := &Loop{
		Board: board.DefaultConfig(), Prefs: &alertprefs.Store{Home: home},
		Focus: focus, Sending: h.Holds, Send: live.Send, Log: log, Now: time.Now,
		Link: func(id string) string { return weblink.Session(weblink.Load(home), id) },
		Sent: &Sent{Home: home, Log: log},
	}
	go loop.Run(ctx, ch)
	return ch
}

// LiveSinks sends to the sinks notify.json lists now: before each alert
// (rare) it looks at the file's size and time, and starts the new list's
// senders when they changed, letting the old ones go.
type LiveSinks struct {
	Ctx     context.Context
	Home    string
	Log     Logger
	Options Options

	mu     sync.Mutex
	stamp  string
	d      *Dispatcher
	cancel context.CancelFunc
}

// Refresh reads notify.json again if it changed; it reports whether it did.
func (s *LiveSinks) Refresh() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	stamp := "none"
	if fi, err := os.Stat(filepath.Join(s.Home, ConfigName)); err == nil {
		stamp = fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
	}
	if s.d != nil && stamp == s.stamp {
		return false
	}
	first := s.d == nil
	s.stamp = stamp
	cfg, err := LoadConfig(s.Home)
	if err != nil {
		s.Log.Printf("notify: %v; no sinks", err)
	}
	if s.cancel != nil {
		s.cancel()
	}
	ctx, cancel := context.WithCancel(s.Ctx)
	s.d, s.cancel = Start(ctx, cfg.Sinks, s.Options), cancel
	switch {
	case len(cfg.Sinks) > 0:
		s.Log.Printf("notify: %d sink(s): %s", len(cfg.Sinks), describeSinks(cfg.Sinks))
	case !first:
		s.Log.Printf("notify: no sinks now: alerts only ring")
	}
	return true
}

// Send sends m to the sinks of now.
func (s *LiveSinks) Send(m Message) {
	s.Refresh()
	s.mu.Lock()
	d := s.d
	s.mu.Unlock()
	d.Send(m)
}

func describeSinks(sinks []Sink) string {
	parts := make([]string, len(sinks))
	for i, k := range sinks {
		parts[i] = k.Name + " (" + k.Masked() + ")"
	}
	return strings.Join(parts, ", ")
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

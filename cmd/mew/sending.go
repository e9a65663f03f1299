package main

import (
	"context"
	"sync"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/internal/logfile"
	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/notify"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/tmux"
)

// sender is this Mew's half of "exactly one Mew per $MEW_HOME sends":
// the sending lock, taken when free (at start, or at an alert once the
// Mew that held it quit) and held until this one ends.
type sender struct {
	home string
	log  *logfile.Log
	mu   sync.Mutex
	lock *notify.Lock
	said bool
}

// holds reports whether this Mew sends, taking the lock if it is free.
func (s *sender) holds() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock != nil {
		return true
	}
	l, ok, err := notify.TryLock(s.home)
	if err != nil || !ok {
		if !s.said {
			s.said = true
			if err != nil {
				s.log.Printf("notify: cannot take %s: %v; not sending", notify.LockName, err)
			} else {
				s.log.Printf("notify: another Mew of this MEW_HOME sends the alerts")
			}
		}
		return false
	}
	s.lock, s.said = l, false
	s.log.Printf("notify: this Mew sends the alerts (%s)", notify.LockName)
	return true
}

func (s *sender) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lock.Release()
	s.lock = nil
}

// tmuxFocus reports the panes in front on the tmux server Mew reads: the
// active pane of each attached client's current window.
func tmuxFocus(ctx context.Context) board.Focus {
	clients, err := tmux.ListClients(ctx, tmux.Exec{Socket: tmux.SocketFromEnv()})
	if err != nil {
		return board.Focus{}
	}
	in := make([]board.TmuxClient, len(clients))
	for i, c := range clients {
		in[i] = board.TmuxClient{Flags: c.Flags, Pane: c.Pane, ServerPid: c.ServerPid, Socket: c.Socket, TTY: c.TTY}
	}
	return board.Focus{Panes: board.FrontPanes(in)}
}

// startSinks starts the sinks of notify.json and a loop feeding them from
// updates; the returned channel takes the monitor's updates (close it, or
// end ctx, to stop). It reads the sinks once: `mew notify add` says to
// restart a running Mew.
func startSinks(ctx context.Context, home string, l *logfile.Log, s *sender, sessions *act.Sessions, focus func(context.Context) board.Focus) chan monitor.Update {
	cfg, err := notify.LoadConfig(home)
	if err != nil {
		l.Printf("notify: %v; no sinks", err)
	}
	jumper := &act.Jumper{Runner: &jump.Runner{Exec: jump.CommandExec{}}, Sessions: sessions}
	d := notify.Start(ctx, cfg.Sinks, notify.Options{
		Home: home, Log: l,
		Jump: func(id string) {
			jumper.Submit(id, func(r jump.Result) { l.Printf("jump %s from a notification: %s", id, r.Message) })
		},
	})
	if len(cfg.Sinks) > 0 {
		l.Printf("notify: %d sink(s)", len(cfg.Sinks))
	}
	ch := make(chan monitor.Update, 1)
	loop := &notify.Loop{
		Board: board.DefaultConfig(), Prefs: &alertprefs.Store{Home: home},
		Focus: focus, Sending: s.holds, Send: d.Send, Log: l, Now: time.Now,
	}
	go loop.Run(ctx, ch)
	return ch
}

// offer hands u to the loop, replacing an update it has not read yet: the
// loop needs the latest, never blocks the board.
func offer(ch chan monitor.Update, u monitor.Update) {
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

// bellFacts gives the terminal board's bell the same facts the sinks get.
type bellFacts struct {
	prefs *alertprefs.Store
	log   *logfile.Log
	mu    sync.Mutex
	recs  []session.Record
}

func (b *bellFacts) set(recs []session.Record) {
	b.mu.Lock()
	b.recs = recs
	b.mu.Unlock()
}

func (b *bellFacts) get(ctx context.Context) board.AlertFacts {
	p, err := b.prefs.Load()
	if err != nil {
		b.log.Printf("notify: %s: %v (mutes left out)", alertprefs.Name, err)
	}
	b.mu.Lock()
	recs := b.recs
	b.mu.Unlock()
	return board.AlertFacts{Muted: p.Muted, Snoozed: p.Snoozed, Focused: board.FocusedSessions(recs, tmuxFocus(ctx))}
}

package main

import (
	"context"
	"sync"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/internal/logfile"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/notify"
	"github.com/mew-dev/mew/session"
)

// bellFacts gives the terminal board's bell the same facts the sinks get.
type bellFacts struct {
	prefs *alertprefs.Store
	log   *logfile.Log
	mu    sync.Mutex
	recs  []*session.Record // read-only: a monitor update's
}

func (b *bellFacts) set(recs []*session.Record) {
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
	return board.AlertFacts{Muted: p.Muted, Snoozed: p.Snoozed, Focused: board.FocusedSessions(monitor.Values(recs), notify.TmuxFocus(ctx))}
}

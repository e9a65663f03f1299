package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/app"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

// boardAnswerer answers from the terminal board: on the records of the
// monitor's latest update (what the board shows), one answer at a time.
type boardAnswerer struct {
	answerer *answer.Answerer
	home     string
	remote   func(ctx context.Context, id string, c session.Choice) (answer.Result, bool)

	mu   sync.Mutex
	recs map[string]session.Record
}

// remotes, when set, answers the sessions of other machines.
func newBoardAnswerer(home string, remotes monitor.RemoteSessions) *boardAnswerer {
	b := &boardAnswerer{home: home, answerer: &answer.Answerer{Home: home, Rules: rules.Cached(rules.Dir(home))}}
	if hub, ok := remotes.(*remote.Hub); ok {
		b.remote = app.RemoteAnswer(hub, remote.FindSSH, remote.RunSSH)
	}
	return b
}

// setRecords takes the records of a monitor update.
func (b *boardAnswerer) setRecords(recs []session.Record) {
	m := make(map[string]session.Record, len(recs))
	for _, r := range recs {
		m[r.ID] = r
	}
	b.mu.Lock()
	b.recs = m
	b.mu.Unlock()
}

// Answer implements tui.Answerer.
func (b *boardAnswerer) Answer(id string, c session.Choice) (string, error) {
	b.mu.Lock()
	rec, ok := b.recs[id]
	b.mu.Unlock()
	var res answer.Result
	switch {
	case ok:
		t := answer.Plan(rec, answer.LocalHost(b.home))
		res = b.answerer.Answer(context.Background(), t, answer.WantFor(rec, c))
	case b.remote != nil:
		if res, ok = b.remote(context.Background(), id, c); !ok {
			return "", fmt.Errorf("the session %s is gone", shortID(id))
		}
	default:
		return "", fmt.Errorf("the session %s is gone", shortID(id))
	}
	if res.Outcome != answer.Answered {
		return "", errors.New(res.Message)
	}
	return res.Message, nil
}

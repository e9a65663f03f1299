package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

// boardAnswerer answers from the terminal board: on the records of the
// monitor's latest update (what the board shows), one answer at a time.
type boardAnswerer struct {
	answerer *answer.Answerer
	home     string

	mu   sync.Mutex
	recs map[string]session.Record
}

func newBoardAnswerer(home string) *boardAnswerer {
	return &boardAnswerer{home: home, answerer: &answer.Answerer{Home: home, Rules: rules.Cached(rules.Dir(home))}}
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
	if !ok {
		return "", fmt.Errorf("the session %s is gone", shortID(id))
	}
	t := answer.Plan(rec, answer.LocalHost(b.home))
	res := b.answerer.Answer(context.Background(), t, answer.WantFor(rec, c))
	if res.Outcome != answer.Answered {
		return "", errors.New(res.Message)
	}
	return res.Message, nil
}

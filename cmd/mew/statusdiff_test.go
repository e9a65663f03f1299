package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
)

// `mew status --watch --json` walks each update's list against the last
// one, trusting a shared entry to be unchanged: through random updates
// (sessions changing state, moving in the order, coming and going, a
// host's sessions coming fresh each time) it prints the lines a comparison
// of every session by id with the last update would.
func TestStatusLinesAgainstEverySession(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	base := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	states := []session.State{session.Working, session.Waiting, session.Done, session.Idle}
	cur := map[string]*session.Shown{}
	var updates []monitor.Update
	var want []string
	printed := map[string]session.State{}
	for range 400 {
		for range rng.IntN(4) {
			id := "s-" + strconv.Itoa(rng.IntN(30))
			if rng.IntN(5) == 0 {
				delete(cur, id)
				continue
			}
			s := session.Shown{ID: id, State: states[rng.IntN(len(states))], Since: base.Add(time.Duration(rng.IntN(20)) * time.Minute)}
			if rng.IntN(6) == 0 {
				s.Host = "box" // a remote's: a fresh entry each update
			}
			cur[id] = &s
		}
		var list []*session.Shown
		for _, s := range cur {
			if s.Host != "" {
				c := *s
				s = &c
			}
			list = append(list, s)
		}
		slices.SortFunc(list, monitor.Compare)
		updates = append(updates, monitor.Update{Sessions: list})
		listed := map[string]bool{}
		for _, s := range list {
			w := s.Host + ":" + s.ID // a session is its host and id
			listed[w] = true
			if st, ok := printed[w]; !ok || st != s.State {
				printed[w] = s.State
				want = append(want, w+" "+string(s.State))
			}
		}
		for id := range printed {
			if !listed[id] {
				delete(printed, id)
				want = append(want, id+" forgotten")
			}
		}
		want = append(want, "--")
	}
	var got []string
	// One run over every update; a marker after each: the lines of one
	// update come in list order (forgotten ones in any), so each update's
	// lines are compared as a set.
	ch := make(chan monitor.Update)
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		statusLines(ch, true, &out, io.Discard)
		close(done)
	}()
	split := []int{}
	for _, u := range updates {
		ch <- u
		ch <- monitor.Update{Sessions: u.Sessions} // the same list again: nothing printed, and the last is done
		split = append(split, out.Len())
	}
	close(ch)
	<-done
	text := out.Bytes()
	from := 0
	for _, to := range split {
		dec := json.NewDecoder(bytes.NewReader(text[from:to]))
		var lines []string
		for dec.More() {
			var m map[string]any
			if err := dec.Decode(&m); err != nil {
				t.Fatal(err)
			}
			host, _ := m["host"].(string)
			lines = append(lines, host+":"+m["id"].(string)+" "+m["state"].(string))
		}
		slices.Sort(lines)
		got = append(got, lines...)
		got = append(got, "--")
		from = to
	}
	// want, each update's lines sorted the same way
	var sorted []string
	start := 0
	for i, l := range want {
		if l == "--" {
			part := slices.Clone(want[start:i])
			slices.Sort(part)
			sorted = append(sorted, part...)
			sorted = append(sorted, "--")
			start = i + 1
		}
	}
	if !reflect.DeepEqual(got, sorted) {
		for i := range min(len(got), len(sorted)) {
			if got[i] != sorted[i] {
				t.Fatalf("line %d: got %q, want %q\n%v\n%v", i, got[i], sorted[i], got[:i+3], sorted[:i+3])
			}
		}
		t.Fatalf("%d lines, want %d", len(got), len(sorted))
	}
}

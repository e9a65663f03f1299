package remote

import (
	"bufio"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

func TestServeFeedBeatsOnlyAfterTheFirstList(t *testing.T) {
	pr, pw := io.Pipe()
	updates := make(chan []session.Shown)
	done := make(chan struct{})
	go func() {
		serveFeed(pw, updates, func(s []session.Shown) ([]session.Shown, []error) { return s, nil }, 5*time.Millisecond)
		pw.Close()
		close(done)
	}()
	lines := bufio.NewScanner(pr)
	next := func() Line {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("the feed ended: %v", lines.Err())
		}
		var l Line
		if err := json.Unmarshal(lines.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		return l
	}
	time.Sleep(30 * time.Millisecond) // ticks before any list: no heartbeat
	go func() { updates <- []session.Shown{{ID: "s1"}} }()
	if l := next(); l.Feed != FeedVersion || l.Sessions == nil || len(*l.Sessions) != 1 {
		t.Fatalf("first line %+v: the whole list, with the feed version", l)
	}
	if l := next(); l.Sessions != nil || l.Feed != 0 {
		t.Fatalf("second line %+v: a heartbeat", l)
	}
	go func() { updates <- nil }()
	for l := next(); l.Sessions == nil; l = next() {
		// heartbeats until the list
	}
	go io.Copy(io.Discard, pr) // a heartbeat may be on its way
	close(updates)
	<-done
}

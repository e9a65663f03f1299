package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// `mew status --watch` prints a session that leaves the list as
// "forgotten", once, and the others' changes as before.
func TestStatusWatchForgetsAGoneSession(t *testing.T) {
	c := newCLI(t)
	st := store.Store{Home: c.home}
	set := func(id string, state session.State) {
		now := time.Now().UTC()
		if _, err := st.Update(id, time.Second, func(rec *session.Record, _ bool) bool {
			rec.Hook = &session.HookState{State: state, Since: now, At: now, Cwd: "/src/" + id}
			return true
		}); err != nil {
			t.Fatal(err)
		}
	}
	set("keep-1", session.Working)
	set("gone-1", session.Working)
	w := c.watch(t)
	w.next(t, 10*time.Second)
	w.next(t, 10*time.Second)
	if err := os.Remove(filepath.Join(st.Dir(), "gone-1.json")); err != nil {
		t.Fatal(err)
	}
	if m := w.next(t, 10*time.Second); m["id"] != "gone-1" || m["state"] != "forgotten" {
		t.Fatalf("after its file went: %v", m)
	}
	set("keep-1", session.Waiting)
	if m := w.next(t, 10*time.Second); m["id"] != "keep-1" || m["state"] != "waiting" {
		t.Fatalf("the next change: %v (a second forgotten line?)", m)
	}
}

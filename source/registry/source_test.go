package registry

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
)

func writeDoc(t *testing.T, dir string, pid int, id, status string, at time.Time) {
	t.Helper()
	doc := fmt.Sprintf(`{"pid":%d,"sessionId":%q,"status":%q,"statusUpdatedAt":%d,"cwd":"/p"}`, pid, id, status, at.UnixMilli())
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.json", pid)), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
}

// One observation a session, the newest of its files; a garbage file is a
// problem next to them.
func TestSourceScan(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	writeDoc(t, dir, 10, "s1", "idle", t0)
	writeDoc(t, dir, 11, "s1", "busy", t0.Add(time.Second)) // resumed in another process
	writeDoc(t, dir, 12, "s2", "waiting", t0)
	os.WriteFile(filepath.Join(dir, "13.json"), []byte("garbage"), 0o600)
	src := New(dir)
	obs, err := src.Scan(context.Background())
	if err == nil || !strings.Contains(err.Error(), "13.json") || len(src.Problems()) != 1 {
		t.Errorf("err %v, problems %v", err, src.Problems())
	}
	if len(obs) != 2 || obs[0].ID != "s1" || obs[0].Registry.Pid != 11 || obs[0].Registry.Status != "busy" ||
		obs[1].ID != "s2" || obs[0].Agent != session.AgentClaude || obs[0].Process.Pid != 0 {
		t.Fatalf("obs %+v", obs)
	}
	if !obs[0].Registry.At.Equal(t0.Add(time.Second)) || obs[0].Registry.File != "11.json" {
		t.Errorf("reading %+v", *obs[0].Registry)
	}
}

// Record folds a reading exactly as ObserveMono folds the document, and a
// session no longer reported as Vanish does.
func TestSourceRecordIsObserve(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	writeDoc(t, dir, 10, "s1", "busy", t0)
	src := New(dir)
	obs, _ := src.Scan(context.Background())
	doc, err := ReadFile(filepath.Join(dir, "10.json"))
	if err != nil {
		t.Fatal(err)
	}
	now, mono := t0.Add(time.Second), int64(5*time.Second)
	var rec session.Record
	if !src.Record(&rec, &obs[0], now, mono) {
		t.Fatal("a first reading is a change")
	}
	if want := ObserveMono(nil, doc, "10.json", now, mono); !same(*rec.Registry, want) || rec.Registry.AtMono != want.AtMono {
		t.Errorf("Record = %+v, want %+v", *rec.Registry, want)
	}
	prev := rec.Registry
	if src.Record(&rec, &obs[0], now.Add(time.Second), mono+int64(time.Second)) {
		t.Error("a re-read is not a change")
	}
	if !src.Record(&rec, nil, now, mono) || !rec.Registry.Gone || prev.Gone {
		t.Errorf("gone: %+v (the old reading changed in place: %v)", *rec.Registry, prev.Gone)
	}
	if src.Record(&rec, nil, now, mono) {
		t.Error("gone twice")
	}
}

// Watch notices a directory made after it started, and a file in it:
// the agent's folder ("later") is not there either, so the rescan finds it.
func TestSourceWatchFindsTheDirectoryLater(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "later", "sessions")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan []source.Observation, 1)
	done := make(chan error, 1)
	go func() { done <- (&Source{Dir: dir, Rescan: 20 * time.Millisecond}).Watch(ctx, out) }()
	if obs := <-out; len(obs) != 0 {
		t.Fatalf("first: %+v", obs)
	}
	os.MkdirAll(dir, 0o700)
	writeDoc(t, dir, 10, "s1", "busy", time.Now())
	timeout := time.After(60 * time.Second)
	for seen := false; !seen; {
		select {
		case obs := <-out: // a half-written file first, perhaps
			seen = len(obs) == 1 && obs[0].ID == "s1"
		case <-timeout:
			t.Fatal("not noticed")
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

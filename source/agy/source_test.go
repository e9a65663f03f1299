package agy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
)

func newSource(t *testing.T, known ...Known) (*Source, string) {
	t.Helper()
	brain := filepath.Join(t.TempDir(), ".gemini", "antigravity-cli", "brain")
	return &Source{Brain: brain, Sessions: func() []Known { return known }}, brain
}

func writeTranscript(t *testing.T, brain, id string, data []byte) string {
	t.Helper()
	p := filepath.Join(brain, id, ".system_generated", "logs", "transcript.jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScanReadsTheTranscriptsTheHooksNamed(t *testing.T) {
	id := "0f4c9a1e-5b7d-4e2a-9c3f-1a2b3c4d5e6f"
	s, brain := newSource(t)
	p := writeTranscript(t, brain, id, steps(sprintf(user, 1), sprintf(reply, 2)))
	s.Sessions = func() []Known { return []Known{{ID: id, Transcript: p}} }
	obs, err := s.Scan(context.Background())
	if err != nil || len(obs) != 1 {
		t.Fatalf("Scan = %+v, %v", obs, err)
	}
	o := obs[0]
	if o.ID != id || o.Agent != session.AgentAgy || o.Log == nil || o.Log.State != session.Done || o.Log.LastMessage != "All tests pass." || o.Log.File != "transcript.jsonl" {
		t.Fatalf("observation %+v (log %+v)", o, o.Log)
	}
	// The next turn: the file grows, the state follows.
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(sprintf(user, 3) + "\n")
	f.Close()
	if obs, _ = s.Scan(context.Background()); len(obs) != 1 || obs[0].Log.State != session.Working {
		t.Fatalf("after a new prompt: %+v", obs)
	}
}

func TestScanReadsOnlyTheTail(t *testing.T) {
	id := "big"
	s, brain := newSource(t)
	var b strings.Builder
	b.WriteString(sprintf(user, 1) + "\n")
	filler := `{"step_index":%d,"type":"GENERIC","status":"DONE","created_at":"2026-12-02T05:00:03Z","content":"` + strings.Repeat("x", 1000) + `"}`
	for i := 10; b.Len() < 3*maxTail; i++ {
		b.WriteString(strings.Replace(filler, "%d", itoa(i), 1) + "\n")
	}
	b.WriteString(`{"step_index":999999,"type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-12-02T05:00:09Z","content":"Done."}` + "\n")
	p := writeTranscript(t, brain, id, []byte(b.String()))
	s.Sessions = func() []Known { return []Known{{ID: id, Transcript: p}} }
	obs, err := s.Scan(context.Background())
	// The tail holds no prompt: no turn is known from it, nothing claimed.
	if err != nil || len(obs) != 0 {
		t.Fatalf("a tail without the turn's prompt: %+v, %v", obs, err)
	}
}

func itoa(i int) string {
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

func TestScanRefusesAPathTheHooksShouldNotName(t *testing.T) {
	id := "c1"
	s, brain := newSource(t)
	good := writeTranscript(t, brain, id, steps(sprintf(user, 1)))
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, steps(sprintf(user, 1), sprintf(reply, 2)), 0o600)
	for name, path := range map[string]string{
		"another file":            secret,
		"another session's":       filepath.Join(brain, "c2", ".system_generated", "logs", "transcript.jsonl"),
		"up and out":              filepath.Join(brain, id, "..", "..", "..", "etc", "passwd"),
		"relative":                "transcript.jsonl",
		"control characters\x1b]": good + "\x1b]0;x\a",
	} {
		s.Sessions = func() []Known { return []Known{{ID: id, Transcript: path}} }
		obs, err := s.Scan(context.Background())
		if len(obs) != 0 || err == nil {
			t.Errorf("%s (%q): %+v, %v; want nothing read and a reason", name, path, obs, err)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\x1b\a") {
			t.Errorf("%s: the reason carries control characters: %q", name, err)
		}
	}
	// A link put where the transcript goes is not followed.
	os.Remove(good)
	if err := os.Symlink(secret, good); err != nil {
		t.Fatal(err)
	}
	s.Sessions = func() []Known { return []Known{{ID: id, Transcript: good}} }
	if obs, err := s.Scan(context.Background()); len(obs) != 0 || err == nil {
		t.Errorf("a symlinked transcript: %+v, %v; want nothing read", obs, err)
	}
	// Not written yet: nothing to say, and no problem either.
	s.Sessions = func() []Known {
		return []Known{{ID: "c3", Transcript: filepath.Join(brain, "c3", ".system_generated", "logs", "transcript.jsonl")}}
	}
	if obs, err := s.Scan(context.Background()); len(obs) != 0 || err != nil {
		t.Errorf("a transcript not written yet: %+v, %v", obs, err)
	}
}

// With no agy session, Watch neither lists the store nor reads anything
// while the store is quiet (500 sessions of other agents cost it nothing);
// a session file written there is listed at once, and its transcript read.
func TestWatchListsOnlyWhenTheStoreChanges(t *testing.T) {
	id := "0f4c9a1e-5b7d-4e2a-9c3f-1a2b3c4d5e6f"
	s, brain := newSource(t)
	s.StoreDir = t.TempDir()
	var mu sync.Mutex
	var known []Known
	calls := 0
	s.Sessions = func() []Known {
		mu.Lock()
		defer mu.Unlock()
		calls++
		return known
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan []source.Observation, 8)
	go s.Watch(ctx, out)
	if obs := <-out; len(obs) != 0 {
		t.Fatalf("first report: %+v", obs)
	}
	time.Sleep(3 * poll)
	mu.Lock()
	if calls != 1 {
		t.Errorf("the sessions were listed %d times over a quiet store, want once", calls)
	}
	p := writeTranscript(t, brain, id, steps(sprintf(user, 1), sprintf(reply, 2)))
	known = []Known{{ID: id, Transcript: p}}
	mu.Unlock()
	if err := os.WriteFile(filepath.Join(s.StoreDir, id+".json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case obs := <-out:
		if len(obs) != 1 || obs[0].ID != id || obs[0].Log.State != session.Done {
			t.Fatalf("after the store changed: %+v", obs)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a session written to the store was never read")
	}
	// Another agent's session: listed once, then its changes cost nothing.
	count := func() int { mu.Lock(); defer mu.Unlock(); return calls }
	mu.Lock()
	known = append(known, Known{ID: "other", Other: true}) // as FromStore lists it
	mu.Unlock()
	before := count()
	other := filepath.Join(s.StoreDir, "other.json")
	os.WriteFile(other, []byte("{}"), 0o600)
	for deadline := time.Now().Add(10 * time.Second); count() == before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a new session file was never listed")
		}
	}
	for range 3 {
		os.WriteFile(other, []byte("{ }"), 0o600)
	}
	time.Sleep(3 * poll)
	if n := count(); n != before+1 {
		t.Errorf("another agent's session listed %d times, want once", n-before)
	}
}

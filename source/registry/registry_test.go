package registry

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/fixture"
	"github.com/mew-dev/mew/session"
)

func TestParseRealDocuments(t *testing.T) {
	runs, err := fixture.Load(fixture.Root("2.1.328"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range runs {
		for _, e := range r.Events {
			if e.Source != "registry" || e.IsNull() {
				continue
			}
			d, err := Parse(e.Doc)
			if err != nil {
				t.Fatalf("%s: %v", r.Name, err)
			}
			if d.SessionID != r.SessionID || d.Pid == 0 || d.ProcStart == "" || d.StartedAt.IsZero() || d.Version != "2.1.328" || d.Tmux == "" {
				t.Fatalf("%s: %+v", r.Name, d)
			}
			if d.Status != "" && d.StatusAt.IsZero() {
				t.Fatalf("%s: status without a time: %+v", r.Name, d)
			}
			n++
		}
	}
	if n < 20 {
		t.Fatalf("only %d registry documents checked", n)
	}
}

func TestParseDefensive(t *testing.T) {
	good := `{"pid":12,"sessionId":"abc","status":"busy","statusUpdatedAt":1796065496690}`
	if d, err := Parse([]byte(good)); err != nil || d.Status != "busy" || d.StatusAt.UnixMilli() != 1796065496690 {
		t.Fatalf("%+v %v", d, err)
	}
	bad := map[string]string{
		"garbage":          "\x00\x01not json",
		"half written":     good[:30],
		"array":            `[1]`,
		"no session":       `{"pid":12}`,
		"hostile session":  `{"pid":12,"sessionId":"../../etc"}`,
		"no pid":           `{"sessionId":"abc"}`,
		"negative pid":     `{"sessionId":"abc","pid":-4}`,
		"session a number": `{"sessionId":5,"pid":3}`,
	}
	for name, in := range bad {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// Fields of an unexpected type are treated as absent, not fatal.
	d, err := Parse([]byte(`{"pid":12,"sessionId":"abc","status":7,"waitingFor":{},"statusUpdatedAt":"soon","updatedAt":1000,"procStart":49109,"extra":[1,2]}`))
	if err != nil || d.Status != "" || d.WaitingFor != "" || d.StatusAt.UnixMilli() != 1000 || d.ProcStart != "49109" {
		t.Fatalf("%+v %v", d, err)
	}
}

func TestReadDirSkipsWhatItCannotRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) { os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600) }
	write("100.json", `{"pid":100,"sessionId":"s100","status":"idle"}`)
	write("200.json", `{"pid":200,"sessionId":"s2`) // half written
	write("300.json", string(bytes.Repeat([]byte(" "), MaxFile+10))+`{}`)
	write("notes.txt", "hello")
	write("abc.json", `{"pid":1,"sessionId":"x"}`) // not a <pid>.json name
	os.Mkdir(filepath.Join(dir, "400.json"), 0o700)
	start := time.Now()
	entries, errs := ReadDir(dir)
	if time.Since(start) > 2*time.Second {
		t.Fatal("slow on a huge file")
	}
	if len(entries) != 1 || entries[0].Doc.SessionID != "s100" || entries[0].File != "100.json" {
		t.Fatalf("entries = %+v", entries)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error()+errs[1].Error(), "larger than") {
		t.Fatalf("errs = %v", errs)
	}
	if e, errs := ReadDir(filepath.Join(dir, "missing")); e != nil || errs != nil {
		t.Fatal("a missing directory is an empty registry")
	}
}

func TestObserve(t *testing.T) {
	t1 := time.UnixMilli(1_000_000).UTC()
	fresh := Observe(nil, Doc{SessionID: "s", Pid: 9, Status: "idle", StatusAt: t1}, "9.json", t1.Add(time.Hour))
	if fresh.TurnSeen || fresh.Status != "idle" || !fresh.At.Equal(t1) || fresh.File != "9.json" {
		t.Fatalf("fresh: %+v", fresh)
	}
	busy := Observe(&fresh, Doc{SessionID: "s", Pid: 9, Status: "busy", StatusAt: t1.Add(time.Second)}, "9.json", t1)
	idle := Observe(&busy, Doc{SessionID: "s", Pid: 9, Status: "idle", StatusAt: t1.Add(2 * time.Second)}, "9.json", t1)
	if !busy.TurnSeen || !idle.TurnSeen || !idle.LastTurnAt.Equal(t1.Add(time.Second)) {
		t.Fatalf("turn not remembered: %+v", idle)
	}
	// A document without times takes the moment Mew saw it, and a re-read of
	// the same status keeps when it began.
	seen := t1.Add(5 * time.Second)
	noTime := Observe(&idle, Doc{SessionID: "s", Pid: 9, Status: "waiting", WaitingFor: "permission prompt"}, "9.json", seen)
	again := Observe(&noTime, Doc{SessionID: "s", Pid: 9, Status: "waiting", WaitingFor: "permission prompt"}, "9.json", seen.Add(time.Second))
	if !noTime.At.Equal(seen) || !again.At.Equal(seen) {
		t.Fatalf("times: %v %v", noTime.At, again.At)
	}
	gone := Vanish(again, seen.Add(2*time.Second))
	if !gone.Gone || gone.Status != "waiting" {
		t.Fatalf("vanish: %+v", gone)
	}
	back := Observe(&gone, Doc{SessionID: "s", Pid: 10, Status: "idle", StatusAt: seen.Add(3 * time.Second)}, "10.json", seen)
	if back.Gone || back.Pid != 10 {
		t.Fatalf("resumed: %+v", back)
	}
	var _ session.RegistryState = back
}

func TestDirHonoursClaudeConfigDir(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "/x/cfg")
	if d, _ := Dir(); d != "/x/cfg/sessions" {
		t.Fatal(d)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("HOME", "/home/u")
	if d, _ := Dir(); d != "/home/u/.claude/sessions" {
		t.Fatal(d)
	}
}

func TestIsDocName(t *testing.T) {
	for name, want := range map[string]bool{"123.json": true, "1.json": true, ".json": false, "12a.json": false, "123.json.tmp": false, "12345678901.json": false} {
		if IsDocName(name) != want {
			t.Errorf("IsDocName(%q) != %v", name, want)
		}
	}
}

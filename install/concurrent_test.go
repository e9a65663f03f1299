package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Uninstall while another program rewrites settings.json every 2 ms (as
// Claude Code or an editor may): the other program's last write is never
// lost, whichever of the two writes last.
func TestUninstallNeverLosesAConcurrentWrite(t *testing.T) {
	testNeverLosesAConcurrentWrite(t, true)
}

// The same for install.
func TestInstallNeverLosesAConcurrentWrite(t *testing.T) {
	testNeverLosesAConcurrentWrite(t, false)
}

// A program that writes the file in place (truncate, then write: Node's
// writeFileSync, many editors' "safe write" off) is not lost either: its
// write may land in the very file an exchange just displaced.
func TestInstallNeverLosesAnInPlaceWrite(t *testing.T) {
	writeFn = writeInPlace
	defer func() { writeFn = writeAtomically }()
	testNeverLosesAConcurrentWrite(t, false)
}

func TestUninstallNeverLosesAnInPlaceWrite(t *testing.T) {
	writeFn = writeInPlace
	defer func() { writeFn = writeAtomically }()
	testNeverLosesAConcurrentWrite(t, true)
}

var writeFn = writeAtomically

func writeInPlace(path string, data []byte) error {
	return os.WriteFile(path, data, 0o644)
}

func testNeverLosesAConcurrentWrite(t *testing.T, uninstall bool) {
	// 300 runs of the command Mew users run; install runs the same
	// commit, so a third of them is enough there.
	runs := 300
	if !uninstall {
		runs = 100
	}
	if testing.Short() {
		runs = 50
	}
	var lost, refused, done int
	for run := range runs {
		env := testEnv(t)
		writeSettings(t, env, `{"model": "opus", "hooks": {}}`, 0o644)
		command := Install
		if uninstall {
			if _, err := Install(Options{Env: env}); err != nil {
				t.Fatal(err)
			}
			command = Uninstall
		}
		// What the other program writes: the file as it is, plus a
		// counter of its writes.
		installed := readFile(t, env.SettingsPath())

		stop := make(chan struct{})
		var wg sync.WaitGroup
		var last int
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(2 * time.Millisecond)
			defer tick.Stop()
			for k := 1; ; k++ {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				doc := fmt.Appendf(nil, `{"writer": %d, %s`, k, installed[1:])
				if err := writeFn(env.SettingsPath(), doc); err != nil {
					t.Error(err)
					return
				}
				last = k
			}
		}()
		time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
		_, err := command(Options{Env: env})
		close(stop)
		wg.Wait()
		switch {
		case err == nil:
			done++
		case errors.As(err, new(*FileError)):
			refused++ // refusing, saying so, loses nothing
			t.Logf("run %d: %v", run, err)
		default:
			t.Fatalf("run %d: %v", run, err)
		}
		var got struct{ Writer int }
		if err := json.Unmarshal(readFile(t, env.SettingsPath()), &got); err != nil {
			t.Fatalf("run %d: settings.json is not JSON any more: %v", run, err)
		}
		if last > 0 && got.Writer != last {
			lost++
			t.Errorf("run %d: the other program's write %d is gone (the file has %d; mew: %v)", run, last, got.Writer, err)
		}
	}
	t.Logf("%d runs: %d done, %d refused, %d lost", runs, done, refused, lost)
}

// writeAtomically is how editors and Claude Code save: a temporary file,
// then a rename over the old one.
func writeAtomically(path string, data []byte) error {
	tmp := filepath.Join(filepath.Dir(path), fmt.Sprintf(".writer-%d", rand.Int64()))
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// A displaced file cut short (an in-place writer paused between its
// truncate and its write) is never taken as the other program's bytes: the
// uninstall that built on such an empty half wrote a settings.json that was
// not JSON (1 of 300 runs under load). A whole one, or the bytes commit
// expected, are taken as they are.
func TestSettledNeverTakesAHalfWrittenFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	for _, c := range []struct {
		data, expect string
		ok           bool
	}{
		{`{"model": "opus"}`, `{}`, true},
		{``, ``, true}, // nothing changed
		{`{"model": `, `{}`, false},
		{``, `{"hooks": {}}`, false},
		{"model = 'opus'\n", `{}`, true}, // not JSON: taken as written
		{"[hooks]\nx = 1\n", `{}`, true}, // a TOML table, not a cut-short JSON array
	} {
		os.WriteFile(p, []byte(c.data), 0o600)
		got, err := settled(p, []byte(c.expect))
		if c.ok && (err != nil || string(got) != c.data) {
			t.Errorf("%q: got %q, %v", c.data, got, err)
		}
		if !c.ok && err == nil {
			t.Errorf("%q (expected %q): taken as the other program's bytes", c.data, c.expect)
		}
	}
}

// An in-place writer that has truncated the file, and not yet written it,
// when commit looks again: the uninstall that built on the empty half
// swapped an empty file in, and the writer's bytes went to the displaced
// one (settings.json not JSON, 1 of 300 runs at load 20). The same half
// made install write over the write under way. Here the writer stalls
// until the command returns, so the interleaving is certain; whatever
// Mew does (refuse, or finish), the file ends up as the writer wrote it.
func TestCommitNeverBuildsOnAnEmptyHalf(t *testing.T) {
	for _, uninstall := range []bool{false, true} {
		env := testEnv(t)
		writeSettings(t, env, `{"model": "opus", "hooks": {}}`, 0o644)
		command := Install
		if uninstall {
			if _, err := Install(Options{Env: env}); err != nil {
				t.Fatal(err)
			}
			command = Uninstall
		}
		path := env.SettingsPath()
		theirs := fmt.Appendf(nil, `{"writer": 1, %s`, readFile(t, path)[1:])
		var w *os.File
		beforeLook = func(string) {
			if w != nil {
				return
			}
			// Node's writeFileSync, paused between its truncate and
			// its write.
			var err error
			if w, err = os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0); err != nil {
				t.Fatal(err)
			}
		}
		_, err := command(Options{Env: env})
		beforeLook = nil
		if w == nil {
			t.Fatalf("uninstall %v: commit never looked again", uninstall)
		}
		if _, werr := w.Write(theirs); werr != nil {
			t.Fatal(werr)
		}
		w.Close()
		if err != nil && !errors.As(err, new(*FileError)) {
			t.Fatalf("uninstall %v: %v", uninstall, err)
		}
		t.Logf("uninstall %v: mew: %v", uninstall, err)
		if got := readFile(t, path); string(got) != string(theirs) {
			t.Errorf("uninstall %v: settings.json is %.60q (%d bytes), not the other program's write %.60q (mew: %v)", uninstall, got, len(got), theirs, err)
		}
	}
}

// When another program's write leaves nothing for uninstall to take out,
// its file stays the very file it wrote: swapping in equal bytes would
// displace the file a write of theirs may still be landing in.
func TestUninstallLeavesAFileWithNothingToTakeOut(t *testing.T) {
	env := testEnv(t)
	writeSettings(t, env, `{"model": "opus", "hooks": {}}`, 0o644)
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	path := env.SettingsPath()
	var theirs os.FileInfo
	beforeLook = func(string) {
		if theirs != nil {
			return
		}
		// They took Mew's hooks out themselves.
		if err := writeAtomically(path, []byte(`{"writer": 1, "model": "opus", "hooks": {}}`)); err != nil {
			t.Fatal(err)
		}
		var err error
		if theirs, err = os.Stat(path); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { beforeLook = nil }()
	if _, err := Uninstall(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	now, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if theirs == nil || !os.SameFile(theirs, now) {
		t.Errorf("settings.json was replaced (with %q), not left as the other program wrote it", readFile(t, path))
	}
}

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

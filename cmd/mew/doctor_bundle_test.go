package main

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readBundle returns the bundle's files by name.
func readBundle(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	out := map[string]string{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		out[strings.TrimPrefix(h.Name, "mew-bundle/")] = string(b)
	}
}

// `mew doctor --bundle FILE` writes a tar.gz with versions, doctor's
// output, the log's tail, the rules and the session files, with every
// secret and the home folder taken out (issue 40).
func TestDoctorBundleRedacts(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home", "alice")
	mewHome := filepath.Join(home, ".mew")
	for _, d := range []string{filepath.Join(mewHome, "sessions"), filepath.Join(mewHome, "rules"), filepath.Join(home, ".claude")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("MEW_HOME", mewHome)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
	t.Setenv("CODEX_HOME", filepath.Join(home, ".codex"))
	secrets := []string{
		"sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx",
		"ghp_0123456789abcdefABCDEF0123456789",
		"xoxb-1234-5678-abcdefgh",
		"s3cr3t-topic-name",
		"hunter2hunter2",
		"eyJhbGciOiJIUzI1NiJ9.payload.sig",
	}
	session := `{"version":1,"id":"s1","agent":"claude","hook":{"cwd":"` + home + `/src/shop","title":"export ANTHROPIC_API_KEY=` + secrets[0] + `"}}`
	files := map[string]string{
		filepath.Join(mewHome, "sessions", "s1.json"): session,
		filepath.Join(mewHome, "rules", "codex.toml"): "# token = \"" + secrets[1] + "\"\nagent = \"codex\"\n",
		filepath.Join(mewHome, "mew.log"): "2026-01-01 watch: notify: posting to https://ntfy.sh/" + secrets[3] + "\n" +
			"2026-01-01 watch: slack " + secrets[2] + " password=" + secrets[4] + " Authorization: Bearer " + secrets[5] + "\n" +
			"2026-01-01 watch: read " + home + "/.claude/settings.json\n",
		filepath.Join(mewHome, "notify.json"): `{"sinks":[{"name":"phone","kind":"webhook","url":"https://ntfy.sh/` + secrets[3] + `"}]}`,
	}
	for p, data := range files {
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// A FIFO among the sessions is skipped, never waited on.
	fifoErr := mkfifo(filepath.Join(mewHome, "sessions", "fifo.json"))
	out := filepath.Join(t.TempDir(), "bundle.tar.gz")
	var stdout, stderr strings.Builder
	code := run([]string{"doctor", "--local", "--bundle", out}, &stdout, &stderr)
	if code == 2 || !strings.Contains(stdout.String(), "Wrote "+out) {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	got := readBundle(t, out)
	for _, name := range []string{"versions.txt", "doctor.txt", "mew.log.tail", "rules/codex.toml", "sessions/s1.json", "notify-sinks.txt"} {
		if got[name] == "" {
			t.Errorf("the bundle lacks %s (has %d files)", name, len(got))
		}
	}
	if fifoErr == nil {
		if _, ok := got["sessions/fifo.json"]; ok {
			t.Errorf("a FIFO was bundled")
		}
	}
	if !strings.Contains(got["sessions/s1.json"], `"cwd":"~/src/shop"`) || !strings.Contains(got["versions.txt"], "mew ") {
		t.Errorf("the home folder is not said as ~, or no version:\n%s\n%s", got["sessions/s1.json"], got["versions.txt"])
	}
	for name, data := range got {
		for _, s := range append(secrets, home, "/alice") {
			if strings.Contains(data, s) {
				t.Errorf("%s keeps %q:\n%s", name, s, data)
			}
		}
	}
}

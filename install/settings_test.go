package install

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testEnv is a home directory of its own with ~/.claude and ~/.mew in it.
func testEnv(t *testing.T) Env {
	t.Helper()
	home := t.TempDir()
	return Env{Home: home, ClaudeDir: filepath.Join(home, ".claude"), MewHome: filepath.Join(home, ".mew")}
}

func writeSettings(t *testing.T, env Env, doc string, mode fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(env.ClaudeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(env.SettingsPath(), []byte(doc), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(env.SettingsPath(), mode); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func TestInstallUninstallCorpus(t *testing.T) {
	for _, c := range corpus {
		t.Run(c.name, func(t *testing.T) {
			env := testEnv(t)
			writeSettings(t, env, c.doc, 0o644)
			want, _ := env.Want()
			expect, err := Edit([]byte(c.doc), want)
			if err != nil {
				t.Fatal(err)
			}

			rep, err := Install(Options{Env: env})
			if err != nil {
				t.Fatalf("install: %v", err)
			}
			got := readFile(t, env.SettingsPath())
			if !bytes.Equal(got, expect.Doc) || !rep.Wrote {
				t.Fatalf("install wrote\n%q\nwant\n%q", got, expect.Doc)
			}
			if b := readFile(t, env.SettingsPath()+BackupSuffix); string(b) != c.doc || rep.Backup == "" {
				t.Fatalf("backup holds %q, want the previous bytes %q", b, c.doc)
			}

			rep, err = Install(Options{Env: env})
			if err != nil || rep.Wrote || len(rep.Changes) != 0 {
				t.Fatalf("second install: %v wrote=%v %v", err, rep.Wrote, rep.Changes)
			}
			if again := readFile(t, env.SettingsPath()); !bytes.Equal(again, got) {
				t.Fatalf("second install changed the bytes")
			}

			rep, err = Uninstall(Options{Env: env})
			if err != nil {
				t.Fatalf("uninstall: %v", err)
			}
			if back := readFile(t, env.SettingsPath()); string(back) != c.doc || !rep.Restored {
				t.Fatalf("uninstall left\n%q\nwant the original\n%q", back, c.doc)
			}
			if fi, _ := os.Stat(env.SettingsPath()); fi.Mode().Perm() != 0o644 {
				t.Fatalf("mode became %v", fi.Mode())
			}
		})
	}
}

func TestInstallCreatesMissingFileAndUninstallRemovesIt(t *testing.T) {
	env := testEnv(t)
	env.ClaudeDir = filepath.Join(env.Home, "config", "claude") // CLAUDE_CONFIG_DIR two levels deep
	rep, err := Install(Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Created || !rep.Wrote || rep.Backup != "" {
		t.Fatalf("report %+v", rep)
	}
	doc := readFile(t, env.SettingsPath())
	checkMewEntries(t, nil, doc, mustWant(t, env))
	if fi, _ := os.Stat(env.SettingsPath()); fi.Mode().Perm() != 0o600 {
		t.Fatalf("new settings file has mode %v, want 0600", fi.Mode())
	}
	if exists(env.SettingsPath() + BackupSuffix) {
		t.Fatal("a backup of a file that did not exist")
	}

	rep, err = Uninstall(Options{Env: env})
	if err != nil || !rep.Removed {
		t.Fatalf("uninstall: %v %+v", err, rep)
	}
	for _, p := range []string{env.SettingsPath(), env.ClaudeDir, filepath.Dir(env.ClaudeDir)} {
		if exists(p) {
			t.Errorf("%s is still there after uninstall", p)
		}
	}
}

func TestUninstallKeepsDirectoryWithOtherFiles(t *testing.T) {
	env := testEnv(t)
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	// Claude Code ran meanwhile and keeps its registry there.
	if err := os.MkdirAll(filepath.Join(env.ClaudeDir, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	if exists(env.SettingsPath()) || !exists(filepath.Join(env.ClaudeDir, "sessions")) {
		t.Fatal("uninstall should remove only the file it created")
	}
}

func mustWant(t *testing.T, env Env) Want {
	t.Helper()
	w, err := env.Want()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestUninstallAfterPersonEdited(t *testing.T) {
	env := testEnv(t)
	orig := "{\n  \"model\": \"opus\"\n}\n"
	writeSettings(t, env, orig, 0o644)
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	// The person changes another setting after install.
	edited := strings.Replace(string(readFile(t, env.SettingsPath())), `"opus"`, `"sonnet"`, 1)
	writeSettings(t, env, edited, 0o644)

	rep, err := Uninstall(Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Restored || !rep.Wrote || rep.Backup == "" {
		t.Fatalf("report %+v", rep)
	}
	// Mew's entries and the hooks key install added are gone; the
	// person's edit stays.
	if got := string(readFile(t, env.SettingsPath())); got != "{\n  \"model\": \"sonnet\"\n}\n" {
		t.Fatalf("got %q", got)
	}
	if b := readFile(t, rep.Backup); string(b) != edited {
		t.Fatalf("backup holds %q, want the edited file", b)
	}
}

func TestUninstallKeepsPersonHooksAddedSinceInstall(t *testing.T) {
	env := testEnv(t)
	writeSettings(t, env, `{"model":"opus"}`, 0o644)
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	doc := readFile(t, env.SettingsPath())
	doc = bytes.Replace(doc, []byte(`"Stop":[`), []byte(`"Stop":[{"hooks":[{"type":"command","command":"say done"}]},`), 1)
	writeSettings(t, env, string(doc), 0o644)
	if _, err := Uninstall(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	want := `{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}`
	if got := string(readFile(t, env.SettingsPath())); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

func TestReinstallAfterUpdateKeepsOriginalForUninstall(t *testing.T) {
	env := testEnv(t)
	orig := "{\n  \"a\": 1\n}\n"
	writeSettings(t, env, orig, 0o644)
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	// A newer Mew writes a different entry: simulate with an older one
	// in the file that is still byte-for-byte what install wrote.
	rec, _ := loadRecords(env.MewHome)
	cur := readFile(t, env.SettingsPath())
	older := bytes.ReplaceAll(cur, []byte(`"timeout": 10`), []byte(`"timeout": 5`))
	writeSettings(t, env, string(older), 0o644)
	rec.Settings[env.SettingsPath()].Wrote = digest(older)
	if err := saveRecords(env.MewHome, rec); err != nil {
		t.Fatal(err)
	}

	rep, err := Install(Options{Env: env})
	if err != nil || !rep.Wrote {
		t.Fatalf("update: %v %+v", err, rep)
	}
	if rep.Backup != "" {
		t.Fatal("the backup of the person's file was overwritten with Mew's own output")
	}
	if b := readFile(t, env.SettingsPath()+BackupSuffix); string(b) != orig {
		t.Fatalf("backup holds %q", b)
	}
	if _, err := Uninstall(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	if got := string(readFile(t, env.SettingsPath())); got != orig {
		t.Fatalf("uninstall after update left %q", got)
	}
}

func TestSymlinkedSettingsWrittenThrough(t *testing.T) {
	env := testEnv(t)
	dotfiles := filepath.Join(env.Home, "dotfiles", "claude")
	if err := os.MkdirAll(dotfiles, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dotfiles, "settings.json")
	orig := "{\n    \"model\": \"opus\"\n}\n"
	if err := os.WriteFile(target, []byte(orig), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(env.ClaudeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	linkText := "../dotfiles/claude/settings.json"
	if err := os.Symlink(linkText, env.SettingsPath()); err != nil {
		t.Fatal(err)
	}

	rep, err := Install(Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	checkLink := func() {
		t.Helper()
		li, err := os.Lstat(env.SettingsPath())
		if err != nil || li.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("settings.json is no longer a symlink: %v %v", li, err)
		}
		if got, _ := os.Readlink(env.SettingsPath()); got != linkText {
			t.Fatalf("link now points at %q", got)
		}
	}
	checkLink()
	realTarget, _ := filepath.EvalSymlinks(target)
	if rep.Settings != realTarget || rep.Link != env.SettingsPath() {
		t.Fatalf("report names %q via %q", rep.Settings, rep.Link)
	}
	if got := readFile(t, target); bytes.Equal(got, []byte(orig)) {
		t.Fatal("the target did not change")
	}
	checkMewEntries(t, []byte(orig), readFile(t, target), mustWant(t, env))
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Fatalf("target mode became %v", fi.Mode())
	}
	// The backup sits next to the file that changed, not next to the link.
	if b := readFile(t, target+BackupSuffix); string(b) != orig {
		t.Fatalf("backup next to the target holds %q", b)
	}
	if exists(env.SettingsPath() + BackupSuffix) {
		t.Fatal("backup written next to the link")
	}

	if _, err := Uninstall(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	checkLink()
	if got := string(readFile(t, target)); got != orig {
		t.Fatalf("uninstall left %q", got)
	}
}

func TestDanglingSymlinkRefused(t *testing.T) {
	env := testEnv(t)
	os.MkdirAll(env.ClaudeDir, 0o755)
	if err := os.Symlink("/nonexistent/settings.json", env.SettingsPath()); err != nil {
		t.Fatal(err)
	}
	_, err := Install(Options{Env: env})
	var fe *FileError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "symlink to /nonexistent/settings.json") {
		t.Fatalf("err = %v", err)
	}
	if exists("/nonexistent/settings.json") {
		t.Fatal("created the link's target")
	}
}

func TestCorruptSettingsUntouched(t *testing.T) {
	cases := map[string]error{
		"{\n  \"model\": \"opus\",\n}\n": ErrInvalidJSON,
		"{\"hooks\": [1, 2]}":            ErrHooksNotObject,
		"[\"not\", \"an\", \"object\"]":  ErrNotObject,
		"{\"hooks\": {\"Stop\": 3}}":     ErrEventNotList,
		"\x00\x01binary":                 ErrInvalidJSON,
	}
	for doc, wantErr := range cases {
		env := testEnv(t)
		writeSettings(t, env, doc, 0o644)
		src := fakeHook(t, "v1")
		_, err := Install(Options{Env: env, HookSource: src})
		if !errors.Is(err, wantErr) {
			t.Errorf("%q: err = %v, want %v", doc, err, wantErr)
			continue
		}
		if !strings.Contains(err.Error(), env.SettingsPath()) || !strings.Contains(err.Error(), "changed nothing") {
			t.Errorf("%q: the error does not name the file: %v", doc, err)
		}
		if got := string(readFile(t, env.SettingsPath())); got != doc {
			t.Errorf("%q: file changed to %q", doc, got)
		}
		for _, p := range []string{env.SettingsPath() + BackupSuffix, HookPath(env.MewHome), filepath.Join(env.MewHome, recordName)} {
			if exists(p) {
				t.Errorf("%q: %s was written", doc, p)
			}
		}
		// Uninstall refuses the same files, except one whose odd part holds
		// nothing of Mew's (an event that is not a list): no change there.
		if rep, err := Uninstall(Options{Env: env}); !errors.Is(err, wantErr) && (err != nil || rep.Wrote || wantErr != ErrEventNotList) {
			t.Errorf("%q: uninstall err = %v", doc, err)
		}
		if got := string(readFile(t, env.SettingsPath())); got != doc {
			t.Errorf("%q: uninstall changed it", doc)
		}
	}
}

func TestReadOnlySettingsUntouched(t *testing.T) {
	env := testEnv(t)
	orig := "{\"model\": \"opus\"}\n"
	writeSettings(t, env, orig, 0o444)
	_, err := Install(Options{Env: env})
	if !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), env.SettingsPath()) {
		t.Fatalf("err = %v", err)
	}
	fi, _ := os.Stat(env.SettingsPath())
	if got := string(readFile(t, env.SettingsPath())); got != orig || fi.Mode().Perm() != 0o444 {
		t.Fatalf("read-only file changed: %q %v", got, fi.Mode())
	}
	if exists(env.SettingsPath() + BackupSuffix) {
		t.Fatal("backup written for a file that was not changed")
	}

	// Made writable, installed, then made read-only again: uninstall
	// refuses too, and a second install has nothing to do (no error).
	os.Chmod(env.SettingsPath(), 0o644)
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	os.Chmod(env.SettingsPath(), 0o444)
	if rep, err := Install(Options{Env: env}); err != nil || rep.Wrote {
		t.Fatalf("install with nothing to change: %v %+v", err, rep)
	}
	before := readFile(t, env.SettingsPath())
	if _, err := Uninstall(Options{Env: env}); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("uninstall err = %v", err)
	}
	if !bytes.Equal(readFile(t, env.SettingsPath()), before) {
		t.Fatal("uninstall changed a read-only file")
	}
}

func TestReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	env := testEnv(t)
	orig := "{}\n"
	writeSettings(t, env, orig, 0o644)
	os.Chmod(env.ClaudeDir, 0o555)
	defer os.Chmod(env.ClaudeDir, 0o755)
	if _, err := Install(Options{Env: env}); err == nil {
		t.Fatal("install into a read-only directory succeeded")
	}
	if got := string(readFile(t, env.SettingsPath())); got != orig {
		t.Fatalf("file changed: %q", got)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	env := testEnv(t)
	orig := "{\n  \"model\": \"opus\"\n}\n"
	writeSettings(t, env, orig, 0o644)
	src := fakeHook(t, "v1")
	rep, err := Install(Options{Env: env, HookSource: src, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Wrote || len(rep.Changes) != len(Events) || !rep.HookUpdated || rep.HooksAfter == nil {
		t.Fatalf("dry run reports %+v", rep)
	}
	if got := string(readFile(t, env.SettingsPath())); got != orig {
		t.Fatal("dry run changed the file")
	}
	if exists(env.MewHome) || exists(env.SettingsPath()+BackupSuffix) {
		t.Fatal("dry run created files")
	}

	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	installed := readFile(t, env.SettingsPath())
	rep, err = Uninstall(Options{Env: env, DryRun: true})
	if err != nil || !rep.Restored {
		t.Fatalf("dry uninstall: %v %+v", err, rep)
	}
	if !bytes.Equal(readFile(t, env.SettingsPath()), installed) || !exists(filepath.Join(env.MewHome, recordName)) {
		t.Fatal("dry uninstall wrote")
	}
}

func TestCustomMewHomeCommand(t *testing.T) {
	env := testEnv(t)
	env.MewHome = filepath.Join(env.Home, "Library", "Mew Data")
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	doc := string(readFile(t, env.SettingsPath()))
	want := `"command": "GOMAXPROCS=1 MEW_HOME=\"$HOME/Library/Mew Data\" \"$HOME/Library/Mew Data/bin/mew-hook\""`
	if !strings.Contains(doc, want) || strings.Contains(doc, env.Home) {
		t.Fatalf("settings:\n%s\nwant %s and no %s", doc, want, env.Home)
	}
	env.MewHome = "/tmp/mew`x`"
	if _, err := Install(Options{Env: env}); !errors.Is(err, ErrUnsafePath) {
		t.Fatalf("unsafe MEW_HOME: %v", err)
	}
}

func TestRecordIsPrivate(t *testing.T) {
	env := testEnv(t)
	writeSettings(t, env, `{"env": {"API_KEY": "secret"}}`, 0o600)
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(env.MewHome, recordName))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("record: %v %v", fi, err)
	}
	if fi, _ := os.Stat(env.SettingsPath() + BackupSuffix); fi.Mode().Perm() != 0o600 {
		t.Fatalf("backup mode %v, want the file's 0600", fi.Mode())
	}
}

// fakeHook is an executable file standing in for mew-hook.
func fakeHook(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), HookName)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n# "+content+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestHookCopyIsAtomic(t *testing.T) {
	env := testEnv(t)
	v1, v2 := fakeHook(t, "v1"), fakeHook(t, "v2")
	rep, err := Install(Options{Env: env, HookSource: v1})
	if err != nil || !rep.HookUpdated {
		t.Fatalf("%v %+v", err, rep)
	}
	dst := HookPath(env.MewHome)
	if fi, _ := os.Stat(dst); fi.Mode().Perm() != 0o755 {
		t.Fatalf("hook mode %v", fi.Mode())
	}
	// A session has the old binary open (as a running hook would).
	old, err := os.Open(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if rep, err := Install(Options{Env: env, HookSource: v1}); err != nil || rep.HookUpdated {
		t.Fatalf("same binary copied again: %v %+v", err, rep)
	}
	if rep, err := Install(Options{Env: env, HookSource: v2}); err != nil || !rep.HookUpdated {
		t.Fatalf("update: %v %+v", err, rep)
	}
	// The update replaced the file (rename), it did not write into the
	// one the running hook has open.
	oldBytes, _ := io.ReadAll(old)
	if !bytes.Contains(oldBytes, []byte("v1")) {
		t.Fatalf("the open binary changed under the running hook: %q", oldBytes)
	}
	if got := readFile(t, dst); !bytes.Contains(got, []byte("v2")) {
		t.Fatalf("installed hook is %q", got)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dst), ".*tmp"))
	if len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

func TestHookSourceChecks(t *testing.T) {
	env := testEnv(t)
	notExec := filepath.Join(t.TempDir(), "mew-hook")
	os.WriteFile(notExec, []byte("x"), 0o644)
	for _, src := range []string{notExec, t.TempDir(), "/nonexistent/mew-hook"} {
		if _, err := Install(Options{Env: env, HookSource: src}); err == nil {
			t.Errorf("%s accepted as the hook binary", src)
		}
	}
	if exists(env.SettingsPath()) {
		t.Fatal("settings written although the hook binary could not be installed")
	}
}

func TestHookNextTo(t *testing.T) {
	dir := t.TempDir()
	mew := filepath.Join(dir, "mew")
	os.WriteFile(mew, []byte("x"), 0o755)
	if _, err := HookNextTo(mew); err == nil || !strings.Contains(err.Error(), "--hook") {
		t.Fatalf("no hook beside mew: %v", err)
	}
	os.WriteFile(filepath.Join(dir, HookName), []byte("x"), 0o755)
	// mew linked into another directory still finds its own hook.
	bin := t.TempDir()
	link := filepath.Join(bin, "mew")
	os.Symlink(mew, link)
	got, err := HookNextTo(link)
	realDir, _ := filepath.EvalSymlinks(dir)
	if err != nil || got != filepath.Join(realDir, HookName) {
		t.Fatalf("got %q %v", got, err)
	}
}

// An uninstall that puts settings.json back byte for byte takes away the
// backup install kept of those same bytes (issue 40: settings.json.mew-bak
// stayed); a backup of other bytes stays.
func TestRestoredUninstallLeavesNoBackup(t *testing.T) {
	env := testEnv(t)
	orig := "{\n  \"a\": 1\n}\n"
	writeSettings(t, env, orig, 0o644)
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	if b := readFile(t, env.SettingsPath()+BackupSuffix); string(b) != orig {
		t.Fatalf("install kept %q", b)
	}
	rep, err := Uninstall(Options{Env: env})
	if err != nil || !rep.Restored {
		t.Fatalf("uninstall: %v %+v", err, rep)
	}
	if exists(env.SettingsPath() + BackupSuffix) {
		t.Error("the backup of the restored bytes stayed")
	}
	// A backup that is not the restored bytes is the person's to keep.
	writeSettings(t, env, orig, 0o644)
	if _, err := Install(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(env.SettingsPath()+BackupSuffix, []byte("{\"other\": 1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(Options{Env: env}); err != nil {
		t.Fatal(err)
	}
	if !exists(env.SettingsPath() + BackupSuffix) {
		t.Error("a backup of other bytes was removed")
	}
}

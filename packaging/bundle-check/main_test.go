package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func repoPlist(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../Info.plist")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestRepoPlistIsValid(t *testing.T) {
	info, problems := checkPlist([]byte(repoPlist(t)))
	if len(problems) > 0 {
		t.Fatalf("Info.plist problems: %v", problems)
	}
	for key, want := range map[string]any{
		"CFBundleIdentifier":     "dev.mew.Mew",
		"CFBundleExecutable":     "mew",
		"LSMinimumSystemVersion": "13.0",
		"LSUIElement":            true,
	} {
		if info[key] != want {
			t.Errorf("%s = %#v, want %#v", key, info[key], want)
		}
	}
}

// replaceValue swaps the value element on the line after <key>key</key>;
// an empty with deletes the key and its value.
func replaceValue(t *testing.T, doc, key, with string) string {
	t.Helper()
	tag := "<key>" + key + "</key>"
	i := strings.Index(doc, tag)
	if i < 0 {
		t.Fatalf("no %s in the plist", key)
	}
	rest := doc[i+len(tag):]
	start := strings.Index(rest, "<")
	end := start + strings.Index(rest[start:], "\n")
	if with == "" {
		lineStart := strings.LastIndex(doc[:i], "\n") + 1
		return doc[:lineStart] + rest[end+1:]
	}
	return doc[:i+len(tag)] + rest[:start] + with + rest[end:]
}

func TestPlistProblemsAreNamed(t *testing.T) {
	good := repoPlist(t)
	cases := []struct {
		key, value, want string
	}{
		{"LSUIElement", "", "LSUIElement is missing"},
		{"LSUIElement", "<false/>", "LSUIElement is false"},
		{"LSUIElement", "<string>1</string>", "LSUIElement is a string"},
		{"CFBundleIdentifier", "<string>mew</string>", "not a reverse-DNS id"},
		{"CFBundleIdentifier", "<string>dev..mew</string>", "not a reverse-DNS id"},
		{"CFBundleIdentifier", "<string>dev.mew.Mew app</string>", "not a reverse-DNS id"},
		{"CFBundleIdentifier", "", "CFBundleIdentifier is missing"},
		{"LSMinimumSystemVersion", "<string>12.6</string>", "older than macOS 13"},
		{"LSMinimumSystemVersion", "<string>Ventura</string>", "not a macOS version"},
		{"LSMinimumSystemVersion", "<real>13</real>", "LSMinimumSystemVersion is a float64"},
		{"NSAppleEventsUsageDescription", "", "NSAppleEventsUsageDescription is missing"},
		{"NSAppleEventsUsageDescription", "<string>Needed.</string>", "too short"},
		{"CFBundleExecutable", "<string>../mew</string>", "plain file name"},
		{"CFBundlePackageType", "<string>FMWK</string>", `want "APPL"`},
		{"CFBundleShortVersionString", "<string>v0.1</string>", "not like 1.2.3"},
		{"CFBundleVersion", "<string></string>", "CFBundleVersion is empty"},
		{"CFBundleIconFile", "", "CFBundleIconFile is missing"},
	}
	for _, c := range cases {
		doc := replaceValue(t, good, c.key, c.value)
		_, problems := checkPlist([]byte(doc))
		joined := strings.Join(problems, "\n")
		if !strings.Contains(joined, c.want) {
			t.Errorf("%s = %q: problems %q lack %q", c.key, c.value, joined, c.want)
		}
	}
	if _, problems := checkPlist([]byte("{not a plist")); len(problems) != 1 || !strings.Contains(problems[0], "not a property list") {
		t.Errorf("garbage: problems = %v", problems)
	}
}

type fixture struct {
	dir, plist, icon, mew, hook string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	dir := t.TempDir()
	f := fixture{
		dir:   dir,
		plist: "../../Info.plist",
		icon:  "../../assets/Mew.icns",
		mew:   filepath.Join(dir, "mew.bin"),
		hook:  filepath.Join(dir, "hook.bin"),
	}
	for _, p := range []string{f.mew, f.hook} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o600); err != nil { // not executable: assemble must fix it
			t.Fatal(err)
		}
	}
	return f
}

func (f fixture) assemble(t *testing.T, app string) {
	t.Helper()
	if err := assemble(assembly{Plist: f.plist, Icon: f.icon, Mew: f.mew, Hook: f.hook, App: app}); err != nil {
		t.Fatal(err)
	}
}

func TestAssembledBundlePassesAndDamageIsFound(t *testing.T) {
	f := newFixture(t)
	app := filepath.Join(f.dir, "Mew.app")
	f.assemble(t, app)
	for _, rel := range []string{"Contents/Info.plist", "Contents/MacOS/mew", "Contents/MacOS/mew-hook", "Contents/Resources/Mew.icns", "Contents/PkgInfo"} {
		if _, err := os.Stat(filepath.Join(app, rel)); err != nil {
			t.Errorf("layout: %v", err)
		}
	}
	if problems := checkBundle(app, nil); len(problems) > 0 {
		t.Fatalf("fresh bundle: %v", problems)
	}
	// Assembling again replaces the earlier bundle (no stale files).
	if err := os.WriteFile(filepath.Join(app, "Contents", "stale"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f.assemble(t, app)
	if problems := checkBundle(app, nil); len(problems) > 0 {
		t.Fatalf("re-assembled bundle: %v", problems)
	}

	damages := []struct {
		name   string
		damage func(contents string) error
		want   string
	}{
		{"hook missing", func(c string) error { return os.Remove(filepath.Join(c, "MacOS", "mew-hook")) }, "no Contents/MacOS/mew-hook"},
		{"mew not executable", func(c string) error { return os.Chmod(filepath.Join(c, "MacOS", "mew"), 0o644) }, "Contents/MacOS/mew is not executable"},
		{"icon damaged", func(c string) error {
			return os.WriteFile(filepath.Join(c, "Resources", "Mew.icns"), []byte("icns\x00\x00\x00\x09x"), 0o644)
		}, "Contents/Resources/Mew.icns"},
		{"stray file", func(c string) error { return os.WriteFile(filepath.Join(c, "notes.txt"), nil, 0o644) }, "unexpected Contents/notes.txt"},
		{"plist broken", func(c string) error {
			doc := replaceValue(t, repoPlist(t), "LSUIElement", "<false/>")
			return os.WriteFile(filepath.Join(c, "Info.plist"), []byte(doc), 0o644)
		}, "Contents/Info.plist: LSUIElement is false"},
	}
	for _, d := range damages {
		f.assemble(t, app)
		if err := d.damage(filepath.Join(app, "Contents")); err != nil {
			t.Fatal(err)
		}
		problems := strings.Join(checkBundle(app, nil), "\n")
		if !strings.Contains(problems, d.want) {
			t.Errorf("%s: problems %q lack %q", d.name, problems, d.want)
		}
	}
}

func TestAssembleLeavesNonBundlesAlone(t *testing.T) {
	f := newFixture(t)
	notABundle := filepath.Join(f.dir, "Photos.app")
	keep := filepath.Join(notABundle, "precious")
	if err := os.MkdirAll(notABundle, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keep, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := assemble(assembly{Plist: f.plist, Icon: f.icon, Mew: f.mew, Hook: f.hook, App: notABundle})
	if err == nil || !strings.Contains(err.Error(), "not an app bundle") {
		t.Errorf("err = %v, want a refusal", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("the directory was touched: %v", err)
	}
	if err := assemble(assembly{Plist: f.plist, Icon: f.icon, Mew: f.mew, Hook: f.hook, App: filepath.Join(f.dir, "Mew")}); err == nil {
		t.Error("assembled a bundle whose name does not end in .app")
	}
}

// machoHeader is the 32-byte header of a 64-bit little-endian Mach-O
// executable with no load commands: enough for debug/macho.
func machoHeader(cpu uint32) []byte {
	var b bytes.Buffer
	for _, v := range []uint32{0xfeedfacf, cpu, 0, 2 /* MH_EXECUTE */, 0, 0, 0, 0} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	return b.Bytes()
}

// universal packs thin images the way lipo does.
func universal(images map[uint32][]byte, order []uint32) []byte {
	const align = 12 // 4096
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, []uint32{0xcafebabe, uint32(len(order))})
	offset := uint32(1 << align)
	for _, cpu := range order {
		binary.Write(&b, binary.BigEndian, []uint32{cpu, 0, offset, uint32(len(images[cpu])), align})
		offset += 1 << align
	}
	for _, cpu := range order {
		b.Write(make([]byte, (1<<align)-b.Len()%(1<<align)))
		b.Write(images[cpu])
	}
	return b.Bytes()
}

func TestMachOArchitectures(t *testing.T) {
	const arm64, amd64 = 0x0100000c, 0x01000007
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	thin := write("thin", machoHeader(arm64))
	fat := write("fat", universal(map[uint32][]byte{arm64: machoHeader(arm64), amd64: machoHeader(amd64)}, []uint32{arm64, amd64}))
	self, err := os.Executable() // this test binary: ELF on Linux
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path   string
		arches []string
		want   string // "" = passes
	}{
		{thin, []string{"arm64"}, ""},
		{thin, []string{"arm64", "amd64"}, "lacks amd64"},
		{fat, []string{"arm64", "amd64"}, ""},
		{self, []string{"arm64"}, "not a Mach-O executable"},
		{thin, []string{"riscv64"}, "unknown architecture"},
	} {
		err := checkMachO(c.path, c.arches)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %v: %v", filepath.Base(c.path), c.arches, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %v: err = %v, want %q", filepath.Base(c.path), c.arches, err, c.want)
		}
	}
}

func TestRunExitCodes(t *testing.T) {
	f := newFixture(t)
	app := filepath.Join(f.dir, "Mew.app")
	var out, errOut bytes.Buffer
	code := run([]string{"-plist", f.plist, "-icon", f.icon, "-assemble", "-mew", f.mew, "-hook", f.hook, app}, &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "Mew.app ok") {
		t.Fatalf("assemble: exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
	// The test binaries are not Mach-O, which -macho must catch.
	errOut.Reset()
	if code := run([]string{"-macho", "arm64,amd64", app}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "Contents/MacOS/mew: not a Mach-O executable") {
		t.Errorf("-macho on Linux binaries: exit %d, stderr %q", code, errOut.String())
	}
	bad := filepath.Join(f.dir, "Info.plist")
	if err := os.WriteFile(bad, []byte(replaceValue(t, repoPlist(t), "LSUIElement", "")), 0o644); err != nil {
		t.Fatal(err)
	}
	errOut.Reset()
	if code := run([]string{"-plist", bad}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "LSUIElement is missing") {
		t.Errorf("bad plist: exit %d, stderr %q", code, errOut.String())
	}
	errOut.Reset()
	if code := run([]string{"-plist", bad, "-icon", f.icon, "-assemble", "-mew", f.mew, "-hook", f.hook, filepath.Join(f.dir, "Other.app")}, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "LSUIElement is missing") {
		t.Errorf("assembling with a bad plist: exit %d, stderr %q", code, errOut.String())
	}
	if _, err := os.Stat(filepath.Join(f.dir, "Other.app")); err == nil {
		t.Error("a bundle was assembled from a bad plist")
	}
	if code := run([]string{"-assemble", app}, &out, &errOut); code != 2 {
		t.Errorf("-assemble without binaries: exit %d, want 2", code)
	}
}

// Every API Mew calls that macOS guards has its usage key in Info.plist
// (macOS 15+ blocks the app's ssh children on the LAN without
// NSLocalNetworkUsageDescription, silently), and the table says which APIs
// Mew calls: a row's Mew flag is whether its marker is in Mew's sources.
func TestUsageKeyForEveryAPIMewCalls(t *testing.T) {
	info, _ := checkPlist([]byte(repoPlist(t)))
	for _, key := range []string{"NSAppleEventsUsageDescription", "NSLocalNetworkUsageDescription"} {
		if s, _ := info[key].(string); len(strings.Fields(s)) < 5 {
			t.Errorf("Info.plist: %s = %q", key, s)
		}
	}
	src := mewSources(t)
	for _, u := range usageKeys {
		if used := strings.Contains(src, u.Marker); used != u.Mew {
			t.Errorf("%s (%s in the sources: %v): the table says Mew=%v", u.API, u.Marker, used, u.Mew)
		}
		if s, _ := info[u.Key].(string); u.Mew && s == "" {
			t.Errorf("%s: Info.plist has no %s", u.API, u.Key)
		}
	}
}

// mewSources is every Go source of the module that the programs build
// (no tests, no e2e drivers, no tools, no test helpers).
func mewSources(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir("../..", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			switch {
			case p == "../../e2e", p == "../../tools", p == "../../packaging", name == "testdata", strings.HasSuffix(name, "test"), strings.HasPrefix(name, "."):
				if p != "../.." {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			b.Write(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The cask is Ruby and is only run by Homebrew on a Mac; this keeps what
// it says in step with Info.plist and with what `make app` produces.
func TestCaskMatchesPlist(t *testing.T) {
	data, err := os.ReadFile("../mew.rb")
	if err != nil {
		t.Fatal(err)
	}
	cask := string(data)
	info, problems := checkPlist([]byte(repoPlist(t)))
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	field := func(pattern string) string {
		m := regexp.MustCompile(pattern).FindStringSubmatch(cask)
		if m == nil {
			t.Fatalf("cask lacks %s", pattern)
		}
		return m[1]
	}
	if v := field(`(?m)^\s*version "([^"]+)"`); v != info["CFBundleShortVersionString"] {
		t.Errorf("cask version %q, Info.plist CFBundleShortVersionString %q", v, info["CFBundleShortVersionString"])
	}
	if u := field(`(?m)^\s*url "([^"]+)"`); !strings.HasSuffix(u, "/Mew-#{version}.zip") {
		t.Errorf("cask url %q does not fetch the zip make app names Mew-<version>.zip", u)
	}
	if a := field(`(?m)^\s*app "([^"]+)"`); a != "Mew.app" {
		t.Errorf("cask installs %q, make app builds Mew.app", a)
	}
	if b := field(`(?m)^\s*binary "([^"]+)"`); b != "#{appdir}/Mew.app/Contents/MacOS/"+info["CFBundleExecutable"].(string) {
		t.Errorf("cask binary %q is not the bundle's executable", b)
	}
	if q := field(`uninstall quit: "([^"]+)"`); q != info["CFBundleIdentifier"] {
		t.Errorf("cask quits %q, the bundle id is %q", q, info["CFBundleIdentifier"])
	}
	// Homebrew names macOS releases; 13 is Ventura. The bare symbol (this
	// release or later): the ">= :ventura" string form is deprecated and
	// warns on every upgrade.
	if m := field(`(?m)^\s*depends_on macos: :(\w+)\s*$`); m != "ventura" || info["LSMinimumSystemVersion"] != "13.0" {
		t.Errorf("cask needs macOS %q, Info.plist LSMinimumSystemVersion %q", m, info["LSMinimumSystemVersion"])
	}
}

// An ad-hoc build must tell the person what each upgrade undoes: the
// quarantine, and the Automation permission (which macOS keeps refusing,
// switch on, until it is reset).
func TestCaskSaysWhatAnAdHocUpgradeNeeds(t *testing.T) {
	data, err := os.ReadFile("../mew.rb")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"com.apple.quarantine", "tccutil reset AppleEvents dev.mew.Mew", "every upgrade"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the cask's caveats do not say %q", want)
		}
	}
	if strings.Contains(string(data), "no-quarantine\"") || strings.Contains(string(data), ">= :") {
		t.Errorf("the cask uses a removed or deprecated form")
	}
}

// The cask links both binaries, and its caveats follow the signing: an
// ad-hoc build's tell what every upgrade undoes, a notarized build's do not
// send the person to xattr and tccutil for nothing.
func TestCaskLinksBothBinariesAndCaveatsFollowSigning(t *testing.T) {
	data, err := os.ReadFile("../mew.rb")
	if err != nil {
		t.Fatal(err)
	}
	template := string(data)
	for _, b := range []string{"mew", "mew-hook"} {
		if !strings.Contains(template, `binary "#{appdir}/Mew.app/Contents/MacOS/`+b+`"`) {
			t.Errorf("the cask does not link %s", b)
		}
	}
	sum := strings.Repeat("ab", 32)
	adhoc, err := caskFor(template, false, sum)
	if err != nil {
		t.Fatal(err)
	}
	notarized, err := caskFor(template, true, sum)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"ad-hoc", "tccutil", "com.apple.quarantine"} {
		if !strings.Contains(adhoc, w) {
			t.Errorf("ad-hoc caveats lack %q", w)
		}
		if strings.Contains(notarized, w) {
			t.Errorf("notarized caveats say %q", w)
		}
	}
	for name, c := range map[string]string{"adhoc": adhoc, "notarized": notarized} {
		if strings.Contains(c, "[ad-hoc:") || strings.Contains(c, ":no_check") || !strings.Contains(c, `sha256 "`+sum+`"`) {
			t.Errorf("%s cask: markers or checksum wrong:\n%s", name, c)
		}
		if !strings.Contains(c, "mew install") || !strings.Contains(c, "EOS") {
			t.Errorf("%s cask lost the common caveats", name)
		}
	}
	if _, err := caskFor(template, true, "nothex"); err == nil {
		t.Error("a bad checksum accepted")
	}
}

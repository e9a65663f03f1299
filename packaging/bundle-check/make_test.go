package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"howett.net/plist"
)

// make sign and make notarize run only on a Mac; DRY_RUN=1 prints their
// commands, which is what these tests read.
func makeDry(t *testing.T, args ...string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	out, err := exec.Command("make", append([]string{"-s", "-C", root, "DRY_RUN=1"}, args...)...).CombinedOutput()
	return string(out), err
}

const identity = "Developer ID Application: Jane Doe (TEAMID1234)"

func lines(s string) []string { return strings.Split(strings.TrimSpace(s), "\n") }

func TestSignAdHocByDefault(t *testing.T) {
	out, err := makeDry(t, "sign")
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := []string{
		"codesign --force --sign - bin/app/Mew.app/Contents/MacOS/mew-hook",
		"codesign --force --sign - bin/app/Mew.app",
		"codesign --verify --deep --strict --verbose=2 bin/app/Mew.app",
	}
	if got := lines(out); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("make sign:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
}

func TestSignWithDeveloperIDUsesTheHardenedRuntime(t *testing.T) {
	out, err := makeDry(t, "sign", "SIGN_IDENTITY="+identity)
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	quoted := `Developer\ ID\ Application:\ Jane\ Doe\ \(TEAMID1234\)`
	want := []string{
		"codesign --force --timestamp --options runtime --sign " + quoted + " bin/app/Mew.app/Contents/MacOS/mew-hook",
		"codesign --force --timestamp --options runtime --sign " + quoted + " --entitlements packaging/entitlements.plist bin/app/Mew.app",
		"codesign --verify --deep --strict --verbose=2 bin/app/Mew.app",
	}
	if got := lines(out); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("make sign:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
}

func TestNotarizeSubmitsWaitsAndStaples(t *testing.T) {
	out, err := makeDry(t, "notarize", "SIGN_IDENTITY="+identity, "NOTARY_PROFILE=my-profile")
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	info, problems := checkPlist([]byte(repoPlist(t)))
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	zip := "bin/app/Mew-" + info["CFBundleShortVersionString"].(string) + ".zip"
	want := []string{
		"xcrun notarytool submit " + zip + " --keychain-profile my-profile --wait --output-format json",
		"xcrun notarytool log <id> --keychain-profile my-profile   # unless Accepted, then fail",
		"xcrun stapler staple bin/app/Mew.app",
		"xcrun stapler validate bin/app/Mew.app",
		"spctl --assess --type execute --verbose=2 bin/app/Mew.app",
		"rm -f " + zip,
		"ditto -c -k --keepParent bin/app/Mew.app " + zip, // the stapled app, zipped again
		"shasum -a 256 " + zip,
		"bundle-check -cask notarized -sha256 <the zip's> packaging/mew.rb > bin/app/mew.rb", // no ad-hoc caveats
	}
	if got := lines(out); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("make notarize:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
}

func TestNotarizeRefusesAnAdHocApp(t *testing.T) {
	out, err := makeDry(t, "notarize")
	if err == nil || !strings.Contains(out, "needs a Developer ID") || strings.Contains(out, "notarytool") {
		t.Errorf("make notarize without an identity: %v\n%s", err, out)
	}
}

// The entitlements file is a plist holding the Apple Events entitlement
// the hardened runtime requires for osascript's events to go through.
func TestEntitlementsAllowAppleEvents(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "entitlements.plist"))
	if err != nil {
		t.Fatal(err)
	}
	var ent map[string]any
	if _, err := plist.Unmarshal(data, &ent); err != nil {
		t.Fatal(err)
	}
	if ent["com.apple.security.automation.apple-events"] != true || len(ent) != 1 {
		t.Errorf("entitlements: %v", ent)
	}
}

// notarytool exits 0 with an "Invalid" verdict: make notarize fails on any
// verdict but Accepted and shows Apple's log (a fake xcrun answers as
// notarytool does).
func TestNotarizeFailsWithAppleLogUnlessAccepted(t *testing.T) {
	dir := t.TempDir()
	xcrun := filepath.Join(dir, "xcrun")
	script := `#!/bin/sh
case "$2" in
submit) printf '{"id":"2efe2717-52ef-43a5-96dc-0797e4ca1041","status":"%s","message":"Processing complete"}\n' "$VERDICT" ;;
log) echo '{"issues":[{"severity":"error","path":"Mew.zip/Mew.app/Contents/MacOS/mew-hook","message":"The signature does not include a secure timestamp."}]}' ;;
esac
exit 0
`
	if err := os.WriteFile(xcrun, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		verdict string
		code    int
	}{{"Invalid", 1}, {"Rejected", 1}, {"In Progress", 1}, {"Accepted", 0}} {
		t.Setenv("VERDICT", c.verdict)
		var out, errb strings.Builder
		code := run([]string{"-notarize", "-profile", "p", "-xcrun", xcrun, "Mew.zip"}, &out, &errb)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d (%s)", c.verdict, code, c.code, errb.String())
		}
		if c.code != 0 && !strings.Contains(errb.String(), "secure timestamp") {
			t.Errorf("%s: Apple's log not shown: %s", c.verdict, errb.String())
		}
	}
}

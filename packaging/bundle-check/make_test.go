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
		"xcrun notarytool submit " + zip + " --keychain-profile my-profile --wait",
		"xcrun stapler staple bin/app/Mew.app",
		"xcrun stapler validate bin/app/Mew.app",
		"spctl --assess --type execute --verbose=2 bin/app/Mew.app",
		"rm -f " + zip,
		"ditto -c -k --keepParent bin/app/Mew.app " + zip, // the stapled app, zipped again
		"shasum -a 256 " + zip,
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

package main

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"howett.net/plist"
)

// MinimumMacOS is the oldest macOS Mew supports: SMAppService (the login
// item) needs 13.
const MinimumMacOS = 13

// HookExecutable is the hook binary the bundle carries beside the app's
// own executable; `mew install` points agents at it.
const HookExecutable = "mew-hook"

var (
	// Apple: bundle ids use letters, digits, hyphens and periods, reverse-DNS.
	bundleIDPattern = regexp.MustCompile(`^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$`)
	// CFBundleShortVersionString is three period-separated integers at most.
	shortVersionPattern = regexp.MustCompile(`^[0-9]+(\.[0-9]+){0,2}$`)
	macOSVersionPattern = regexp.MustCompile(`^([0-9]+)(\.[0-9]+){0,2}$`)
)

// requiredStrings are the keys a bundle cannot go without, with the value
// each must have ("" = any non-empty string, checked further below).
var requiredStrings = map[string]string{
	"CFBundleIdentifier":            "",
	"CFBundleExecutable":            "",
	"CFBundleName":                  "",
	"CFBundleIconFile":              "",
	"CFBundlePackageType":           "APPL",
	"CFBundleInfoDictionaryVersion": "6.0",
	"CFBundleShortVersionString":    "",
	"CFBundleVersion":               "",
	"LSMinimumSystemVersion":        "",
	// The usage keys of the APIs Mew calls (usageKeys) are added by
	// init: without one macOS refuses the API outright instead of asking.
}

func init() {
	for _, u := range usageKeys {
		if u.Mew {
			requiredStrings[u.Key] = ""
		}
	}
}

// checkPlist parses an Info.plist and lists everything wrong with it.
func checkPlist(data []byte) (map[string]any, []string) {
	var info map[string]any
	if _, err := plist.Unmarshal(data, &info); err != nil {
		return nil, []string{"not a property list: " + err.Error()}
	}
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	str := func(key string) string { s, _ := info[key].(string); return s }

	keys := make([]string, 0, len(requiredStrings))
	for k := range requiredStrings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		v, present := info[key]
		s, isString := v.(string)
		switch {
		case !present:
			add("%s is missing", key)
		case !isString:
			add("%s is a %T, want a string", key, v)
		case strings.TrimSpace(s) == "":
			add("%s is empty", key)
		case requiredStrings[key] != "" && s != requiredStrings[key]:
			add("%s is %q, want %q", key, s, requiredStrings[key])
		}
	}

	if id := str("CFBundleIdentifier"); id != "" && !bundleIDPattern.MatchString(id) {
		add("CFBundleIdentifier %q is not a reverse-DNS id (letters, digits, hyphens, at least two period-separated parts)", id)
	}
	for _, key := range []string{"CFBundleExecutable", "CFBundleIconFile"} {
		if name := str(key); strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
			add("%s %q must be a plain file name", key, name)
		}
	}
	if v := str("CFBundleShortVersionString"); v != "" && !shortVersionPattern.MatchString(v) {
		add("CFBundleShortVersionString %q is not like 1.2.3", v)
	}
	if v := str("CFBundleVersion"); v != "" && !shortVersionPattern.MatchString(v) {
		add("CFBundleVersion %q is not one to three period-separated integers", v)
	}
	if v := str("LSMinimumSystemVersion"); v != "" {
		if m := macOSVersionPattern.FindStringSubmatch(v); m == nil {
			add("LSMinimumSystemVersion %q is not a macOS version", v)
		} else if major, _ := strconv.Atoi(m[1]); major < MinimumMacOS {
			add("LSMinimumSystemVersion %q is older than macOS %d, which SMAppService needs", v, MinimumMacOS)
		}
	}
	short := map[string]bool{}
	for _, u := range usageKeys {
		if d := str(u.Key); u.Mew && d != "" && len(strings.Fields(d)) < 5 && !short[u.Key] {
			short[u.Key] = true
			add("%s %q is too short to tell the user why", u.Key, d)
		}
	}
	// A menu-bar app without a Dock icon: it must be a real boolean true.
	switch v := info["LSUIElement"].(type) {
	case nil:
		add("LSUIElement is missing; Mew would show a Dock icon")
	case bool:
		if !v {
			add("LSUIElement is false; Mew would show a Dock icon")
		}
	default:
		add("LSUIElement is a %T, want <true/>", v)
	}
	return info, problems
}

// iconResource is the file name CFBundleIconFile points at in Resources;
// macOS adds the .icns extension when it is left out.
func iconResource(info map[string]any) string {
	name, _ := info["CFBundleIconFile"].(string)
	if name != "" && !strings.HasSuffix(name, ".icns") {
		name += ".icns"
	}
	return name
}

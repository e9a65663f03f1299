package main

import (
	"errors"
	"regexp"
	"strings"
)

// The lines of the cask template around what only an ad-hoc build's
// caveats say (the quarantine and the Automation reset after every
// upgrade): a notarized build needs neither, and saying so would send the
// person to tccutil for nothing.
const (
	adHocBegin = "[ad-hoc: begin]"
	adHocEnd   = "[ad-hoc: end]"
)

var (
	sha256Pattern = regexp.MustCompile(`^[0-9a-f]{64}$`)
	noCheck       = regexp.MustCompile(`(?m)^(\s*sha256 ):no_check$`)
)

// caskFor is the cask for one built zip from the template: its checksum
// (sha256; "" keeps :no_check), and the caveats of its signing.
func caskFor(template string, notarized bool, sha256 string) (string, error) {
	if sha256 != "" && !sha256Pattern.MatchString(sha256) {
		return "", errors.New("the checksum is not a SHA-256 in hex")
	}
	if strings.Count(template, adHocBegin) != 1 || strings.Count(template, adHocEnd) != 1 {
		return "", errors.New("the cask template lacks its ad-hoc markers")
	}
	kind := "an ad-hoc signed"
	if notarized {
		kind = "a notarized"
	}
	// The template's own header (how it is used) gives way to one line.
	lines := strings.Split(template, "\n")
	for len(lines) > 0 && strings.HasPrefix(lines[0], "#") {
		lines = lines[1:]
	}
	out := []string{"# Mew's Homebrew cask for " + kind + " build, written by make from packaging/mew.rb."}
	in := false
	for _, l := range lines {
		switch strings.TrimSpace(l) {
		case adHocBegin:
			in = true
			continue
		case adHocEnd:
			in = false
			continue
		}
		if in && notarized {
			continue
		}
		out = append(out, l)
	}
	cask := strings.Join(out, "\n")
	if sha256 != "" {
		cask = noCheck.ReplaceAllString(cask, `${1}"`+sha256+`"`)
	}
	return cask, nil
}

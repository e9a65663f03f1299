package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// notarySubmission is what `xcrun notarytool submit --wait --output-format
// json` prints once Apple's verdict is in.
type notarySubmission struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Message string `json:"message"`
}

// notaryVerdict reads notarytool's answer: nil only for "Accepted".
// notarytool exits 0 for an "Invalid" verdict too, so the exit status
// alone let make notarize go on to staple nothing.
func notaryVerdict(out []byte) (notarySubmission, error) {
	var s notarySubmission
	if err := json.Unmarshal(bytes.TrimSpace(out), &s); err != nil {
		return s, fmt.Errorf("notarytool's answer is not its JSON: %v: %q", err, clip(string(out), 200))
	}
	if s.Status != "Accepted" {
		return s, fmt.Errorf("Apple's verdict is %q, not Accepted (submission %s): %s", s.Status, s.ID, s.Message)
	}
	return s, nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// notarize submits zip with the stored credentials profile and waits; on
// any verdict but Accepted it prints Apple's log for the submission (what
// was wrong, file by file) and fails. dry prints the commands instead.
func notarize(xcrun, profile, zip string, dry bool, stdout, stderr io.Writer) int {
	submit := []string{"notarytool", "submit", zip, "--keychain-profile", profile, "--wait", "--output-format", "json"}
	if dry {
		fmt.Fprintln(stdout, "xcrun "+strings.Join(submit, " "))
		fmt.Fprintln(stdout, "xcrun notarytool log <id> --keychain-profile "+profile+"   # unless Accepted, then fail")
		return 0
	}
	cmd := exec.Command(xcrun, submit...)
	cmd.Stderr = stderr
	out, err := cmd.Output()
	s, verdict := notaryVerdict(out)
	if err == nil && verdict == nil {
		fmt.Fprintf(stdout, "bundle-check: notarization Accepted (submission %s)\n", s.ID)
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "bundle-check: notarytool submit:", err)
	}
	if verdict != nil {
		fmt.Fprintln(stderr, "bundle-check:", verdict)
	}
	if s.ID != "" {
		log := exec.Command(xcrun, "notarytool", "log", s.ID, "--keychain-profile", profile)
		log.Stdout, log.Stderr = stderr, stderr
		fmt.Fprintln(stderr, "bundle-check: Apple's log of submission "+s.ID+":")
		if err := log.Run(); err != nil {
			fmt.Fprintln(stderr, "bundle-check: notarytool log:", err)
		}
	}
	return 1
}

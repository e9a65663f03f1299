package install

import (
	"fmt"
	"strings"
)

// codexAsks is in every finding of checkCodexTrust that says Codex will
// show its review dialog at its next start.
const codexAsks = "Hooks need review"

// CodexAsksReview reports whether Codex, started now, asks the person to
// review Mew's hooks ("Hooks need review") before it starts a session:
// they are in env's hooks.json and some is not trusted (new, or changed
// since it was trusted), and Codex's hooks are not turned off. The Codex
// source shows a Codex that has no session then as waiting on that
// dialog (issue 40, item 6); the doctor's check decides it.
func CodexAsksReview(e Env) bool {
	want, err := Codex.Want(e)
	if err != nil {
		return false
	}
	asks, off := false, false
	checkCodexTrust(DoctorOptions{Env: e}, want, func(l Level, format string, args ...any) {
		switch {
		case l == Problem:
			off = true // hooks turned off: Codex runs none, and asks nothing
		case l == Warning && strings.Contains(fmt.Sprintf(format, args...), codexAsks):
			asks = true
		}
	})
	return asks && !off
}

package act

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

// PickChoice finds the choice named by arg: its number, its text (any
// case), or the start of exactly one choice's text.
func PickChoice(choices []session.Choice, arg string) (session.Choice, error) {
	if len(choices) == 0 {
		return session.Choice{}, fmt.Errorf("Mew does not know this prompt's choices: answer in the terminal")
	}
	list := func() string {
		var parts []string
		for _, c := range choices {
			parts = append(parts, fmt.Sprintf("%d %q", c.N, c.Label))
		}
		return strings.Join(parts, ", ")
	}
	if n, err := strconv.Atoi(arg); err == nil {
		for _, c := range choices {
			if c.N == n {
				return c, nil
			}
		}
		return session.Choice{}, fmt.Errorf("no choice %d; the choices are %s", n, list())
	}
	var prefixed []session.Choice
	for _, c := range choices {
		if strings.EqualFold(c.Label, arg) {
			return c, nil
		}
		if arg != "" && len(arg) <= len(c.Label) && strings.EqualFold(c.Label[:len(arg)], arg) {
			prefixed = append(prefixed, c)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0], nil
	}
	if len(prefixed) > 1 {
		return session.Choice{}, fmt.Errorf("%q starts several choices: %s", text.Clip(arg, 81), list())
	}
	return session.Choice{}, fmt.Errorf("no choice %q; the choices are %s", text.Clip(arg, 81), list())
}

// Unexpected is the `--expect` rule: another machine's mew passes the
// label the person saw there (answer.OnRemote), and nothing is typed unless
// choice still has it. The label came as one line of plain text, so it
// is compared as one. It gives the refusal, ok false when choice is the
// expected one.
func Unexpected(choice session.Choice, expected string) (refused answer.Result, ok bool) {
	if text.OneLine(choice.Label, remote.MaxLabel) == text.OneLine(expected, remote.MaxLabel) {
		return answer.Result{}, false
	}
	return answer.Result{Outcome: answer.Refused, Started: time.Now(),
		Message: fmt.Sprintf("typed nothing: the prompt changed (choice %d is now %q, not %q)", choice.N, text.OneLine(choice.Label, 60), text.OneLine(expected, 60))}, true
}

package board

import (
	"fmt"
	"strings"

	"github.com/mew-dev/mew/session"
)

// AnswerKind is what picking a choice on the board does.
type AnswerKind int

const (
	// NoAnswer: nothing (not a choice key, not a waiting row, no such
	// choice); Why says why when there is something to say.
	NoAnswer AnswerKind = iota
	// TypeAnswer: Mew types the choice into the session's terminal
	// (package answer, after reading the screen again).
	TypeAnswer
	// AnswerElsewhere: Mew cannot type into that terminal: the person
	// answers there, and the jump brings it forward.
	AnswerElsewhere
)

// AnswerAction is the decision for a choice picked on a row.
type AnswerAction struct {
	Kind   AnswerKind
	Choice session.Choice
	Why    string
}

// ElsewhereWhy is what the boards say of a prompt Mew cannot type into.
const ElsewhereWhy = "answer in the terminal"

// Answerable reports whether the row is a prompt the board offers choices
// for: a settled wait with known choices.
func Answerable(r Row) bool {
	return r.State == session.Waiting && len(r.Session.Choices) > 0
}

// typable reports whether Mew can type into the row's terminal: one the
// Mew of its machine knows a way into (answer_via). A session on another
// machine (`mew remote`) is answered by the mew there, over ssh: not while
// that machine cannot be reached.
func typable(r Row) bool { return r.Session.AnswerVia != "" && !r.Session.Offline }

// Answer decides what picking choice n on row r does.
func Answer(r Row, n int) AnswerAction {
	if r.State != session.Waiting {
		return AnswerAction{}
	}
	if len(r.Session.Choices) == 0 {
		return AnswerAction{Why: "Mew does not know this prompt's choices: " + ElsewhereWhy}
	}
	for _, c := range r.Session.Choices {
		if c.N != n {
			continue
		}
		if !typable(r) {
			return AnswerAction{Kind: AnswerElsewhere, Choice: c, Why: ElsewhereWhy}
		}
		return AnswerAction{Kind: TypeAnswer, Choice: c}
	}
	return AnswerAction{Why: fmt.Sprintf("no choice %d here", n)}
}

// AnswerKey decides what a key pressed on the terminal board does on row
// r: the digits 1-9 pick a choice; any other key is no answer.
func AnswerKey(r Row, key string) AnswerAction {
	if len(key) != 1 || key[0] < '1' || key[0] > '9' {
		return AnswerAction{}
	}
	return Answer(r, int(key[0]-'0'))
}

// ChoicesLine is a waiting row's choices on one line ("1 Yes · 2 No"), or
// what to do when Mew cannot type them; "" for a row with none.
func ChoicesLine(r Row) string {
	if !Answerable(r) {
		return ""
	}
	if !typable(r) {
		return ElsewhereWhy + " (enter jumps there)"
	}
	parts := make([]string, len(r.Session.Choices))
	for i, c := range r.Session.Choices {
		parts[i] = fmt.Sprintf("%d %s", c.N, c.Label)
	}
	return strings.Join(parts, " · ")
}

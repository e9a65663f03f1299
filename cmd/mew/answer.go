package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
)

func init() {
	add(&command{
		name: "answer", summary: "answer a waiting session's prompt from here (approve, deny, pick an option)",
		args: "<session id or unique prefix> [choice]",
		help: `Types the answer into the session's terminal (tmux pane, 'mew run', iTerm2 on macOS),
only while it still shows the same prompt; the choice is its number or its text.
With no choice, lists the choices.
Exit status: 0 answered; 1 nothing typed, or the prompt stayed; 2 usage, unknown session or choice;
3 Mew cannot type into that terminal (answer there; 'mew jump' brings it forward).`,
		setup: answerFlags,
	})
}

type answerOptions struct {
	json    bool
	confirm time.Duration
	expect  string
}

func answerFlags(fs *flag.FlagSet) runFunc {
	var o answerOptions
	fs.BoolVar(&o.json, "json", false, "print the result (or, with no choice, the choices) as JSON")
	fs.DurationVar(&o.confirm, "confirm", answer.Confirm, "how long the prompt has to go away after the keys")
	fs.StringVar(&o.expect, "expect", "", "type nothing unless the choice's label is this one, in base64url (how another machine's Mew passes what the person saw)")
	return func(args []string, stdout, stderr io.Writer) int { return runAnswer(o, args, stdout, stderr) }
}

// Exit codes of `mew answer`, in the manner of `mew jump`'s.
const (
	answerDone      = 0 // typed, and the prompt went away
	answerNot       = 1 // nothing typed (refused), or typed and the prompt stayed
	answerUsage     = 2 // bad arguments, no such session or choice
	answerElsewhere = 3 // Mew cannot type there: answer in the terminal
)

func runAnswer(opt answerOptions, args []string, stdout, stderr io.Writer) int {
	asJSON, confirm, expect := &opt.json, &opt.confirm, &opt.expect
	if len(args) < 1 || len(args) > 2 {
		return usageError(stderr, "mew answer", "want a session id and at most one choice, got %d arguments", len(args))
	}
	fs := argList(args)
	if *confirm < 100*time.Millisecond || *confirm > 30*time.Second {
		fmt.Fprintln(stderr, "mew answer: --confirm must be between 100ms and 30s")
		return answerUsage
	}
	want := fs.Arg(0)
	if !session.ValidID(want) {
		fmt.Fprintf(stderr, "mew answer: %q is not a session id or prefix (letters, digits, '-' and '_' only)\n", jumpClip(want))
		return answerUsage
	}
	o, err := monitorOptions()
	if err != nil {
		fmt.Fprintf(stderr, "mew answer: %v\n", err)
		return answerNot
	}
	var expected *string
	if *expect != "" {
		label, err := answer.DecodeExpect(*expect)
		if err != nil {
			fmt.Fprintf(stderr, "mew answer: %v\n", err)
			return answerUsage
		}
		expected = &label
	}
	// Another machine's answer (--expect) is for this machine's sessions:
	// never passed on to this machine's remotes.
	f, err := findSession(o, want, expected == nil, stderr, "answer")
	if err != nil {
		fmt.Fprintf(stderr, "mew answer: %v\n", err)
		return answerUsage
	}
	shown, target := act.Prompt(f, o.Store.Home)
	if fs.NArg() == 1 {
		return answerList(stdout, stderr, shown, target, *asJSON)
	}
	if shown.State != session.Waiting {
		name := shortID(shown.ID)
		if f.OnRemote {
			name = f.Remote.Name + ":" + name
		}
		fmt.Fprintf(stderr, "mew answer: %s is not waiting on you (it is %s): nothing typed\n", name, shown.State)
		return answerNot
	}
	choice, err := act.PickChoice(shown.Choices, fs.Arg(1))
	if err != nil {
		fmt.Fprintf(stderr, "mew answer: %v\n", err)
		return answerUsage
	}
	if expected != nil {
		if res, refused := act.Unexpected(choice, *expected); refused {
			return answerReport(stdout, stderr, shown.ID, res, *asJSON)
		}
	}
	typist := &answer.Answerer{Home: o.Store.Home, Rules: rules.Cached(rules.Dir(o.Store.Home)), Options: answer.Options{Confirm: *confirm}}
	res := (&act.Answerer{Local: act.LocalAnswer(typist)}).AnswerFound(context.Background(), f, choice)
	return answerReport(stdout, stderr, shown.ID, res, *asJSON)
}

// answerReport prints an answer's result and returns its exit status.
func answerReport(stdout, stderr io.Writer, id string, res answer.Result, asJSON bool) int {
	code := answerNot
	switch res.Outcome {
	case answer.Answered:
		code = answerDone
	case answer.NoTerminal:
		code = answerElsewhere
		res.Message += fmt.Sprintf(" (`mew jump %s` brings it forward)", shortID(id))
	}
	if asJSON {
		if err := writeJSON(stdout, res); err != nil {
			return answerNot
		}
		return code
	}
	if code == answerDone {
		fmt.Fprintln(stdout, res.Message)
	} else {
		fmt.Fprintln(stderr, "mew answer: "+res.Message)
	}
	return code
}

// answerList prints a session's choices and where an answer would go.
func answerList(stdout, stderr io.Writer, shown session.Shown, t answer.Target, asJSON bool) int {
	if asJSON {
		if err := writeJSON(stdout, struct {
			ID      string           `json:"id"`
			State   session.State    `json:"state"`
			Reason  session.Reason   `json:"reason,omitempty"`
			Choices []session.Choice `json:"choices"`
			Target  answer.Target    `json:"target"`
		}{shown.ID, shown.State, shown.Reason, append([]session.Choice{}, shown.Choices...), t}); err != nil {
			return answerNot
		}
		return answerDone
	}
	if shown.State != session.Waiting {
		fmt.Fprintf(stdout, "%s is %s: nothing to answer\n", shortID(shown.ID), shown.State)
		return answerDone
	}
	if len(shown.Choices) == 0 {
		fmt.Fprintf(stdout, "%s waits (%s); Mew does not know the prompt's choices: answer in the terminal\n", shortID(shown.ID), shown.Reason)
		return answerDone
	}
	for _, c := range shown.Choices {
		fmt.Fprintf(stdout, "%d  %s\n", c.N, c.Label)
	}
	if t.Via == "" {
		fmt.Fprintf(stdout, "(%s; `mew jump %s` brings it forward)\n", t.Why, shortID(shown.ID))
	} else {
		fmt.Fprintf(stdout, "(`mew answer %s N` types it: %s)\n", shortID(shown.ID), t.Why)
	}
	return answerDone
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/monitor/combine"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

func init() {
	register("answer", "answer a waiting session's prompt from here (approve, deny, pick an option)", runAnswer)
}

// Exit codes of `mew answer`, in the manner of `mew jump`'s.
const (
	answerDone      = 0 // typed, and the prompt went away
	answerNot       = 1 // nothing typed (refused), or typed and the prompt stayed
	answerUsage     = 2 // bad arguments, no such session or choice
	answerElsewhere = 3 // Mew cannot type there: answer in the terminal
)

func runAnswer(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("answer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the result (or, with no choice, the choices) as JSON")
	confirm := fs.Duration("confirm", answer.Confirm, "how long the prompt has to go away after the keys")
	expect := fs.String("expect", "", "type nothing unless the choice's label is this one, in base64url (how another machine's Mew passes what the person saw)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mew answer [--json] [--confirm 2s] <session id or unique prefix> [choice]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Types the answer into the session's terminal (tmux pane, `mew run`, iTerm2 on macOS),")
		fmt.Fprintln(stderr, "only while it still shows the same prompt; the choice is its number or its text.")
		fmt.Fprintln(stderr, "With no choice, lists the choices.")
		fmt.Fprintln(stderr, "Exit status: 0 answered; 1 nothing typed, or the prompt stayed; 2 usage, unknown session or choice;")
		fmt.Fprintln(stderr, "3 Mew cannot type into that terminal (answer there; `mew jump` brings it forward).")
	}
	if err := fs.Parse(args); err != nil {
		return answerUsage
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fs.Usage()
		return answerUsage
	}
	if *confirm < 100*time.Millisecond || *confirm > 30*time.Second {
		fmt.Fprintln(stderr, "mew answer: --confirm must be between 100ms and 30s")
		return answerUsage
	}
	want := fs.Arg(0)
	if !session.ValidID(want) {
		fmt.Fprintf(stderr, "mew answer: %q is not a session id or prefix (letters, digits, '-' and '_' only)\n", jumpClip(want))
		return answerUsage
	}
	o, err := monitor.Default()
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
	recs, _ := monitor.Records(o) // a source that could not be read leaves its sessions out
	rec, err := jumpFindSession(recs, want)
	// Another machine's answer (--expect) is for this machine's sessions:
	// never passed on to this machine's remotes.
	if errors.Is(err, errNoSession) && expected == nil {
		s, r, rerr := findRemote(o.Store, want, stderr, "answer")
		if rerr == nil {
			return answerRemote(stdout, stderr, s, r, fs.Args()[1:], *asJSON)
		}
		if !errors.Is(rerr, errNoSession) {
			err = rerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "mew answer: %v\n", err)
		return answerUsage
	}
	shown := combine.Combine(rec, combine.Unknown)
	target := answer.Plan(rec, answer.LocalHost(o.Store.Home))
	if fs.NArg() == 1 {
		return answerList(stdout, stderr, shown, target, *asJSON)
	}
	if shown.State != session.Waiting {
		fmt.Fprintf(stderr, "mew answer: %s is not waiting on you (it is %s): nothing typed\n", shortID(rec.ID), shown.State)
		return answerNot
	}
	choice, err := pickChoice(shown.Choices, fs.Arg(1))
	if err != nil {
		fmt.Fprintf(stderr, "mew answer: %v\n", err)
		return answerUsage
	}
	var res answer.Result
	// The other machine saw the label as one line of plain text.
	if expected != nil && text.OneLine(choice.Label, remote.MaxLabel) != text.OneLine(*expected, remote.MaxLabel) {
		res = answer.Result{Outcome: answer.Refused, Started: time.Now(),
			Message: fmt.Sprintf("typed nothing: the prompt changed (choice %d is now %q, not %q)", choice.N, text.OneLine(choice.Label, 60), text.OneLine(*expected, 60))}
	} else {
		w := answer.WantFor(rec, choice)
		a := &answer.Answerer{Home: o.Store.Home, Rules: rules.Cached(rules.Dir(o.Store.Home)), Options: answer.Options{Confirm: *confirm}}
		res = a.Answer(context.Background(), target, w)
	}
	return answerReport(stdout, stderr, rec.ID, res, *asJSON)
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
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
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

// answerRemote is `mew answer` for a session on another machine: the
// choices as that machine reported them; an answer is typed by the mew
// there (answer.OnRemote).
func answerRemote(stdout, stderr io.Writer, s session.Shown, r remote.Remote, choiceArg []string, asJSON bool) int {
	t := answer.Target{Why: fmt.Sprintf("%s cannot be reached now", r.Name)}
	switch {
	case s.Offline:
	case s.AnswerVia == "":
		t.Why = fmt.Sprintf("the mew on %s cannot type into that terminal: %s", r.Name, board.ElsewhereWhy)
	default:
		t = answer.Target{Via: "ssh", Why: fmt.Sprintf("over ssh, by the mew on %s (%s)", r.Name, text.OneLine(s.AnswerVia, 32))}
	}
	if len(choiceArg) == 0 {
		return answerList(stdout, stderr, s, t, asJSON)
	}
	id := r.Name + ":" + shortID(s.ID)
	if s.State != session.Waiting {
		fmt.Fprintf(stderr, "mew answer: %s is not waiting on you (it is %s): nothing typed\n", id, s.State)
		return answerNot
	}
	choice, err := pickChoice(s.Choices, choiceArg[0])
	if err != nil {
		fmt.Fprintf(stderr, "mew answer: %v\n", err)
		return answerUsage
	}
	var res answer.Result
	if t.Via == "" {
		outcome := answer.NoTerminal
		if s.Offline {
			outcome = answer.Refused
		}
		res = answer.Result{Outcome: outcome, Message: "typed nothing: " + t.Why, Started: time.Now()}
	} else {
		ssh, err := remote.FindSSH()
		if err != nil {
			fmt.Fprintf(stderr, "mew answer: %v\n", err)
			return answerNot
		}
		res = answer.OnRemote(context.Background(), r, ssh, s.ID, choice, remote.RunSSH)
	}
	return answerReport(stdout, stderr, s.ID, res, asJSON)
}

// pickChoice finds the choice named by arg: its number, its text (any
// case), or the start of exactly one choice's text.
func pickChoice(choices []session.Choice, arg string) (session.Choice, error) {
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
		return session.Choice{}, fmt.Errorf("%q starts several choices: %s", jumpClip(arg), list())
	}
	return session.Choice{}, fmt.Errorf("no choice %q; the choices are %s", jumpClip(arg), list())
}

// answerList prints a session's choices and where an answer would go.
func answerList(stdout, stderr io.Writer, shown session.Shown, t answer.Target, asJSON bool) int {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
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

// Package answer answers a waiting session from outside its terminal:
// approve or deny a permission, pick a question's option, approve a plan.
//
// It answers the way the person would, by typing into the session's own
// terminal, and only after reading, at that moment, that the terminal
// still shows exactly the prompt being answered: the same agent, the same
// rule, the same dialog text and the same choice. A terminal that shows
// anything else gets nothing typed. After typing it watches the prompt go
// away (within Confirm, 2 s), or reports that it did not.
//
// The decisions are pure (Check, Plan); reading and typing go through a
// Terminal: a tmux pane (TmuxTerminal), a `mew run` wrapper (RunTerminal)
// or an iTerm2 session (ITermTerminal, macOS).
package answer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/rules"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/session"
)

// Terminal is a session's terminal as an answer uses it.
type Terminal interface {
	// Read returns what the terminal shows now.
	Read(ctx context.Context) (rules.Frame, error)
	// Type types an answer's keys (rules.ValidKey names and characters),
	// in order. A terminal that can check the prompt itself at the moment
	// of typing (a `mew run` wrapper) checks it against live too.
	Type(ctx context.Context, live Live) error
}

// A SlowReader is a Terminal whose every read is costly (iTerm2: an
// osascript process and an Apple Event): Do reads it, while waiting for
// the prompt to go, no more often than MinPoll.
type SlowReader interface {
	MinPoll() time.Duration
}

// A PromptReader is a Terminal that reads its prompt itself and gives
// only that, not its rows (a `mew run` wrapper: its socket answers any
// local process). Do checks the prompt it reports (CheckShown) instead of
// a frame, and never calls its Read.
type PromptReader interface {
	ReadPrompt(ctx context.Context) (Shown, error)
}

// Shown is a prompt as a PromptReader reports it: the screen's state (as
// the store holds it) and the keys each of its choices types.
type Shown struct {
	Screen session.ScreenState
	Keys   map[session.Choice][]string
}

// A FrameTyper types and reads, in one step, the frame the keys went to
// (tmux: one command list, capture-pane then send-keys, with no output of
// the pane read in between). Do checks that frame after typing: a prompt
// that changed since the check is reported (Changed), never answered.
type FrameTyper interface {
	TypeRead(ctx context.Context, live Live) (rules.Frame, error)
}

// ErrNotTyped is what a Terminal's Type wraps when it refused to type
// (it checked the prompt itself and found another): nothing was typed.
var ErrNotTyped = errors.New("typed nothing")

// Want is the answer the person chose and the prompt they chose it on.
type Want struct {
	SessionID string
	Agent     string
	Choice    session.Choice
	// Rule and Prompt are the prompt as the person was shown it (the
	// screen's rule and dialog text); "" when no screen showed it (a
	// question's options from the hooks): the choice alone must match.
	Rule   string
	Prompt string
	// ShownAt is when the prompt was first seen; zero when unknown.
	ShownAt time.Time
}

// Outcome is how an answer ended.
type Outcome string

const (
	// Answered: the keys were typed and the prompt went away.
	Answered Outcome = "answered"
	// Refused: nothing was typed; Result.Message says why.
	Refused Outcome = "refused"
	// Stuck: the keys were typed but the prompt was still there after
	// Confirm.
	Stuck Outcome = "stuck"
	// Failed: reading or typing did not work; nothing typed unless
	// Result.Keys says so.
	Failed Outcome = "failed"
	// Changed: the keys were typed, but the terminal showed another prompt
	// as they went or right after: they may have answered it.
	Changed Outcome = "changed"
	// NoTerminal: Mew cannot type into this session's terminal; the person
	// answers there.
	NoTerminal Outcome = "no-terminal"
)

// Result is what an answer did.
type Result struct {
	Outcome Outcome  `json:"outcome"`
	Message string   `json:"message"`
	Via     string   `json:"via,omitempty"`
	Keys    []string `json:"keys,omitempty"` // typed (nil when nothing was)
	// Rule and Prompt are the prompt as read right before typing.
	Rule   string `json:"rule,omitempty"`
	Prompt string `json:"prompt,omitempty"`
	// Started, Typed and Gone: when the answer began, when the keys went
	// and when the prompt was seen gone.
	Started time.Time `json:"started"`
	Typed   time.Time `json:"typed,omitempty"`
	Gone    time.Time `json:"gone,omitempty"`
}

// Took is the time from the start to the prompt gone (0 if it did not go).
func (r Result) Took() time.Duration {
	if r.Gone.IsZero() {
		return 0
	}
	return r.Gone.Sub(r.Started)
}

// Timing of an answer.
const (
	// Confirm is how long the prompt has to go away after the keys.
	Confirm = 2 * time.Second
	// Poll is how often the screen is read while waiting for that.
	Poll = 20 * time.Millisecond
	// Settle is how long a prompt must have been on the screen before
	// keys go to it: Claude Code 2.1.328 drops keys that arrive within
	// ~0.1 s of a dialog appearing (measured in the end-to-end suite).
	Settle = 150 * time.Millisecond
)

// Options tune Do; the zero value uses the constants above and the clock.
type Options struct {
	Confirm, Poll, Settle time.Duration
	Now                   func() time.Time
	Sleep                 func(ctx context.Context, d time.Duration)
}

func (o *Options) fill() {
	if o.Confirm <= 0 {
		o.Confirm = Confirm
	}
	if o.Poll <= 0 {
		o.Poll = Poll
	}
	if o.Settle == 0 {
		o.Settle = Settle
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// Live is a prompt as read off the screen now.
type Live struct {
	Rule   string
	Prompt string
	Choice session.Choice // the wanted choice, as drawn
	Keys   []string       // its keys
}

// Check decides whether the frame still shows the prompt w was chosen on:
// blocked by the agent's rules, the same rule and dialog text when the
// person saw them, and the chosen option with the same number and text.
// It returns the prompt and the keys, or why not to type.
func Check(set *rules.Set, f rules.Frame, w Want) (Live, error) {
	if set == nil {
		return Live{}, fmt.Errorf("Mew has no screen rules for %q", w.Agent)
	}
	if set.Answer == nil {
		return Live{}, fmt.Errorf("the %s rules say nothing about answering its prompts", set.Agent)
	}
	res := set.Classify(f)
	if res.State != session.ScreenBlocked {
		what := res.State
		if what == session.ScreenUnknown {
			what = "nothing Mew recognises"
		}
		return Live{}, fmt.Errorf("the terminal shows no prompt now (%s): it was answered there, or went away", what)
	}
	prompt, _ := screen.Prompt(set, f.Rows, res)
	live := Live{Rule: res.Rule, Prompt: prompt}
	if w.Rule != "" && res.Rule != w.Rule && !screen.SameDialog(w.Rule, w.Prompt, res.Rule, prompt) {
		return live, fmt.Errorf("the terminal shows another prompt now (%s, not %s)", res.Rule, w.Rule)
	}
	if w.Prompt != "" && prompt != w.Prompt {
		return live, fmt.Errorf("the prompt on the terminal changed since it was shown: %s", firstDiff(w.Prompt, prompt))
	}
	for _, o := range set.Dialog(f.Rows, res).Options {
		if o.N != w.Choice.N || o.Label != w.Choice.Label {
			continue
		}
		for _, k := range o.Keys {
			if !rules.ValidKey(k) {
				return live, fmt.Errorf("the rules give %q as a key for %q", k, o.Label)
			}
		}
		live.Choice, live.Keys = w.Choice, o.Keys
		return live, nil
	}
	return live, fmt.Errorf("the prompt on the terminal offers no choice %d %q", w.Choice.N, w.Choice.Label)
}

// CheckShown is Check for a prompt a PromptReader reported.
func CheckShown(set *rules.Set, s Shown, w Want) (Live, error) {
	if set == nil {
		return Live{}, fmt.Errorf("Mew has no screen rules for %q", w.Agent)
	}
	if set.Answer == nil {
		return Live{}, fmt.Errorf("the %s rules say nothing about answering its prompts", set.Agent)
	}
	st := s.Screen
	if st.State != session.ScreenBlocked {
		what := st.State
		if what == "" || what == session.ScreenUnknown {
			what = "nothing Mew recognises"
		}
		return Live{}, fmt.Errorf("the terminal shows no prompt now (%s): it was answered there, or went away", what)
	}
	live := Live{Rule: st.Rule, Prompt: st.Prompt}
	if w.Rule != "" && st.Rule != w.Rule && !screen.SameDialog(w.Rule, w.Prompt, st.Rule, st.Prompt) {
		return live, fmt.Errorf("the terminal shows another prompt now (%s, not %s)", st.Rule, w.Rule)
	}
	if w.Prompt != "" && st.Prompt != w.Prompt {
		return live, fmt.Errorf("the prompt on the terminal changed since it was shown: %s", firstDiff(w.Prompt, st.Prompt))
	}
	for _, c := range st.Choices {
		if c == w.Choice {
			live.Choice, live.Keys = c, s.Keys[c]
			return live, nil
		}
	}
	return live, fmt.Errorf("the prompt on the terminal offers no choice %d %q", w.Choice.N, w.Choice.Label)
}

// firstDiff names the first line that differs between two dialog texts.
func firstDiff(was, now string) string {
	a, b := strings.Split(was, "\n"), strings.Split(now, "\n")
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("%q is now %q", text.Clip(x, 60), text.Clip(y, 60))
		}
	}
	return "?"
}

// Do answers on term: it reads the screen, checks it (Check), waits until
// the prompt has been up for Settle, reads and checks again, types the
// choice's keys, and reads until the prompt is gone or Confirm passed.
// It never types when a check fails or a read fails before typing. A
// terminal that then shows another prompt is reported as Changed: the
// next question, or the keys went to a prompt that changed under them;
// Mew cannot tell which, so it never calls that answered.
func Do(ctx context.Context, term Terminal, set *rules.Set, w Want, o Options) Result {
	o.fill()
	if sr, ok := term.(SlowReader); ok && sr.MinPoll() > o.Poll {
		o.Poll = sr.MinPoll()
	}
	res := Result{Started: o.Now()}
	fail := func(out Outcome, format string, args ...any) Result {
		res.Outcome, res.Message = out, fmt.Sprintf(format, args...)
		return res
	}
	read := func() (Live, error) {
		if pr, ok := term.(PromptReader); ok {
			s, err := pr.ReadPrompt(ctx)
			if err != nil {
				return Live{}, fmt.Errorf("reading the terminal: %w", err)
			}
			return CheckShown(set, s, w)
		}
		f, err := term.Read(ctx)
		if err != nil {
			return Live{}, fmt.Errorf("reading the terminal: %w", err)
		}
		return Check(set, f, w)
	}
	live, err := read()
	if err != nil {
		return fail(Refused, "typed nothing: %v", err)
	}
	if wait := o.Settle - o.Now().Sub(w.ShownAt); !w.ShownAt.IsZero() && wait > 0 && wait <= o.Settle {
		// A prompt that just appeared drops keys: give it the time, then
		// look again (it may have gone meanwhile).
		o.Sleep(ctx, wait)
		if live, err = read(); err != nil {
			return fail(Refused, "typed nothing: %v", err)
		}
	}
	if ctx.Err() != nil {
		return fail(Refused, "typed nothing: %v", ctx.Err())
	}
	res.Rule, res.Prompt = live.Rule, live.Prompt
	res.Typed = o.Now()
	keys := strings.Join(live.Keys, " ")
	var typedOn *rules.Frame
	if ft, ok := term.(FrameTyper); ok {
		f, err := ft.TypeRead(ctx, live)
		if errors.Is(err, ErrNotTyped) {
			return fail(Refused, "%v", err)
		} else if err != nil {
			res.Keys = live.Keys
			return fail(Failed, "typing %s failed: %v", keys, err)
		}
		typedOn = &f
	} else if err := term.Type(ctx, live); errors.Is(err, ErrNotTyped) {
		return fail(Refused, "%v", err)
	} else if err != nil {
		// Part of the keys may have gone: say so.
		res.Keys = live.Keys
		return fail(Failed, "typing %s failed: %v", keys, err)
	}
	res.Keys = live.Keys
	if typedOn != nil {
		// The frame the keys went to, read in the same step as typing.
		if now, err := Check(set, *typedOn, w); err != nil || !screen.SameDialog(live.Rule, live.Prompt, now.Rule, now.Prompt) {
			why := "it shows no prompt"
			if err != nil {
				why = err.Error()
			}
			return fail(Changed, "typed %s for %q, but the terminal had changed as they went (%s): look at the terminal", keys, w.Choice.Label, why)
		}
	}
	deadline := res.Typed.Add(o.Confirm)
	for {
		o.Sleep(ctx, o.Poll)
		now := o.Now()
		switch after(ctx, term, set, live) {
		case promptGone:
			res.Gone = now
			return fail(Answered, "answered %d %q: the prompt went away after %v", w.Choice.N, w.Choice.Label, now.Sub(res.Typed).Round(time.Millisecond))
		case promptChanged:
			return fail(Changed, "typed %s for %q, and the terminal shows another prompt now: the agent's next question, or the keys went to a prompt that changed under them: look at the terminal", keys, w.Choice.Label)
		}
		if !now.Before(deadline) || ctx.Err() != nil {
			return fail(Stuck, "typed %s for %q, but the prompt is still there after %v", keys, w.Choice.Label, o.Confirm)
		}
	}
}

// What a terminal shows after an answer was typed.
const (
	promptThere   = iota // the same prompt, or nothing readable
	promptGone           // no prompt
	promptChanged        // another prompt
)

// after reads what the terminal shows after typing the answer to was. A
// screen that cannot be read, or is half drawn, is not proof of anything.
func after(ctx context.Context, term Terminal, set *rules.Set, was Live) int {
	var state, rule, prompt string
	if pr, ok := term.(PromptReader); ok {
		s, err := pr.ReadPrompt(ctx)
		if err != nil {
			return promptThere
		}
		state, rule, prompt = s.Screen.State, s.Screen.Rule, s.Screen.Prompt
	} else {
		f, err := term.Read(ctx)
		if err != nil {
			return promptThere
		}
		res := set.Classify(f)
		state, rule = res.State, res.Rule
		if res.State == session.ScreenBlocked {
			var choices []session.Choice
			prompt, choices = screen.Prompt(set, f.Rows, res)
			if res.Match == "" && len(choices) == 0 {
				// Blocked by the title alone, no dialog drawn: the title
				// lags the screen (Codex clears "Action Required" a frame
				// after the dialog on a loaded machine). No proof either way.
				return promptThere
			}
		}
	}
	switch {
	case state == "" || state == session.ScreenUnknown:
		return promptThere // half drawn: look again
	case state != session.ScreenBlocked:
		return promptGone
	case prompt != "" && prompt == was.Prompt:
		// The same dialog, noticed by another of the agent's rules (its
		// title cleared before the dialog was): still there.
		return promptThere
	case rule != was.Rule || prompt != was.Prompt:
		return promptChanged
	}
	return promptThere
}

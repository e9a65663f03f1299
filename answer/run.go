package answer

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/rules"
	runwrap "github.com/mew-dev/mew/screen/run"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/terminal/termid"
)

// RunTerminal is a `mew run` wrapper's terminal, through its answer
// socket: the wrapper reports its prompt (it is a PromptReader: it gives
// no rows), and for Type checks, at the moment of writing to the agent's
// terminal, that the same prompt is still shown and types the keys of
// the choice named, from its own reading of the screen (a second guard,
// in the process that owns the terminal).
type RunTerminal struct {
	Socket string
}

// NewRunTerminal checks the socket path.
func NewRunTerminal(socket string) (*RunTerminal, error) {
	if !termid.ValidSocket(socket) {
		return nil, fmt.Errorf("%q is not a socket path", socket)
	}
	return &RunTerminal{Socket: socket}, nil
}

// ReadPrompt implements PromptReader.
func (t *RunTerminal) ReadPrompt(ctx context.Context) (Shown, error) {
	resp, err := runwrap.Call(ctx, t.Socket, runwrap.Request{Op: "screen"})
	if err != nil {
		return Shown{}, fmt.Errorf("the `mew run` wrapper does not answer: %w", err)
	}
	if !resp.OK || resp.Screen == nil {
		return Shown{}, fmt.Errorf("the `mew run` wrapper: %s", text.OneLine(resp.Why, 200))
	}
	if resp.Screen.Background {
		return Shown{}, errors.New("the agent is no longer in the foreground of its `mew run` terminal")
	}
	s := Shown{Screen: *resp.Screen, Keys: map[session.Choice][]string{}}
	for _, k := range resp.Keys {
		s.Keys[session.Choice{N: k.N, Label: k.Label}] = k.Keys
	}
	return s, nil
}

// Read implements Terminal; the wrapper gives no rows (see ReadPrompt).
func (t *RunTerminal) Read(context.Context) (rules.Frame, error) {
	return rules.Frame{}, errors.New("a `mew run` wrapper reports its prompt, not its rows")
}

// Type implements Terminal: it names the choice; the wrapper types its keys.
func (t *RunTerminal) Type(ctx context.Context, live Live) error {
	c := live.Choice
	resp, err := runwrap.Call(ctx, t.Socket, runwrap.Request{Op: "type", Rule: live.Rule, Prompt: live.Prompt, Choice: &c})
	switch {
	case err != nil:
		return fmt.Errorf("the `mew run` wrapper does not answer: %w", err)
	case !resp.OK && strings.HasPrefix(resp.Why, runwrap.ErrNotShown.Error()):
		return fmt.Errorf("%w: %s", ErrNotTyped, resp.Why)
	case !resp.OK:
		return fmt.Errorf("the `mew run` wrapper: %s", text.OneLine(resp.Why, 200))
	}
	return nil
}

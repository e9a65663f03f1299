package answer

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/rules"
	runwrap "github.com/mew-dev/mew/screen/run"
	"github.com/mew-dev/mew/terminal"
)

// RunTerminal is a `mew run` wrapper's terminal, through its answer
// socket: the wrapper reads its screen for Read, and for Type checks,
// at the moment of writing to the agent's terminal, that the same prompt
// is still shown (a second guard, in the process that owns the terminal).
type RunTerminal struct {
	Socket string
}

// NewRunTerminal checks the socket path.
func NewRunTerminal(socket string) (*RunTerminal, error) {
	if !terminal.ValidSocket(socket) {
		return nil, fmt.Errorf("%q is not a socket path", socket)
	}
	return &RunTerminal{Socket: socket}, nil
}

// Read implements Terminal.
func (t *RunTerminal) Read(ctx context.Context) (rules.Frame, error) {
	resp, err := runwrap.Call(ctx, t.Socket, runwrap.Request{Op: "screen"})
	if err != nil {
		return rules.Frame{}, fmt.Errorf("the `mew run` wrapper does not answer: %w", err)
	}
	if !resp.OK {
		return rules.Frame{}, fmt.Errorf("the `mew run` wrapper: %s", text.OneLine(resp.Why, 200))
	}
	if resp.Screen != nil && resp.Screen.Background {
		return rules.Frame{}, errors.New("the agent is no longer in the foreground of its `mew run` terminal")
	}
	return rules.Frame{Rows: resp.Rows, Title: resp.Title, AgentState: resp.AgentState}, nil
}

// Type implements Terminal.
func (t *RunTerminal) Type(ctx context.Context, live Live) error {
	typed, err := KeyBytes(live.Keys)
	if err != nil {
		return err
	}
	resp, err := runwrap.Call(ctx, t.Socket, runwrap.Request{Op: "type", Rule: live.Rule, Prompt: live.Prompt, Keys: typed})
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

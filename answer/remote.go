package answer

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
)

// An answer to a session on another machine is typed there by that
// machine's own `mew answer`: it reads the pane right before typing and
// confirms the prompt went, as a local answer does. This machine adds one
// check: the choice the person picked must still have the label they saw
// (`--expect`), so a prompt that changed meanwhile gets nothing typed.

// RemoteTimeout bounds a remote answer: the connection, the remote's
// confirmation (Confirm) and slack for a slow link.
const RemoteTimeout = 15 * time.Second

// ExpectFlag is `mew answer`'s flag for the label the person saw,
// base64url without padding (every byte then safe for any remote shell).
const ExpectFlag = "--expect"

// EncodeExpect and DecodeExpect are ExpectFlag's value.
func EncodeExpect(label string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(label))
}

// DecodeExpect reads ExpectFlag's value.
func DecodeExpect(v string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(v)
	if err != nil {
		return "", fmt.Errorf("%s takes the label in base64url: %v", ExpectFlag, err)
	}
	return string(b), nil
}

// RemoteArgv is the command that answers session id on r with c.
func RemoteArgv(r remote.Remote, ssh, id string, c session.Choice) ([]string, error) {
	if !session.ValidID(id) {
		return nil, fmt.Errorf("%q is not a session id", text.OneLine(id, 80))
	}
	if c.N < 1 || c.N > 9 {
		return nil, fmt.Errorf("choice %d is not one of 1-9", c.N)
	}
	if len(c.Label) > 4*remote.MaxLabel { // runes of up to 4 bytes
		return nil, errors.New("the choice's label is too long to check on the remote")
	}
	return r.SSHArgv(ssh, r.MewCommand(), "answer", "--json", ExpectFlag, EncodeExpect(c.Label), "--", id, strconv.Itoa(c.N))
}

// OnRemote has r's mew answer session id with c, through run
// (remote.RunSSH), and returns what it did. The remote's words are made one
// line of plain text, and prefixed with r's name.
func OnRemote(ctx context.Context, r remote.Remote, ssh, id string, c session.Choice, run remote.RunFunc) Result {
	started := time.Now()
	fail := func(o Outcome, msg string) Result {
		return Result{Outcome: o, Message: r.Name + ": " + msg, Via: "ssh", Started: started}
	}
	argv, err := RemoteArgv(r, ssh, id, c)
	if err != nil {
		return fail(Refused, "typed nothing: "+err.Error())
	}
	ctx, cancel := context.WithTimeout(ctx, RemoteTimeout)
	defer cancel()
	out, runErr := run(ctx, argv)
	var res Result
	if json.Unmarshal([]byte(out), &res) != nil || !knownOutcome(res.Outcome) {
		switch {
		case ctx.Err() != nil:
			return fail(Failed, fmt.Sprintf("no word from the mew there within %v: look at the terminal, Mew cannot tell whether it typed", RemoteTimeout))
		case runErr != nil:
			return fail(Failed, "cannot answer there: "+text.OneLine(runErr.Error(), 300))
		}
		return fail(Failed, "the mew there did not say what it did")
	}
	// Its own exit status says the same as the outcome it printed.
	res.Message = r.Name + ": " + text.OneLine(res.Message, 300)
	res.Via = "ssh/" + text.OneLine(res.Via, 32)
	res.Rule, res.Prompt = text.OneLine(res.Rule, 100), text.OneLine(res.Prompt, 300)
	if len(res.Keys) > 16 {
		res.Keys = res.Keys[:16]
	}
	for i, k := range res.Keys {
		res.Keys[i] = text.OneLine(k, 32)
	}
	return res // its times are the remote's clock, consistent among themselves
}

func knownOutcome(o Outcome) bool {
	switch o {
	case Answered, Refused, Stuck, Failed, NoTerminal, Changed:
		return true
	}
	return false
}

package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// Message is what every sink is sent: a command reads it as JSON on its
// stdin, a webhook gets it as its body (PresetJSON) or its text.
type Message struct {
	// Event is the state that alerts: waiting, done or failed.
	Event  session.State  `json:"event"`
	Reason session.Reason `json:"reason,omitempty"`
	Title  string         `json:"title"`
	Body   string         `json:"body,omitempty"`
	// Session is the session as `mew status --json` shows it.
	Session session.Shown `json:"session"`
	// Link is the session's page on the web board (`mew serve
	// --public-url`), when one is configured: it opens only on a paired
	// device.
	Link string `json:"link,omitempty"`
	// Test is set for `mew notify test`.
	Test bool `json:"test,omitempty"`
}

// MessageFor builds the message of an alert from the session it is about.
func MessageFor(a board.Alert, s session.Shown) Message {
	project := a.Project
	if project == "" {
		project = "A session"
	}
	body := s.LastMessage
	if a.State == session.Waiting && s.ToolDetail != "" {
		body = s.Tool + ": " + s.ToolDetail
	}
	return Message{
		Event: a.State, Reason: a.Reason,
		Title:   text.OneLine(project+" "+a.Verb(), 120),
		Body:    text.OneLine(body, 400),
		Session: s,
	}
}

// sender delivers one message once; the worker retries it.
type sender interface {
	send(ctx context.Context, m Message) error
}

type commandSender struct{ argv []string }

// send runs the command with the message on stdin: no shell, so nothing
// in a session's text can become a command.
func (c commandSender) send(ctx context.Context, m Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, c.argv[0], c.argv[1:]...)
	cmd.Stdin = bytes.NewReader(b)
	var errb bytes.Buffer
	cmd.Stderr = &capped{w: &errb, n: 512}
	// A program that starts a child and exits (`notify-send … &`) leaves
	// the child holding stderr: after WaitDelay Wait gives up on the pipe
	// and says ErrWaitDelay. The command's own exit status decides, so that
	// is a success, not a failure to retry (which sent every alert 3 times).
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		if msg := text.OneLine(errb.String(), 200); msg != "" {
			return fmt.Errorf("%v: %s", err, msg)
		}
		return err
	}
	return nil
}

type capped struct {
	w io.Writer
	n int
}

func (c *capped) Write(p []byte) (int, error) {
	if c.n > 0 {
		k := min(len(p), c.n)
		c.w.Write(p[:k])
		c.n -= k
	}
	return len(p), nil
}

type webhookSender struct {
	url, preset string
	client      *http.Client
}

func (w webhookSender) send(ctx context.Context, m Message) error {
	body, ctype, headers, err := webhookBody(w.preset, m)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return errors.New("bad URL") // never the URL itself: it may hold a token
	}
	req.Header.Set("Content-Type", ctype)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := w.client.Do(req)
	if err != nil {
		var ue interface{ Unwrap() error }
		if errors.As(err, &ue) {
			return fmt.Errorf("POST %s: %v", MaskURL(w.url), ue.Unwrap())
		}
		return fmt.Errorf("POST %s failed", MaskURL(w.url))
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		// The status line is the remote's text: one inert line.
		return fmt.Errorf("POST %s: %s", MaskURL(w.url), text.OneLine(resp.Status, 120))
	}
	return nil
}

// webhookBody is the request body of a preset.
func webhookBody(preset string, m Message) (body []byte, ctype string, headers map[string]string, err error) {
	switch preset {
	case PresetNtfy:
		msg := m.Body
		if msg == "" {
			msg = m.Title
		}
		// Header values must be one line of text; Title is already.
		h := map[string]string{"Title": m.Title, "Tags": string(m.Event)}
		if m.Link != "" {
			h["Click"] = m.Link // ntfy opens it when the notification is tapped
		}
		return []byte(msg), "text/plain; charset=utf-8", h, nil
	case PresetSlack:
		t := m.Title
		if m.Body != "" {
			t += "\n" + m.Body
		}
		if m.Link != "" {
			t += "\n" + m.Link
		}
		b, err := json.Marshal(map[string]string{"text": t})
		return b, "application/json", nil, err
	}
	b, err := json.Marshal(m)
	return b, "application/json", nil, err
}

package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// HookSeen is one hook payload the driver's own observer hook logged.
type HookSeen struct {
	At    time.Time // when the driver saw it in the log
	Event string    // hook_event_name
	Kind  string    // notification_type, for Notification
	Doc   json.RawMessage
}

// addObserverHooks registers a logging hook of the driver's own for events,
// next to whatever is in settings.json already (Mew's entries): the CLI's
// hooks then tell the test what the CLI did that its screen and registry
// do not show (notifications), and Mew is shown sharing the file with
// someone else's hooks. The command is a shell string (Claude Code runs
// hooks through sh -c); its only variable part is a checked, quoted path.
// timeout is in the CLI's unit (Claude Code: seconds; Gemini CLI: ms).
func addObserverHooks(settings, logFile string, events []string, timeout int) error {
	q, err := shellQuote(logFile)
	if err != nil {
		return err
	}
	doc := map[string]any{}
	if b, err := os.ReadFile(settings); err == nil {
		if err := json.Unmarshal(b, &doc); err != nil {
			return fmt.Errorf("%s: %w", settings, err)
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	hooks, _ := doc["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
	}
	entry := map[string]any{"hooks": []any{map[string]any{
		"type": "command", "command": "{ cat; echo; } >> " + q + " 2>/dev/null; true", "timeout": timeout}}}
	for _, ev := range events {
		list, _ := hooks[ev].([]any)
		hooks[ev] = append(list, entry)
	}
	doc["hooks"] = hooks
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		return err
	}
	return os.WriteFile(settings, b, 0o600)
}

// pollHooks reads the observer log every interval and records each new
// complete line.
func (r *recorder) pollHooks(ctx context.Context, file string, interval time.Duration) {
	var off int64
	var partial []byte
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		if f, err := os.Open(file); err == nil {
			if fi, err := f.Stat(); err == nil && fi.Size() > off {
				buf := make([]byte, fi.Size()-off)
				n, _ := f.ReadAt(buf, off)
				off += int64(n)
				partial = append(partial, buf[:n]...)
				for {
					i := bytes.IndexByte(partial, '\n')
					if i < 0 {
						break
					}
					r.addHook(bytes.TrimSpace(partial[:i]))
					partial = partial[i+1:]
				}
			}
			f.Close()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (r *recorder) addHook(line []byte) {
	var h struct {
		Event string `json:"hook_event_name"`
		Kind  string `json:"notification_type"`
		// Copilot CLI's observer wraps the payload, which names no event.
		Payload struct {
			Kind string `json:"notification_type"`
		} `json:"payload"`
	}
	if len(line) == 0 || json.Unmarshal(line, &h) != nil {
		return
	}
	if h.Kind == "" {
		h.Kind = h.Payload.Kind
	}
	seen := HookSeen{At: time.Now(), Event: h.Event, Kind: h.Kind, Doc: append(json.RawMessage(nil), line...)}
	r.mu.Lock()
	r.hooks = append(r.hooks, seen)
	r.notify()
	r.mu.Unlock()
	text := h.Event
	if h.Kind != "" {
		text += " (" + h.Kind + ")"
	}
	r.tl.Add(Entry{At: seen.At, Source: "hook", Text: text})
}

// Hooks returns the observer hook's payloads so far.
func (r *Run) Hooks() []HookSeen {
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	return append([]HookSeen(nil), r.rec.hooks...)
}

// WaitHook waits for the first observed hook at or after since for which ok
// is true.
func (r *Run) WaitHook(since time.Time, ok func(HookSeen) bool, timeout time.Duration) (HookSeen, error) {
	var found HookSeen
	err := r.waitFor(timeout, func() bool {
		for _, h := range r.Hooks() {
			if !h.At.Before(since) && ok(h) {
				found = h
				return true
			}
		}
		return false
	})
	if err != nil {
		return HookSeen{}, fmt.Errorf("no such hook event within %v", timeout)
	}
	return found, nil
}

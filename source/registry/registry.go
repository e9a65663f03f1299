// Package registry reads Claude Code's own session registry: one JSON file a
// running session, ~/.claude/sessions/<pid>.json ($CLAUDE_CONFIG_DIR/sessions
// when set), which Claude Code keeps up to date within ~0.2 s (status idle |
// busy | waiting). It is undocumented, so everything here is defensive: a
// file that is missing fields, half written, garbage or huge is skipped with
// an error, never a crash or a hang, and Mew works without it. Source is
// the registry as one of the monitor's sources (source.Source); what it
// reads is kept in the session's stored record (source.Recorder).
package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// MaxFile bounds what is read of one registry file; real ones are ~1 KB.
const MaxFile = 256 << 10

// Dir is where Claude Code keeps its registry.
func Dir() (string, error) {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "sessions"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the home directory for ~/.claude: %w", err)
	}
	return filepath.Join(home, ".claude", "sessions"), nil
}

// Doc is what Mew reads of one registry file. Fields of an unexpected type
// are treated as absent.
type Doc struct {
	SessionID  string
	Pid        int
	ProcStart  string
	StartedAt  time.Time
	Cwd        string
	Name       string
	Tmux       string
	Version    string
	Status     string
	WaitingFor string
	Entrypoint string // "cli" interactive, "sdk-cli" for `claude -p`, "sdk-ts", ...
	// StatusAt is when the status was set (statusUpdatedAt, else updatedAt);
	// zero when the file does not say.
	StatusAt time.Time
	// Interrupted is what the session's transcript says of an idle status
	// (Stopped); not in the file itself.
	Interrupted bool
	// RepliedAt is when the reply that ends the session's transcript was
	// written, for an idle status whose last turn finished; zero
	// otherwise. Not in the file itself.
	RepliedAt time.Time
}

// ErrNotSession means the file parsed but does not describe a session.
var ErrNotSession = errors.New("not a Claude Code session document")

// Parse reads one registry document.
func Parse(data []byte) (Doc, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return Doc{}, fmt.Errorf("not JSON: %w", err)
	}
	d := Doc{
		SessionID:  str(raw["sessionId"]),
		Pid:        int(num(raw["pid"])),
		ProcStart:  str(raw["procStart"]),
		Cwd:        str(raw["cwd"]),
		Name:       str(raw["name"]),
		Tmux:       str(raw["tmux"]),
		Version:    str(raw["version"]),
		Status:     str(raw["status"]),
		WaitingFor: str(raw["waitingFor"]),
		Entrypoint: str(raw["entrypoint"]),
		StartedAt:  millis(num(raw["startedAt"])),
	}
	if d.ProcStart == "" { // some versions may write it as a number
		if n := num(raw["procStart"]); n > 0 {
			d.ProcStart = strconv.FormatInt(n, 10)
		}
	}
	d.StatusAt = millis(num(raw["statusUpdatedAt"]))
	if d.StatusAt.IsZero() {
		d.StatusAt = millis(num(raw["updatedAt"]))
	}
	if !session.ValidID(d.SessionID) {
		return Doc{}, fmt.Errorf("%w: sessionId %q", ErrNotSession, text.Clip(d.SessionID, 61))
	}
	if d.Pid <= 0 {
		return Doc{}, fmt.Errorf("%w: no pid", ErrNotSession)
	}
	return d, nil
}

// ReadFile reads and parses one registry file.
func ReadFile(path string) (Doc, error) {
	f, err := privfile.OpenRegular(path)
	if err != nil {
		return Doc{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return Doc{}, err
	}
	if len(data) > MaxFile {
		return Doc{}, fmt.Errorf("%s: larger than %d bytes; skipped", filepath.Base(path), MaxFile)
	}
	d, err := Parse(data)
	if err != nil {
		return Doc{}, fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	return d, nil
}

// Entry is one readable registry file.
type Entry struct {
	File string // base name, <pid>.json
	Doc  Doc
}

// ReadDir reads every <pid>.json in dir. Unreadable files are reported and
// skipped; a missing directory is an empty registry.
func ReadDir(dir string) ([]Entry, []error) {
	names, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, []error{err}
	}
	var out []Entry
	var errs []error
	for _, n := range names {
		if !IsDocName(n.Name()) || n.IsDir() {
			continue
		}
		d, err := ReadFile(filepath.Join(dir, n.Name()))
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) { // removed since ReadDir
				errs = append(errs, err)
			}
			continue
		}
		out = append(out, Entry{File: n.Name(), Doc: d})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out, errs
}

// IsDocName reports whether a file name is a registry document's (<pid>.json).
func IsDocName(name string) bool {
	stem, ok := strings.CutSuffix(name, ".json")
	if !ok || stem == "" || len(stem) > 10 {
		return false
	}
	for _, c := range stem {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Observe folds a document into Mew's memory of the registry. It is pure:
// seenAt is when Mew read the file, used when the document carries no time.
func Observe(prev *session.RegistryState, d Doc, file string, seenAt time.Time) session.RegistryState {
	return ObserveMono(prev, d, file, seenAt, 0)
}

// ObserveMono is Observe with seenMono, the moment of the reading on the
// machine's monotonic clock (internal/clock; 0 if unknown). The status's
// own time then goes on that clock too, as AtMono: the reading's time less
// how long before it (by the wall clock, read moments apart) the status
// was set. It is taken once per status: a re-read after the wall clock
// stepped must not move it.
func ObserveMono(prev *session.RegistryState, d Doc, file string, seenAt time.Time, seenMono int64) session.RegistryState {
	var r session.RegistryState
	if prev != nil {
		r = *prev
		if prev.Pid != d.Pid || prev.ProcStart != d.ProcStart {
			// Another process (`claude --resume`): the turns seen in the one
			// before are not its own, though its screen draws them.
			r.TurnSeen, r.LastTurnAt = false, time.Time{}
		}
	}
	// Claude Code's own time for the status is the truth; without one, the
	// moment Mew first saw this status stands (a re-read is not a change).
	at := d.StatusAt
	if at.IsZero() {
		at = seenAt
		if prev != nil && !prev.Gone && prev.Status == d.Status && prev.WaitingFor == d.WaitingFor {
			at = prev.At
		}
	}
	r.AtMono = statusMono(prev, at, seenAt, seenMono)
	r.Status, r.WaitingFor, r.At, r.Gone = d.Status, d.WaitingFor, at, false
	r.Interrupted = d.Status == "idle" && d.Interrupted
	switch d.Status {
	case "busy", "waiting":
		r.TurnSeen, r.LastTurnAt = true, at
	case "idle":
		// A turn of 0.1–0.4 s can leave the file idle throughout (Claude
		// Code 2.1.328 wrote no busy for about 1 turn in 3, nor anything
		// else): a reply the transcript got after the idle was set is a
		// turn that ran and finished. A resumed session's old replies
		// come before its idle.
		if !r.Interrupted && d.RepliedAt.After(at) && d.RepliedAt.After(r.LastTurnAt) {
			r.TurnSeen, r.LastTurnAt = true, d.RepliedAt
		}
	}
	r.Pid, r.ProcStart, r.StartedAt = d.Pid, d.ProcStart, d.StartedAt
	r.Cwd, r.Name, r.Tmux, r.Version, r.File = d.Cwd, d.Name, d.Tmux, d.Version, file
	r.Entrypoint = d.Entrypoint
	return r
}

// statusMono places a status set at (wall clock) on the monotonic clock.
func statusMono(prev *session.RegistryState, at, seenAt time.Time, seenMono int64) int64 {
	switch {
	case seenMono == 0:
		return 0
	case prev != nil && !prev.Gone && prev.AtMono != 0 && prev.At.Equal(at):
		return prev.AtMono
	}
	// A status cannot be set after it is read: a wall clock stepped back
	// in between would say so.
	return seenMono - int64(max(seenAt.Sub(at), 0))
}

// Vanish records that the session's registry file is gone (Claude Code
// deletes it when it exits).
func Vanish(prev session.RegistryState, seenAt time.Time) session.RegistryState {
	if prev.Gone {
		return prev
	}
	prev.Gone, prev.At = true, seenAt
	return prev
}

func str(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

func num(raw json.RawMessage) int64 {
	var f float64
	if json.Unmarshal(raw, &f) != nil || f < 0 || f > 1<<53 {
		return 0
	}
	return int64(f)
}

func millis(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

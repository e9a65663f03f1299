package registry

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"regexp"
	"time"

	"github.com/mew-dev/mew/internal/privfile"
)

// The registry says idle both when a turn ended and when the person
// stopped it (Esc on a permission prompt, Esc while the answer streamed).
// Claude Code's transcript, which the registry names (its sessionId and
// cwd: $CLAUDE_CONFIG_DIR/projects/<cwd>/<sessionId>.jsonl), tells them
// apart: a finished turn ends with the model's reply, a stopped one with
// the person's prompt (Esc while it streamed: nothing of the reply is
// kept) or with a tool call that never ran (Esc on its prompt). Measured
// on Claude Code 2.1.328 (e2e TestNoInstallRegistryOnlyEsc).

// transcriptTail bounds how much of a transcript's end is read: its last
// conversation entry is near the end (a few bookkeeping lines follow it).
const transcriptTail = 256 << 10

// maxProjectName is Claude Code's limit for a project folder's name; a
// longer one gets a hash of its own that is not worth reproducing here.
const maxProjectName = 200

var (
	sessionIDRE  = regexp.MustCompile(`^[0-9A-Za-z-]{8,64}$`)
	notProjectRE = regexp.MustCompile(`[^a-zA-Z0-9]`)
)

// TranscriptPath is where Claude Code keeps the transcript of session id
// run in cwd, under its configuration folder; "" when it cannot be named
// (a hostile id, a path too long).
func TranscriptPath(configDir, cwd, id string) string {
	if configDir == "" || cwd == "" || !sessionIDRE.MatchString(id) {
		return ""
	}
	name := notProjectRE.ReplaceAllString(cwd, "-")
	if len(name) > maxProjectName {
		return ""
	}
	return filepath.Join(configDir, "projects", name, id+".jsonl")
}

// Stopped reports whether the transcript at path shows its last turn
// stopped by the person, not finished; known is false when it cannot tell
// (no transcript, no conversation entry in its tail).
func Stopped(path string) (stopped, known bool) {
	v := readVerdict(path)
	return v.stopped, v.known
}

// verdict is what a transcript's last conversation entry says of the
// last turn: stopped by the person or not (known: there is such an
// entry), and when the reply that finished it was written (zero when it
// did not finish, or the entry has no time).
type verdict struct {
	stopped, known bool
	replied        time.Time
}

// readVerdict is the verdict of the transcript at path.
func readVerdict(path string) verdict {
	data, ok := tail(path)
	if !ok {
		return verdict{}
	}
	return verdictOf(data)
}

// verdictOf is the verdict of transcript lines. An API error Claude Code
// wrote as the model's message is no finished reply: its turn failed.
func verdictOf(data []byte) verdict {
	e, ok := lastEntry(data)
	if !ok {
		return verdict{}
	}
	v := verdict{known: true, stopped: e.Type == "user" || !hasText(e.Message.Content)}
	if !v.stopped && !e.IsAPIErrorMessage {
		// A time that does not parse is no time; the verdict stands.
		if t, err := time.Parse(time.RFC3339Nano, e.Timestamp); err == nil {
			v.replied = t.UTC()
		}
	}
	return v
}

// tail is the last transcriptTail bytes of the transcript at path, from
// its first whole line.
func tail(path string) ([]byte, bool) {
	if path == "" {
		return nil, false
	}
	f, err := privfile.OpenRegular(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	off := max(fi.Size()-transcriptTail, 0)
	data, err := io.ReadAll(io.NewSectionReader(f, off, fi.Size()-off))
	if err != nil {
		return nil, false
	}
	if off > 0 {
		// The first line is cut: start at the next one.
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil, false
		}
		data = data[i+1:]
	}
	return data, true
}

// WaitingTool is the tool the transcript's last conversation entry calls
// (the model's tool call a waiting status waits on): "" when the last
// entry is no tool call, or the transcript cannot be read.
func WaitingTool(path string) string {
	data, ok := tail(path)
	if !ok {
		return ""
	}
	e, ok := lastEntry(data)
	if !ok || e.Type != "assistant" {
		return ""
	}
	var blocks []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}
	if json.Unmarshal(e.Message.Content, &blocks) != nil || len(blocks) == 0 {
		return ""
	}
	if b := blocks[len(blocks)-1]; b.Type == "tool_use" {
		return b.Name
	}
	return ""
}

// lastTurnStopped reads transcript lines (JSONL) for the last
// conversation entry: the model's reply with text in it finished the turn;
// anything else (the person's prompt, a tool result, a tool call that
// never ran) means the turn stopped before the model replied.
func lastTurnStopped(data []byte) (stopped, known bool) {
	v := verdictOf(data)
	return v.stopped, v.known
}

// entry is the part of a transcript line Mew reads.
type entry struct {
	Type    string `json:"type"`
	Message struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	IsSidechain       bool   `json:"isSidechain"`
	IsAPIErrorMessage bool   `json:"isApiErrorMessage"`
	Timestamp         string `json:"timestamp"` // RFC 3339, the CLI's clock (a string: a bad one must not hide the entry)
}

// lastEntry is the last conversation entry (the person's or the model's,
// not a subagent's) of transcript lines, read from the end.
func lastEntry(data []byte) (entry, bool) {
	for len(data) > 0 {
		data = bytes.TrimRight(data, "\n")
		i := bytes.LastIndexByte(data, '\n')
		line := data[i+1:]
		data = data[:max(i, 0)]
		var e entry
		if json.Unmarshal(line, &e) == nil && !e.IsSidechain && (e.Type == "user" || e.Type == "assistant") {
			return e, true
		}
		if i < 0 {
			break
		}
	}
	return entry{}, false
}

// hasText reports whether a message's content holds text (a string, or a
// text block), as a reply that ends a turn does.
func hasText(content json.RawMessage) bool {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s != ""
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return false
	}
	for _, b := range blocks {
		if b.Type == "text" && b.Text != "" {
			return true
		}
	}
	return false
}

package answer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

// MaxLogSize caps answers.log; past it the log moves to answers.log.1
// (the previous .1 is dropped).
const MaxLogSize = 256 << 10

// LogPath is the answers' log in $MEW_HOME.
func LogPath(home string) string { return filepath.Join(home, "answers.log") }

// Entry is one line of the answers' log: what was answered, on which
// prompt, when, and how it went.
type Entry struct {
	At      time.Time      `json:"at"`
	Session string         `json:"session"`
	Agent   string         `json:"agent"`
	Via     string         `json:"via,omitempty"`
	Choice  session.Choice `json:"choice"`
	Rule    string         `json:"rule,omitempty"`
	Prompt  string         `json:"prompt,omitempty"`
	Keys    []string       `json:"keys,omitempty"`
	Outcome Outcome        `json:"outcome"`
	Message string         `json:"message"`
	// Ms is from the start of the answer to the prompt gone.
	Ms int64 `json:"ms,omitempty"`
}

// maxLoggedPrompt bounds the prompt text kept per line.
const maxLoggedPrompt = 600

// AppendLog adds one line to the log at path (0600, in a 0700 directory).
func AppendLog(path string, e Entry) error {
	e.Prompt = text.Clip(e.Prompt, maxLoggedPrompt)
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if fi, err := os.Stat(path); err == nil && fi.Size()+int64(len(line)) > MaxLogSize {
		if err := os.Rename(path, path+".1"); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	// One write per line: O_APPEND keeps two processes' lines whole.
	if _, err := f.Write(line); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

package answer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// secretPatterns find what looks like a credential in a prompt (a
// command with a token in it): the log keeps what was answered, never a
// copy of the secret. Group 1, when a pattern has one, is kept (the name
// before the value).
var secretPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)(\b(?:bearer|basic|token)\s+)[A-Za-z0-9._~+/=-]{6,}`),
	regexp.MustCompile(`(?i)(\b[a-z0-9_-]*(?:token|secret|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key|auth|credential|cookie|session)[a-z0-9_-]*["']?\s*[:=]\s*["']?)[^\s"'&;|]+`),
	regexp.MustCompile(`(?i)(--?(?:token|password|passwd|secret|api-key|apikey|auth)[ =]\s*["']?)[^\s"'&;|]+`),
	regexp.MustCompile(`(\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:)[^\s@/]+@`),
	regexp.MustCompile(`\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}|\bxox[abprs]-[A-Za-z0-9-]{10,}|\bAKIA[0-9A-Z]{16}\b|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`),
}

// Redact replaces what looks like a credential in s with "[redacted]".
func Redact(s string) string {
	for _, re := range secretPatterns {
		s = re.ReplaceAllStringFunc(s, func(m string) string {
			sub := re.FindStringSubmatch(m)
			keep := ""
			if len(sub) > 1 {
				keep = sub[1]
			}
			tail := ""
			if strings.HasSuffix(m, "@") && strings.Contains(keep, "://") {
				tail = "@"
			}
			return keep + "[redacted]" + tail
		})
	}
	return s
}

// AppendLog adds one line to the log at path (0600, in a 0700 directory).
// Secrets in the prompt and the message are redacted (Redact).
func AppendLog(path string, e Entry) error {
	e.Prompt = text.Clip(Redact(e.Prompt), maxLoggedPrompt)
	e.Message = Redact(e.Message)
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

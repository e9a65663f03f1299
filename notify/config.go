// Package notify sends Mew's alerts beyond the sound: to a command, a
// webhook, and Linux desktop notifications over D-Bus. The sinks are data
// ($MEW_HOME/notify.json, 0600, written by `mew notify add|rm`); each gets
// the same decisions as the sound (board.Decide), through a bounded queue
// of its own so a slow or dead sink never holds up the monitor.
package notify

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/internal/text"
)

// ConfigName is the sinks' file in $MEW_HOME.
const ConfigName = "notify.json"

// Kinds of sink.
const (
	KindCommand = "command"
	KindWebhook = "webhook"
	KindDesktop = "desktop"
)

// Presets of a webhook's body.
const (
	PresetJSON  = "json"  // the message as JSON, as a command gets it
	PresetNtfy  = "ntfy"  // ntfy.sh: the text as the body, the title in a header
	PresetSlack = "slack" // a Slack incoming webhook: {"text": …}
)

// Sink is one place alerts go.
type Sink struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	// Argv is a command's program and arguments, run without a shell; the
	// message JSON comes on its stdin.
	Argv []string `json:"argv,omitempty"`
	// URL is a webhook's address (http or https); it may hold a token.
	URL    string `json:"url,omitempty"`
	Preset string `json:"preset,omitempty"`
}

// Config is the file's content.
type Config struct {
	Sinks []Sink `json:"sinks"`
}

var sinkName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$`)

const maxArgs, maxArgLen, maxURLLen = 64, 4096, 4096

// Validate says what is wrong with s, nil when it can be used.
func (s Sink) Validate() error {
	if !sinkName.MatchString(s.Name) {
		return fmt.Errorf("sink name %q: use 1-40 letters, digits, '.', '_' or '-'", s.Name)
	}
	switch s.Kind {
	case KindCommand:
		if len(s.Argv) == 0 || len(s.Argv) > maxArgs {
			return fmt.Errorf("sink %s: a command needs a program (and at most %d arguments)", s.Name, maxArgs)
		}
		for _, a := range s.Argv {
			if len(a) > maxArgLen || !utf8.ValidString(a) || strings.ContainsRune(a, 0) {
				return fmt.Errorf("sink %s: an argument is too long or not text", s.Name)
			}
		}
		if !filepath.IsAbs(s.Argv[0]) {
			return fmt.Errorf("sink %s: give the program by its absolute path (%q): a login service has no PATH", s.Name, s.Argv[0])
		}
	case KindWebhook:
		if err := validURL(s.URL); err != nil {
			return fmt.Errorf("sink %s: %v", s.Name, err)
		}
		switch s.Preset {
		case "", PresetJSON, PresetNtfy, PresetSlack:
		default:
			return fmt.Errorf("sink %s: unknown preset %q (json, ntfy, slack)", s.Name, s.Preset)
		}
	case KindDesktop:
	default:
		return fmt.Errorf("sink %s: unknown kind %q (command, webhook, desktop)", s.Name, s.Kind)
	}
	return nil
}

func validURL(raw string) error {
	if len(raw) > maxURLLen {
		return errors.New("the URL is too long")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("the URL's scheme must be http or https, not %q", u.Scheme)
	}
	if u.Host == "" {
		return errors.New("the URL has no host")
	}
	return nil
}

// Masked is the sink as `mew notify list` prints it: a URL's secrets (its
// user info, path past the first segment, query) replaced by "…".
func (s Sink) Masked() string {
	switch s.Kind {
	case KindCommand:
		// Arguments are any text (notify.json is the person's to edit):
		// shown inert.
		return text.Printable(strings.Join(s.Argv, " "))
	case KindWebhook:
		return MaskURL(s.URL) + " (" + presetOr(s.Preset) + ")"
	}
	return "D-Bus org.freedesktop.Notifications"
}

// MaskURL keeps a URL's scheme, host and the start of its path: enough to
// recognise it, never the token (ntfy topics and Slack hooks are secrets
// in their path).
func MaskURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "…"
	}
	out := u.Scheme + "://" + u.Host
	path := strings.TrimPrefix(u.EscapedPath(), "/")
	if path != "" {
		first, _, _ := strings.Cut(path, "/")
		if len(first) > 4 {
			first = first[:2] + "…"
		}
		out += "/" + first
		if strings.Contains(path, "/") {
			out += "/…"
		}
	}
	if u.RawQuery != "" {
		out += "?…"
	}
	return out
}

func presetOr(p string) string {
	if p == "" {
		return PresetJSON
	}
	return p
}

// LoadConfig reads $MEW_HOME/notify.json; a missing file is no sinks.
func LoadConfig(home string) (Config, error) {
	b, err := privfile.ReadFile(filepath.Join(home, ConfigName), maxFile)
	if errors.Is(err, os.ErrNotExist) {
		return Config{}, nil
	}
	if err != nil {
		return Config{}, err
	}
	var c Config
	if err := json.Unmarshal(b, &c); err != nil {
		return Config{}, fmt.Errorf("%s: %v", ConfigName, err)
	}
	for _, s := range c.Sinks {
		if err := s.Validate(); err != nil {
			return Config{}, fmt.Errorf("%s: %v", ConfigName, err)
		}
	}
	return c, nil
}

// SaveConfig writes c, 0600 (a webhook URL may hold a token), atomically.
func SaveConfig(home string, c Config) error {
	return privfile.WriteJSON(filepath.Join(home, ConfigName), c)
}

// Add returns c with s added; a sink of the same name is an error.
func (c Config) Add(s Sink) (Config, error) {
	if err := s.Validate(); err != nil {
		return c, err
	}
	for _, o := range c.Sinks {
		if o.Name == s.Name {
			return c, fmt.Errorf("a sink named %s exists (mew notify rm %s first)", s.Name, s.Name)
		}
	}
	c.Sinks = append(append([]Sink(nil), c.Sinks...), s)
	return c, nil
}

// Remove returns c without the sink named name.
func (c Config) Remove(name string) (Config, error) {
	for i, o := range c.Sinks {
		if o.Name == name {
			out := append(append([]Sink(nil), c.Sinks[:i]...), c.Sinks[i+1:]...)
			return Config{Sinks: out}, nil
		}
	}
	return c, fmt.Errorf("no sink named %q", name)
}

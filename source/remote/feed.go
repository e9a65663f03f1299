package remote

import (
	"encoding/json"
	"io"
	"runtime/debug"
	"time"

	"github.com/mew-dev/mew/session"
)

// FeedVersion numbers the format of `mew status --watch --json --feed`:
// bumped when a reader of the old format would misread the new one.
const FeedVersion = 1

// FeedFlag is the flag of `mew status --watch --json` that prints the feed.
const FeedFlag = "--feed"

// Line is one line of the feed. The first line of a connection carries
// Feed and Version; every line carries At (the host's clock). A line with
// Sessions (an empty list included) is the host's whole list; one without
// is a heartbeat, which a host writes every HeartbeatEvery when nothing
// changed, so a silent connection is known dead.
type Line struct {
	Feed     int              `json:"feed,omitempty"`
	Version  string           `json:"version,omitempty"`
	At       time.Time        `json:"at"`
	Sessions *[]session.Shown `json:"sessions,omitempty"`
	// Errors are files the host's monitor skipped (its `mew status` would
	// print them).
	Errors []string `json:"errors,omitempty"`
}

// HeartbeatEvery is how often a host says it is alive when nothing
// changes.
const HeartbeatEvery = time.Second

// FeedWriter writes the feed: the whole list on the first call and on
// every change, a heartbeat otherwise.
type FeedWriter struct {
	enc     *json.Encoder
	started bool
	Now     func() time.Time
}

// NewFeedWriter writes the feed to w.
func NewFeedWriter(w io.Writer) *FeedWriter {
	return &FeedWriter{enc: json.NewEncoder(w), Now: time.Now}
}

// Snapshot writes the whole list. This machine's sessions only: a host
// never passes on the sessions of its own remotes, so two machines that
// follow each other don't loop.
func (f *FeedWriter) Snapshot(sessions []session.Shown, errs []error) error {
	list := make([]session.Shown, 0, len(sessions))
	for _, s := range sessions {
		if s.Host == "" {
			list = append(list, s)
		}
	}
	l := Line{At: f.Now().UTC(), Sessions: &list}
	for _, e := range errs {
		l.Errors = append(l.Errors, e.Error())
	}
	if !f.started {
		l.Feed, l.Version = FeedVersion, BuildVersion()
		f.started = true
	}
	return f.enc.Encode(l)
}

// Heartbeat writes a line that says the host is alive.
func (f *FeedWriter) Heartbeat() error {
	return f.enc.Encode(Line{At: f.Now().UTC()})
}

// BuildVersion names this mew's build: the module version Go stamped into
// the binary (a VCS pseudo-version for a build from a checkout), else the
// commit, else "devel".
func BuildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		return rev + dirty
	}
	return "devel"
}

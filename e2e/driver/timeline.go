package driver

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Entry is one moment of a run: what the CLI showed, what Mew said, what the
// driver did.
type Entry struct {
	At     time.Time
	Source string // "mew", "registry", "screen", "key", "api", "note"
	Text   string
	Detail string // e.g. a screen excerpt, printed indented under the line
}

// Timeline collects entries from several goroutines.
type Timeline struct {
	Start time.Time
	mu    sync.Mutex
	all   []Entry
}

// NewTimeline starts a timeline at start.
func NewTimeline(start time.Time) *Timeline { return &Timeline{Start: start} }

// Add records an entry.
func (tl *Timeline) Add(e Entry) {
	tl.mu.Lock()
	tl.all = append(tl.all, e)
	tl.mu.Unlock()
}

// Addf records a plain entry at time at.
func (tl *Timeline) Addf(at time.Time, source, format string, args ...any) {
	tl.Add(Entry{At: at, Source: source, Text: fmt.Sprintf(format, args...)})
}

// Entries returns the entries in time order.
func (tl *Timeline) Entries() []Entry {
	tl.mu.Lock()
	out := append([]Entry(nil), tl.all...)
	tl.mu.Unlock()
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}

// Rel is t as seconds since the timeline's start.
func (tl *Timeline) Rel(t time.Time) string {
	return fmt.Sprintf("%+8.3fs", t.Sub(tl.Start).Seconds())
}

// String prints the timeline with Mew's states and the CLI's side by side:
// one line per entry, the Mew column left of the CLI column, so a reader
// sees at a glance which of them moved first.
func (tl *Timeline) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s  %-44s  %s\n", "time", "Mew (1: status --json, w: status --watch)", "the CLI (registry / screen) and driver")
	for _, e := range tl.Entries() {
		left, right := "", ""
		switch e.Source {
		case "mew":
			left = "1 " + e.Text
		case "mew-watch":
			left = "w " + e.Text
		default:
			right = e.Source + ": " + e.Text
		}
		fmt.Fprintf(&b, "%-10s  %-44s  %s\n", tl.Rel(e.At), left, right)
		if e.Detail != "" {
			for _, l := range strings.Split(strings.TrimRight(e.Detail, "\n"), "\n") {
				fmt.Fprintf(&b, "%-10s  %-44s  │ %s\n", "", "", l)
			}
		}
	}
	return b.String()
}

// Excerpt keeps the last n non-blank lines of a screen, right-trimmed: the
// prompt box, dialogs and the spinner line all live at the bottom.
func Excerpt(screen string, n int) string {
	lines := strings.Split(screen, "\n")
	var kept []string
	for i := len(lines) - 1; i >= 0 && len(kept) < n; i-- {
		l := strings.TrimRight(lines[i], " ")
		if strings.TrimSpace(l) == "" {
			continue
		}
		if r := []rune(l); len(r) > 100 {
			l = string(r[:100]) + "…"
		}
		kept = append(kept, l)
	}
	for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
		kept[i], kept[j] = kept[j], kept[i]
	}
	return strings.Join(kept, "\n")
}

package monitor

import (
	"slices"
	"testing"
	"time"

	"github.com/mew-dev/mew/session"
)

// `mew status` lists headless sessions (claude -p, SDK apps) that wait or
// are done after the ones that need you and the working ones.
func TestSortPutsHeadlessAfterNeedsYou(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s := []session.Shown{
		{ID: "h-done", State: session.Done, Since: t0, Headless: true},
		{ID: "h-wait", State: session.Waiting, Since: t0, Headless: true},
		{ID: "working", State: session.Working, Since: t0},
		{ID: "done", State: session.Done, Since: t0.Add(time.Second)},
		{ID: "h-working", State: session.Working, Since: t0.Add(time.Second), Headless: true},
	}
	Sort(s)
	var got []string
	for _, x := range s {
		got = append(got, x.ID)
	}
	if want := []string{"done", "working", "h-working", "h-done", "h-wait"}; !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

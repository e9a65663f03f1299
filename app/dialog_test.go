package app

import "testing"

func TestFailuresAreCritical(t *testing.T) {
	if styleOf(dialog{Title: "Doctor", Text: "ok"}) != alertInformational {
		t.Error("a success must not look like a warning")
	}
	if styleOf(dialog{Title: "Doctor failed", Failed: true}) != alertCritical {
		t.Error("a failure must be critical")
	}
	// The command dialogs carry Failed through.
	if d := commandDialog(doctorCommand, "", errFake{}); styleOf(d) != alertCritical {
		t.Errorf("failed command: %+v", d)
	}
}

type errFake struct{}

func (errFake) Error() string { return "boom" }

func TestDialogQueueShowsOneAtATime(t *testing.T) {
	var q dialogQueue
	if !q.Add(dialog{Title: "a"}) {
		t.Fatal("the first dialog must be scheduled")
	}
	if q.Add(dialog{Title: "b"}) {
		t.Fatal("a second dialog must wait, not schedule another modal")
	}
	d, ok := q.Next()
	if !ok || d.Title != "a" {
		t.Fatalf("first: %+v %v", d, ok)
	}
	if q.Add(dialog{Title: "c"}) {
		t.Fatal("while a dialog is up, new ones wait")
	}
	for _, want := range []string{"b", "c"} {
		if d, ok := q.Next(); !ok || d.Title != want {
			t.Fatalf("next: %+v %v, want %s", d, ok, want)
		}
	}
	if _, ok := q.Next(); ok {
		t.Fatal("empty queue gave a dialog")
	}
	if !q.Add(dialog{Title: "d"}) {
		t.Fatal("an idle queue schedules again")
	}
}

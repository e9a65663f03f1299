package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFailuresAreMarked(t *testing.T) {
	var m messageList
	m.Add(dialog{Title: "Doctor", Text: "ok"})
	if w, _ := m.Window(); w.Title != "Doctor" || w.Text != "ok" {
		t.Errorf("a success: %+v", w)
	}
	// The command dialogs carry Failed through.
	m.Add(commandDialog(doctorCommand, "", errFake{}))
	if w, _ := m.Window(); !strings.HasPrefix(w.Title, "⚠ ") {
		t.Errorf("a failure must be marked: %+v", w)
	}
}

type errFake struct{}

func (errFake) Error() string { return "boom" }

func TestMessageListNewestFirstAndBounded(t *testing.T) {
	var m messageList
	if _, ok := m.Window(); ok {
		t.Fatal("an empty list shows a window")
	}
	for _, title := range []string{"a", "b", "c", "d", "e", "f"} {
		m.Add(dialog{Title: title, Text: "text " + title})
	}
	w, ok := m.Window()
	if !ok || w.Title != "f" {
		t.Fatalf("window %+v %v", w, ok)
	}
	if !strings.HasPrefix(w.Text, "f\n\ntext f") || strings.Contains(w.Text, "text a") || !strings.Contains(w.Text, "text b") {
		t.Errorf("text:\n%s", w.Text)
	}
	if strings.Index(w.Text, "text e") > strings.Index(w.Text, "text d") {
		t.Errorf("not newest first:\n%s", w.Text)
	}
	m.Clear()
	if _, ok := m.Window(); ok {
		t.Error("closed, but still shown")
	}
}

// No modal alert anywhere in the app's darwin code (dialog.go says why):
// a guard, since no test here can run the darwin side.
func TestNoModalAlertInDarwinCode(t *testing.T) {
	files, err := filepath.Glob("*_darwin.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no darwin files: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Split so that a grep for the modal call finds only real uses.
		for _, bad := range []string{"Run" + "Modal", "run" + "Modal", "NewAlert", "ActivateIgnoringOtherApps"} {
			if strings.Contains(string(data), bad) {
				t.Errorf("%s uses %s", f, bad)
			}
		}
	}
}

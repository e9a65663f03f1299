package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/internal/testbin"
)

// The menu's Install Hooks and Doctor run the real mew subcommands and
// show their own words.
func TestRunSelfInstallAndDoctor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mew and mew-hook")
	}
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	// install copies the mew-hook next to mew (testbin puts both in one
	// directory, as Mew.app's Contents/MacOS does).
	if _, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook"); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("MEW_HOME", filepath.Join(home, ".mew"))
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
	t.Setenv("PATH", "/usr/bin:/bin") // no claude: doctor says so, it is not fatal
	ctx := context.Background()

	d := runSelf(ctx, mew, doctorCommand)
	if !d.Failed || d.Title != "Doctor: problems found" || !strings.Contains(d.Text, "cannot see your Claude Code sessions") {
		t.Fatalf("doctor before install: %+v", d)
	}
	d = runSelf(ctx, mew, installCommand)
	if d.Failed || d.Title != "Install Hooks" || !strings.Contains(d.Text, "Registered Mew's hook") {
		t.Fatalf("install: %+v", d)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "settings.json")); err != nil {
		t.Fatalf("install wrote no settings: %v", err)
	}
	d = runSelf(ctx, mew, doctorCommand)
	if d.Failed || d.Title != "Doctor" || !strings.Contains(d.Text, "Mew is set up.") {
		t.Fatalf("doctor after install: %+v", d)
	}
}

func TestRunSelfCannotStart(t *testing.T) {
	d := runSelf(context.Background(), filepath.Join(t.TempDir(), "no-such-mew"), doctorCommand)
	if !d.Failed || d.Title != "Doctor failed" || !strings.Contains(d.Text, "Could not run mew doctor") {
		t.Fatalf("%+v", d)
	}
	d = runSelf(context.Background(), "", installCommand) // the executable was not found
	if !d.Failed || !strings.Contains(d.Text, "absolute path") {
		t.Fatalf("%+v", d)
	}
}

func TestRunCommandBoundsTimeAndOutput(t *testing.T) {
	yes, err := lookPath("yes")
	if err != nil {
		t.Skip("no yes(1)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	out, err := runCommand(ctx, []string{yes})
	if err == nil || !strings.Contains(err.Error(), "time limit") {
		t.Fatalf("want a time-limit error, got %v", err)
	}
	if len(out) != maxCommandOutput {
		t.Fatalf("kept %d bytes, want the first %d", len(out), maxCommandOutput)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("a killed command took %v to return", el)
	}
	if _, err := runCommand(context.Background(), []string{"yes"}); err == nil {
		t.Fatal("a relative program must be refused")
	}
}

func lookPath(name string) (string, error) {
	for _, d := range []string{"/usr/bin", "/bin"} {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return "", os.ErrNotExist
}

func TestCommandDialogClipsLines(t *testing.T) {
	var lines []string
	for i := 0; i < dialogLines+7; i++ {
		lines = append(lines, "line")
	}
	d := commandDialog(doctorCommand, strings.Join(lines, "\n"), nil)
	if got := strings.Count(d.Text, "\n") + 1; got != dialogLines+1 {
		t.Fatalf("%d lines shown, want %d and a note", got, dialogLines+1)
	}
	if !strings.HasSuffix(d.Text, "… 7 more lines (run `mew doctor` in a terminal to see all)") {
		t.Fatalf("note: %q", d.Text[len(d.Text)-80:])
	}
	if d := commandDialog(installCommand, "  \n", nil); d.Text != "Done." {
		t.Fatalf("empty output: %+v", d)
	}
}

package main

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/assets"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/testbin"
)

var updateBoardDemo = flag.Bool("update-board-demo", false, "rewrite assets/board-demo.png from `mew snapshot --demo`")

// boardCLI runs the real mew and mew-hook binaries against a scratch
// MEW_HOME and Claude Code directory.
type boardCLI struct {
	mew, hook string
	home      string
	env       []string
}

func newBoardCLI(t *testing.T) *boardCLI {
	t.Helper()
	mew, err := testbin.Build("github.com/mew-dev/mew/cmd/mew")
	if err != nil {
		t.Fatal(err)
	}
	hook, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		t.Fatal(err)
	}
	home, claude := t.TempDir(), t.TempDir()
	return &boardCLI{mew: mew, hook: hook, home: home,
		env: append(os.Environ(), "MEW_HOME="+home, "CLAUDE_CONFIG_DIR="+claude, "TMPDIR="+t.TempDir())}
}

func (c *boardCLI) run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(c.mew, args...)
	cmd.Env = c.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// events sends hook payloads for one session through the real mew-hook.
func (c *boardCLI) events(t *testing.T, id, cwd string, names ...string) {
	t.Helper()
	for _, name := range names {
		payload := fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":%q`, id, cwd, name)
		switch name {
		case "UserPromptSubmit":
			payload += `,"prompt":"do the thing"`
		case "PreToolUse", "PermissionRequest":
			payload += `,"tool_name":"Bash","tool_input":{"command":"make deploy"},"tool_use_id":"toolu_1"`
		case "Stop":
			payload += `,"last_assistant_message":"All done."`
		}
		cmd := exec.Command(c.hook)
		cmd.Stdin = strings.NewReader(payload + "}")
		cmd.Env = c.env
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			t.Fatalf("mew-hook: %v %q", err, out)
		}
	}
}

func TestSnapshotDemoIsDeterministic(t *testing.T) {
	c := newBoardCLI(t)
	dir := t.TempDir()
	var outs [][]byte
	for i := range 2 {
		path := filepath.Join(dir, fmt.Sprintf("board%d.png", i))
		if _, errs, code := c.run(t, "snapshot", "--demo", "--png", path); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, b)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Fatal("two runs of `mew snapshot --demo` gave different bytes")
	}
	golden := filepath.Join("..", "..", "assets", "board-demo.png")
	if *updateBoardDemo {
		if err := os.WriteFile(golden, outs[0], 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(outs[0], want) {
		t.Errorf("`mew snapshot --demo` differs from assets/board-demo.png (the README picture); " +
			"if the change is meant, run `make board-demo` and look at the picture")
	}
	img, err := png.Decode(bytes.NewReader(outs[0]))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != board.Width*3 || b.Dy() != board.Height(7)*3 {
		t.Errorf("demo board is %v, want %d×%d (7 sessions at scale 3)", b, board.Width*3, board.Height(7)*3)
	}
}

func TestSnapshotOfLiveSessions(t *testing.T) {
	c := newBoardCLI(t)
	path := filepath.Join(t.TempDir(), "live.png")
	accent := func() assets.RGB {
		t.Helper()
		if _, errs, code := c.run(t, "snapshot", "--png", path, "--scale", "1"); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != board.Width || b.Dy() != board.Height(1) {
			t.Fatalf("image is %v, want one row", b)
		}
		r, g, b, _ := img.At(0, board.Height(0)-10).RGBA() // the first row's state bar
		return assets.RGB{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8)}
	}
	if got := accent(); got != assets.Theme.Idle {
		t.Errorf("with no sessions the bar is %v, want the idle colour (the napping cat)", got)
	}
	c.events(t, "live-1", "/src/deploy-bot", "SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest")
	time.Sleep(400 * time.Millisecond) // past the 300 ms a wait takes to settle
	if got := accent(); got != assets.Theme.Waiting {
		t.Errorf("a waiting session's bar is %v, want the waiting colour", got)
	}
	var out bytes.Buffer
	cmd := exec.Command(c.mew, "snapshot", "--png", "-", "--scale", "2")
	cmd.Env, cmd.Stdout = c.env, &out
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(&out); err != nil || img.Bounds().Dx() != 2*board.Width {
		t.Errorf("--png - wrote no PNG of scale 2 to stdout: %v", err)
	}
}

func TestSnapshotRejectsBadArgs(t *testing.T) {
	c := newBoardCLI(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "x.png")
	for _, args := range [][]string{
		{"snapshot"},
		{"snapshot", "--png", path, "--scale", "0"},
		{"snapshot", "--png", path, "--scale", "17"},
		{"snapshot", "--png", path, "extra"},
		{"snapshot", "--png", path, "--bogus"},
	} {
		_, errs, code := c.run(t, args...)
		if code != 2 || errs == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a refused snapshot wrote a file")
	}
	_, errs, code := c.run(t, "snapshot", "--demo", "--png", filepath.Join(dir, "no-such-dir", "x.png"))
	if code != 1 || !strings.Contains(errs, "no-such-dir") {
		t.Errorf("unwritable path: exit %d, %q", code, errs)
	}
}

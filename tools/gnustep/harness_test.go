package gnustep_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/hookbin"
	"github.com/mew-dev/mew/internal/testbin"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/source/registry"
	"github.com/mew-dev/mew/store"
)

// harness is one run of the GNUstep-built mew app on a private Xvfb
// display, with a scratch HOME and MEW_HOME, driven from outside: hook
// events through the real mew-hook, clicks through xdotool, pictures
// through xwd.
type harness struct {
	t        *testing.T
	bin      string // the GNUstep mew
	hook     string // mew-hook
	out      string // artifacts: screenshots, logs, the trace
	display  string
	env      []string
	mewHome  string
	trace    string
	counts   string
	jumpLog  string
	stderr   *lockedBuffer
	app      *exec.Cmd
	exited   chan struct{}
	exitErr  error
	startCwd string
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	f  *os.File
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.Write(p)
	if l.f != nil {
		l.f.Write(p)
	}
	return len(p), nil
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitTimeout bounds every wait on the app: generous (a loaded 2-core
// machine), never a sleep a result depends on.
const waitTimeout = 30 * time.Second

func newHarness(t *testing.T) *harness {
	t.Helper()
	if os.Getenv("MEW_GNUSTEP_UI") == "" {
		t.Skip("MEW_GNUSTEP_UI is not set: `make gnustep-ui` builds the GNUstep mew and runs this")
	}
	bin := os.Getenv("MEW_GNUSTEP_BIN")
	if bin == "" {
		t.Fatal("MEW_GNUSTEP_BIN is not set (make gnustep-ui sets it)")
	}
	for _, tool := range []string{"Xvfb", "xdotool", "xwd", "xsel"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing (.ci/run installs it)", tool)
		}
	}
	hook, err := testbin.Build("github.com/mew-dev/mew/cmd/mew-hook")
	if err != nil {
		t.Fatal(err)
	}
	out := os.Getenv("MEW_GNUSTEP_OUT")
	if out == "" {
		out = t.TempDir()
	}
	out = filepath.Join(out, t.Name())
	os.RemoveAll(out)
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, bin: bin, hook: hook, out: out, exited: make(chan struct{})}
	h.startX()
	home := t.TempDir()
	// GNUstep's distributed notification daemon (gdnc), which the app
	// starts and every later app on the machine shares, outlives the
	// test; one left by an earlier test or a killed run made the next
	// test's first menu click wait for it in vain (the menu never opened,
	// 30 s). Each test starts from its own: stale ones go first, this
	// test's when it ends (gnustep_app.m reads the mouse settings, which
	// asks gdnc, at start).
	reapGdnc("")
	t.Cleanup(func() { reapGdnc(home) })
	h.mewHome = filepath.Join(home, "mew")
	claude := filepath.Join(home, "claude")
	for _, d := range []string{h.mewHome, claude} {
		os.MkdirAll(d, 0o755)
	}
	// No sounds: GNUstep's NSSound plays on a thread of its own that
	// autoreleases without a pool (its warning is not Mew's), and there is
	// no sound card. No banners either: there is no notification center.
	if err := os.WriteFile(filepath.Join(h.mewHome, "app.json"), []byte(`{"sounds":false,"notifications":false}`), 0o644); err != nil {
		t.Fatal(err)
	}
	h.trace = filepath.Join(out, "trace.txt")
	h.counts = filepath.Join(out, "counts.txt")
	h.jumpLog = filepath.Join(out, "jumps.jsonl")
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "DISPLAY", "HOME", "MEW_HOME", "CLAUDE_CONFIG_DIR", "TMUX", "TMUX_PANE", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR":
			continue
		}
		env = append(env, kv)
	}
	h.env = append(env, "DISPLAY="+h.display, "HOME="+home, "MEW_HOME="+h.mewHome,
		"CLAUDE_CONFIG_DIR="+claude, "TMPDIR="+t.TempDir(),
		"MEW_GNUSTEP_TRACE="+h.trace, "MEW_GNUSTEP_COUNTS="+h.counts, "MEW_GNUSTEP_JUMP_LOG="+h.jumpLog)
	return h
}

// startX starts Xvfb on the first free display from :91 on. A display
// whose lock names a live process is taken; a stale lock (a killed run)
// Xvfb clears itself. Ready is when the display's socket accepts.
func (h *harness) startX() {
	t := h.t
	for n := 91; n < 160; n++ {
		if b, err := os.ReadFile(fmt.Sprintf("/tmp/.X%d-lock", n)); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && syscall.Kill(pid, 0) == nil {
				continue
			}
		}
		x := exec.Command("Xvfb", fmt.Sprintf(":%d", n), "-screen", "0", "1280x800x24", "-nolisten", "tcp")
		if err := x.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { x.Wait(); close(done) }()
		sock := fmt.Sprintf("/tmp/.X11-unix/X%d", n)
		deadline := time.Now().Add(10 * time.Second)
		ready := false
		for !ready && time.Now().Before(deadline) {
			select {
			case <-done: // lost the display to another run: next
				deadline = time.Time{}
				continue
			default:
			}
			if c, err := net.Dial("unix", sock); err == nil {
				c.Close()
				ready = true
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if ready {
			h.display = fmt.Sprintf(":%d", n)
			// SIGTERM: Xvfb removes its lock and socket.
			t.Cleanup(func() { x.Process.Signal(syscall.SIGTERM); <-done })
			return
		}
		x.Process.Signal(syscall.SIGTERM)
		<-done
	}
	t.Fatal("no free X display for Xvfb")
}

// start runs `mew app` and waits until it has built its UI (the status
// item's menu is set: the last step of startUI).
func (h *harness) start() {
	h.launch()
	h.waitFor("startUI to run (the status menu set)", func() bool {
		return h.sent("MewGSStatusItem setMenu:") > 0
	})
}

// launch runs `mew app`.
func (h *harness) launch() {
	t := h.t
	f, err := os.Create(filepath.Join(h.out, "app-stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	h.stderr = &lockedBuffer{f: f}
	h.app = exec.Command(h.bin, "app")
	h.app.Env = h.env
	h.app.Stdout, h.app.Stderr = h.stderr, h.stderr
	if err := h.app.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { h.exitErr = h.app.Wait(); f.Close(); close(h.exited) }()
	t.Cleanup(func() {
		select {
		case <-h.exited:
		default:
			h.app.Process.Kill()
			<-h.exited
		}
	})
}

// alive fails the test when the app has exited.
func (h *harness) alive() {
	h.t.Helper()
	select {
	case <-h.exited:
		h.t.Fatalf("the app exited (%v); its output:\n%s", h.exitErr, tail(h.stderr.String(), 4000))
	default:
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		h.alive()
		if cond() {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting for %s; the app's output:\n%s", what, tail(h.stderr.String(), 4000))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sent is how many times the app sent "<Class> <selector>" (the guard's
// counts file).
func (h *harness) sent(key string) int {
	b, err := os.ReadFile(h.counts)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		n, k, ok := strings.Cut(line, " ")
		if ok && k == key {
			v, _ := strconv.Atoi(n)
			return v
		}
	}
	return 0
}

// events sends Claude Code hook payloads for one session through the
// real mew-hook, as the agent would.
func (h *harness) events(id, cwd string, names ...string) {
	h.t.Helper()
	for _, name := range names {
		payload := fmt.Sprintf(`{"session_id":%q,"cwd":%q,"hook_event_name":%q`, id, cwd, name)
		switch name {
		case "UserPromptSubmit":
			payload += `,"prompt":"do the thing"`
		case "PreToolUse", "PermissionRequest":
			payload += `,"tool_name":"Bash","tool_input":{"command":"make deploy"},"tool_use_id":"toolu_1"`
		case "PostToolUse":
			payload += `,"tool_name":"Bash","tool_input":{"command":"make deploy"},"tool_use_id":"toolu_1","tool_response":{}`
		case "Stop":
			payload += `,"last_assistant_message":"All done."`
		}
		h.hookRun(nil, name, payload+"}")
	}
}

// hookRun runs mew-hook once with payload on stdin and extra environment.
func (h *harness) hookRun(extraEnv []string, name, payload string) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.hook)
	cmd.Stdin = strings.NewReader(payload)
	cmd.Env = append(append([]string(nil), h.env...), extraEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil || len(out) > 0 {
		h.t.Fatalf("mew-hook %s: %v %q", name, err, out)
	}
}

// frame is the board the panel draws for the current sessions, made
// here as `mew snapshot` makes it: where its rows and buttons are.
func (h *harness) frame() board.Frame {
	h.t.Helper()
	for _, kv := range h.env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "MEW_HOME", "CLAUDE_CONFIG_DIR":
			h.t.Setenv(k, v)
		}
	}
	// The store and Claude's registry: where the scenarios' sessions are
	// (cmd/mew wires the other sources; none of them has a session here).
	st, err := store.Open(hookbin.Fold)
	if err != nil {
		h.t.Fatal(err)
	}
	var sources []monitor.Source
	if dir, err := registry.Dir(); err == nil {
		sources = append(sources, registry.New(dir))
	}
	o := monitor.ForStore(st, sources)
	shown, _ := monitor.Snapshot(o)
	now := time.Now()
	return board.Draw(board.Arrange(shown, now, board.DefaultConfig()), now, 0)
}

// window is an X window's place on the screen.
type window struct {
	id         string
	x, y, w, h int
}

// visible lists the app's mapped windows of at least minW×minH pixels
// (GNUstep maps a few tiny helper windows).
func (h *harness) visible(minW, minH int) []window {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xdotool", "search", "--onlyvisible", "--pid", strconv.Itoa(h.app.Process.Pid), "")
	cmd.Env = h.env
	out, _ := cmd.Output() // exit 1: none
	var ws []window
	for _, id := range strings.Fields(string(out)) {
		w, ok := h.geometry(id)
		if ok && w.w >= minW && w.h >= minH {
			ws = append(ws, w)
		}
	}
	return ws
}

func (h *harness) geometry(id string) (window, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xdotool", "getwindowgeometry", "--shell", id)
	cmd.Env = h.env
	out, err := cmd.Output()
	if err != nil {
		return window{}, false
	}
	w := window{id: id}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "X":
			w.x = n
		case "Y":
			w.y = n
		case "WIDTH":
			w.w = n
		case "HEIGHT":
			w.h = n
		}
	}
	return w, true
}

// screenshot is the whole X screen as xwd sees it.
func (h *harness) screenshot() *image.RGBA {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xwd", "-root", "-silent")
	cmd.Env = h.env
	out, err := cmd.Output()
	if err != nil {
		h.t.Fatalf("xwd: %v", err)
	}
	img, err := readXWD(out)
	if err != nil {
		h.t.Fatal(err)
	}
	return img
}

// xdo runs one xdotool command.
func (h *harness) xdo(args ...string) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = h.env
	if out, err := cmd.CombinedOutput(); err != nil {
		h.t.Fatalf("xdotool %v: %v %s", args, err, out)
	}
}

// snapshot is `mew snapshot --png` of the same MEW_HOME at scale.
func (h *harness) snapshot(scale int) image.Image {
	h.t.Helper()
	path := filepath.Join(h.out, fmt.Sprintf("snapshot-%d.png", scale))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.bin, "snapshot", "--png", path, "--scale", strconv.Itoa(scale))
	cmd.Env = h.env
	if out, err := cmd.CombinedOutput(); err != nil {
		h.t.Fatalf("mew snapshot: %v %s", err, out)
	}
	f, err := os.Open(path)
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		h.t.Fatal(err)
	}
	return img
}

// reapGdnc kills the gdnc processes a test started: those whose HOME is
// home, or, with home "", whose HOME is gone (their test ended).
func reapGdnc(home string) {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		cmd, err := os.ReadFile(filepath.Join(p, "cmdline"))
		if err != nil || filepath.Base(string(bytes.SplitN(cmd, []byte{0}, 2)[0])) != "gdnc" {
			continue
		}
		env, err := os.ReadFile(filepath.Join(p, "environ"))
		if err != nil {
			continue
		}
		var its string
		for _, kv := range bytes.Split(env, []byte{0}) {
			if v, ok := bytes.CutPrefix(kv, []byte("HOME=")); ok {
				its = string(v)
			}
		}
		if its == "" {
			continue
		}
		_, statErr := os.Stat(its)
		if its == home || home == "" && os.IsNotExist(statErr) {
			if pid, err := strconv.Atoi(filepath.Base(p)); err == nil {
				syscall.Kill(pid, syscall.SIGTERM)
			}
		}
	}
}

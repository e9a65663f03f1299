package proctree

import (
	"encoding/binary"
	"os/exec"
	"testing"
	"time"
)

func TestParseProcArgs2(t *testing.T) {
	var buf []byte
	buf = binary.LittleEndian.AppendUint32(buf, 2)
	buf = append(buf, "/usr/bin/tmux\x00\x00\x00\x00"...)
	buf = append(buf, "tmux\x00attach\x00"...)
	buf = append(buf, "TERM=xterm\x00WEZTERM_PANE=7\x00KITTY_WINDOW_ID=3=x\x00\x00"...)
	buf = append(buf, "executable_path=/usr/bin/tmux\x00"...) // Apple's strings after the environment
	env, err := parseProcArgs2(buf)
	if err != nil {
		t.Fatal(err)
	}
	got := pick(env, []string{"WEZTERM_PANE", "KITTY_WINDOW_ID", "executable_path", "attach"})
	if len(got) != 2 || got["WEZTERM_PANE"] != "7" || got["KITTY_WINDOW_ID"] != "3=x" {
		t.Fatalf("env = %q", got)
	}
	if _, err := parseProcArgs2(buf[:3]); err == nil {
		t.Fatal("short buffer accepted")
	}
	trunc := binary.LittleEndian.AppendUint32(nil, 5)
	trunc = append(trunc, "/bin/x\x00a\x00"...)
	if _, err := parseProcArgs2(trunc); err == nil {
		t.Fatal("truncated arguments accepted")
	}
}

func TestEnvironOfChild(t *testing.T) {
	cmd := exec.Command("sleep", "5")
	cmd.Env = []string{"WEZTERM_PANE=42", "OTHER=1", "KITTY_LISTEN_ON=unix:/tmp/k"}
	if err := cmd.Start(); err != nil {
		t.Skip("cannot start sleep:", err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	// Environ reads an empty environment again a few ms later (a process
	// inside its execve); on a loaded machine the child may sit there
	// longer than that.
	got, err := Environ(cmd.Process.Pid, []string{"WEZTERM_PANE", "KITTY_LISTEN_ON"})
	for deadline := time.Now().Add(5 * time.Second); err == nil && len(got) == 0 && time.Now().Before(deadline); {
		got, err = Environ(cmd.Process.Pid, []string{"WEZTERM_PANE", "KITTY_LISTEN_ON"})
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["WEZTERM_PANE"] != "42" || got["KITTY_LISTEN_ON"] != "unix:/tmp/k" {
		t.Fatalf("env = %q", got)
	}
	if _, err := Environ(-1, nil); err == nil {
		t.Fatal("pid -1 accepted")
	}
}

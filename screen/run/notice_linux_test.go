package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mew-dev/mew/store"
)

// An agent that asks its terminal for a notification (OSC 9) and shows a
// progress bar (OSC 9;4): the session records that it asked for
// attention, what it said, and the progress.
const fakeClaudeNotifies = `#!/bin/sh
printf '\033]0;✳ Claude Code\007\033[2J\033[H'
printf ' Bash command\r\n   touch x\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n\r\n Esc to cancel · Tab to amend\r\n'
printf '\033]9;Claude needs your permission to use Bash\007\033]9;4;3\007'
sleep 1
exit 3
`

func TestRunRecordsTheAgentsNotifications(t *testing.T) {
	dir := t.TempDir()
	agent := filepath.Join(dir, "claude")
	if err := os.WriteFile(agent, []byte(fakeClaudeNotifies), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "mew")
	if code, out := runIn(t, home, agent); code != 3 {
		t.Fatalf("exit %d, output %q", code, out)
	}
	files, _ := filepath.Glob(filepath.Join(home, "sessions", "run:*.json"))
	if len(files) != 1 {
		t.Fatalf("session files %q", files)
	}
	rec, err := store.Store{Home: home}.Load(strings.TrimSuffix(filepath.Base(files[0]), ".json"))
	if err != nil || rec.Screen == nil {
		t.Fatalf("%+v %v", rec, err)
	}
	sc := rec.Screen
	if sc.Attention.IsZero() || sc.Notice != "Claude needs your permission to use Bash" || sc.Progress != "indeterminate" {
		t.Fatalf("screen %+v: want the notification and the progress", sc)
	}
}

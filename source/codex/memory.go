package codex

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// A one-shot `mew status` starts with no memory: a TUI that quit before it
// ran was never seen, and its session's gone Terminal could not name the
// pane whose last screen is that session's (one row at the exit, not two).
// So Scan keeps the TUI that last showed each session in a small file
// ($MEW_HOME/screens/codex-ui.json), read at the first Scan and written
// when it changed. Watch keeps it in memory only.

// maxUIMemory bounds what is read of the file.
const maxUIMemory = 1 << 20

// recallUIs fills lastUI from Memory the first time (nothing when the file
// is missing or unreadable).
func (s *Source) recallUIs() {
	if s.Memory == "" || s.recalled {
		return
	}
	s.recalled = true
	data, err := privfile.ReadFile(s.Memory, maxUIMemory)
	var saved map[string]session.Process
	if err != nil || json.Unmarshal(data, &saved) != nil {
		return
	}
	for id, p := range saved {
		if session.ValidID(id) && p.Pid > 0 {
			if _, known := s.lastUI[id]; !known {
				s.lastUI[id] = p
			}
		}
	}
	s.saved = maps.Clone(s.lastUI)
}

// rememberUIs writes lastUI to Memory when it changed since it was read or
// written (best effort: a file that cannot be written only costs the next
// one-shot read its memory).
func (s *Source) rememberUIs() {
	if s.Memory == "" || maps.EqualFunc(s.lastUI, s.saved, sameUI) {
		return
	}
	data, err := json.Marshal(s.lastUI)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(s.Memory), 0o700); err != nil {
		return
	}
	if store.WriteFileAtomic(s.Memory, data, 0o600) == nil {
		s.saved = maps.Clone(s.lastUI)
	}
}

func sameUI(a, b session.Process) bool {
	return a.Pid == b.Pid && a.StartMs == b.StartMs && a.Tty == b.Tty && (a.Tmux == nil) == (b.Tmux == nil) &&
		(a.Tmux == nil || *a.Tmux == *b.Tmux)
}

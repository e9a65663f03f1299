package tmux

import (
	"encoding/json"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/store"
)

// A one-shot read (Scan: `mew status`) sees each pane once. With Memory
// set, what the source knew of each pane is kept in that file from one
// Scan to the next, so a one-shot read still knows that a prompt went away
// since the last one (combine rule 5: Gemini CLI's deny with Esc fires no
// hook) and when a state began. Watch keeps it in memory and needs no file.

// MemoryFile is the memory file in dir for the server at socket (one per
// server: pane ids are per server).
func MemoryFile(dir, socket string) string {
	h := fnv.New64a()
	h.Write([]byte(socket))
	return filepath.Join(dir, "tmux-"+strconv.FormatUint(h.Sum64(), 16)+".json")
}

// maxMemory bounds what is read of the file.
const maxMemory = 1 << 20

type savedPane struct {
	Agent   string        `json:"agent"`
	Fg      int           `json:"fg"`
	FgStart int64         `json:"fg_start"`
	FgAgent string        `json:"fg_agent"`
	Since   time.Time     `json:"since"`
	BgSince time.Time     `json:"bg_since,omitempty"`
	Tracker screen.Memory `json:"tracker"`
}

// recall fills the source's panes from the memory file (nothing when it is
// missing or unreadable: a first read).
func (s *Source) recall() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Memory == "" || s.panes != nil {
		return
	}
	f, err := os.Open(s.Memory)
	if err != nil {
		return
	}
	defer f.Close()
	var saved map[string]savedPane
	data, err := io.ReadAll(io.LimitReader(f, maxMemory))
	if err != nil || json.Unmarshal(data, &saved) != nil {
		return
	}
	s.panes = map[string]*pane{}
	for id, sp := range saved {
		if !validPane(id) {
			continue
		}
		p := &pane{id: id, agent: sp.Agent, fg: sp.Fg, fgStart: sp.FgStart, fgAgent: sp.FgAgent, since: sp.Since, bgSince: sp.BgSince}
		p.tracker.Restore(sp.Tracker)
		s.panes[id] = p
	}
}

// remember writes the panes to the memory file.
func (s *Source) remember() error {
	if s.Memory == "" {
		return nil
	}
	s.mu.Lock()
	saved := make(map[string]savedPane, len(s.panes))
	for id, p := range s.panes {
		if p.agent == "" && p.fgAgent == "" {
			continue // a shell: nothing worth remembering
		}
		saved[id] = savedPane{Agent: p.agent, Fg: p.fg, FgStart: p.fgStart, FgAgent: p.fgAgent, Since: p.since, BgSince: p.bgSince, Tracker: p.tracker.Memory()}
	}
	s.mu.Unlock()
	data, err := json.Marshal(saved)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.Memory), 0o700); err != nil {
		return err
	}
	return store.WriteFileAtomic(s.Memory, data, 0o600)
}

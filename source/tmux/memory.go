package tmux

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/gofrs/flock"

	"github.com/mew-dev/mew/internal/privfile"
	"github.com/mew-dev/mew/screen"
	"github.com/mew-dev/mew/store"
	"github.com/mew-dev/mew/terminal/termid"
)

// A one-shot read (Scan: `mew status`) sees each pane once. With Memory
// set, what the source knew of each pane is kept in that file from one
// Scan to the next, so a one-shot read still knows that a prompt went away
// since the last one (combine rule 5: Gemini CLI's deny with Esc fires no
// hook) and when a state began. Watch keeps it in memory, starts from the
// file and leaves it what it knew when it ends (a restart keeps the times).

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
	FgName  string        `json:"fg_name,omitempty"`
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
	saved := readMemory(s.Memory)
	if len(saved) == 0 {
		return
	}
	s.panes = map[string]*pane{}
	for id, sp := range saved {
		if !termid.ValidTmuxPane(id) {
			continue
		}
		p := &pane{id: id, agent: sp.Agent, fg: sp.Fg, fgStart: sp.FgStart, fgName: sp.FgName, fgAgent: sp.FgAgent, since: sp.Since, bgSince: sp.BgSince}
		p.tracker.Restore(sp.Tracker)
		s.panes[id] = p
	}
}

// readMemory reads the memory file; empty when it is missing or unreadable.
func readMemory(path string) map[string]savedPane {
	saved := map[string]savedPane{}
	data, err := privfile.ReadFile(path, maxMemory)
	if err != nil || json.Unmarshal(data, &saved) != nil {
		return map[string]savedPane{}
	}
	return saved
}

// remember writes the panes to the memory file. One-shot reads overlap
// (`mew status` every 100 ms, each taking longer under load): under a lock,
// a pane another read saw later than this one keeps that reading, so a
// slow read never makes the file forget a prompt a faster one saw.
func (s *Source) remember() error {
	if s.Memory == "" {
		return nil
	}
	s.mu.Lock()
	mine := make(map[string]savedPane, len(s.panes))
	for id, p := range s.panes {
		if p.agent == "" && p.fgAgent == "" {
			continue // a shell: nothing worth remembering
		}
		mine[id] = savedPane{Agent: p.agent, Fg: p.fg, FgStart: p.fgStart, FgName: p.fgName, FgAgent: p.fgAgent, Since: p.since, BgSince: p.bgSince, Tracker: p.tracker.Memory()}
	}
	s.mu.Unlock()
	if len(mine) == 0 {
		if _, err := os.Stat(s.Memory); err != nil {
			return nil // no agent pane, nothing kept: leave $MEW_HOME as it is
		}
	}
	if err := os.MkdirAll(filepath.Dir(s.Memory), 0o700); err != nil {
		return err
	}
	lock := flock.New(s.Memory+".lock", flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if ok, err := lock.TryLockContext(ctx, 10*time.Millisecond); !ok {
		return fmt.Errorf("memory %s is locked: %v", s.Memory, err)
	}
	defer lock.Unlock()
	saved := readMemory(s.Memory)
	for id, p := range mine {
		if old, ok := saved[id]; ok && old.Tracker.State.At.After(p.Tracker.State.At) {
			continue
		}
		saved[id] = p
	}
	for id := range saved {
		if _, ok := mine[id]; !ok {
			delete(saved, id) // the pane is gone or runs no agent any more
		}
	}
	data, err := json.Marshal(saved)
	if err != nil {
		return err
	}
	return store.WriteFileAtomic(s.Memory, data, 0o600)
}

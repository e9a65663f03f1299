package store

import (
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mew-dev/mew/session"
)

// Cached lists what keep makes of the stored records it accepts. It
// decodes a session file again only when its size or time changed since
// the last call: a source asks every poll, and a store can hold hundreds
// of sessions of other agents.
func Cached[T any](st Store, keep func(session.Record) (T, bool)) func() []T {
	type seen struct {
		mod  time.Time
		size int64
		kept *T // nil: not one keep accepts
	}
	var mu sync.Mutex
	cache := map[string]seen{}
	return func() []T {
		mu.Lock()
		defer mu.Unlock()
		entries, err := os.ReadDir(st.Dir())
		if err != nil {
			return nil
		}
		present := make(map[string]bool, len(entries))
		var out []T
		for _, e := range entries {
			id, ok := strings.CutSuffix(e.Name(), ".json")
			if !ok || e.IsDir() || !session.ValidID(id) {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue
			}
			present[id] = true
			c, ok := cache[id]
			if !ok || !c.mod.Equal(fi.ModTime()) || c.size != fi.Size() {
				c = seen{mod: fi.ModTime(), size: fi.Size()}
				if r, err := st.Load(id); err == nil {
					if v, ok := keep(r); ok {
						c.kept = &v
					}
				}
				cache[id] = c
			}
			if c.kept != nil {
				out = append(out, *c.kept)
			}
		}
		for id := range cache {
			if !present[id] {
				delete(cache, id)
			}
		}
		return out
	}
}

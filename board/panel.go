package board

// Panel decides the panel's visibility from the edges of the set of
// session ids that need the person, never from the level: polling the same
// set again changes nothing, so a panel the person closed stays closed
// until an id that was not in the set enters it.
type Panel struct {
	members map[string]bool
	open    bool
	pinned  bool // opened by the person: empty sets don't hide it
}

// Update takes the ids needing the person now and returns those that were
// not in the set before. Any such id opens the panel; an empty set hides it
// (unless the person opened it themselves).
func (p *Panel) Update(ids []string) (entered []string) {
	next := make(map[string]bool, len(ids))
	for _, id := range ids {
		if next[id] {
			continue
		}
		next[id] = true
		if !p.members[id] {
			entered = append(entered, id)
		}
	}
	p.members = next
	switch {
	case len(entered) > 0:
		p.open = true
	case len(next) == 0 && !p.pinned:
		p.open = false
	}
	return entered
}

// Close is the person closing the panel.
func (p *Panel) Close() { p.open, p.pinned = false, false }

// Show is the person opening the panel.
func (p *Panel) Show() { p.open, p.pinned = true, true }

// IsOpen reports whether the panel should be visible.
func (p *Panel) IsOpen() bool { return p.open }

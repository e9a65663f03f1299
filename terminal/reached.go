package terminal

import (
	"sync"

	"github.com/mew-dev/mew/terminal/termid"
)

// Reached is a set of apps, by bundle id, to which a step the person
// started (a jump they clicked, an answer they chose) sent Apple Events
// that went through. Safe for concurrent use.
type Reached struct {
	mu   sync.Mutex
	apps map[string]bool
}

// Add records that bundle took Mew's Apple Events.
func (r *Reached) Add(bundle string) {
	if !termid.ValidBundleID(bundle) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.apps == nil {
		r.apps = map[string]bool{}
	}
	r.apps[bundle] = true
}

// Has reports whether bundle took Mew's Apple Events in this process.
func (r *Reached) Has(bundle string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.apps[bundle]
}

// Reset forgets every app (tests).
func (r *Reached) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.apps = nil
}

// AppleEvents is what the jump runner and the answerer learnt, in this
// process, about which apps allow Mew's Apple Events; both read it too (a
// jump after an iTerm2 answer needs no prompt time). Only to these apps
// does Mew send events of its own, unasked (the alert's focus check): the
// first event to an app shows macOS's Automation prompt, and a check
// bounded to 2 s would kill it, the sheet flashing and going at every
// alert before the person ever clicked a cat.
var AppleEvents Reached

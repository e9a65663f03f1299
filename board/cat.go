package board

import (
	"hash/fnv"

	"github.com/mew-dev/mew/assets"
)

// Cat is a session's cat. Everything about it comes from the FNV-1a hash
// of the session id, so the same session is the same cat on every run and
// on every machine, with nothing stored.
type Cat struct {
	Hash uint32
	Coat int // index into assets.Coats
	// StepTicks is how many ticks a one-pixel walking step takes: the
	// cat's speed (2 = 4 px/s at 8 Hz; 6 = 1.3 px/s). Always even, so every
	// cat moves on the same ticks (see Scene).
	StepTicks int
	// Phase offsets the cat's animation so cats don't move in lockstep.
	Phase int
}

// Walking speeds, in ticks per one-pixel step.
var stepTicks = [...]int{2, 4, 6}

// CatFor returns the cat of a session id. Separate bit ranges of the hash
// pick the coat, speed and phase, so they vary independently.
func CatFor(id string) Cat {
	h := fnv.New32a()
	h.Write([]byte(id))
	sum := h.Sum32()
	return Cat{
		Hash:      sum,
		Coat:      int(sum % uint32(len(assets.Coats))),
		StepTicks: stepTicks[(sum>>16)%uint32(len(stepTicks))],
		Phase:     int((sum >> 20) & 0xff),
	}
}

// CoatColors returns the cat's coat.
func (c Cat) CoatColors() assets.Coat { return assets.Coats[c.Coat] }

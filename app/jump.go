package app

import "github.com/mew-dev/mew/jump"

// jumpFeedback decides what the person hears of a jump: nothing when it
// worked or a newer click replaced it, a short error sound when nothing
// came forward (the message goes to the log).
func jumpFeedback(r jump.Result) (sound string) {
	if r.Dropped || r.Precision != jump.None {
		return ""
	}
	return jumpFailedSound
}

// jumpFailedSound is a macOS system sound, distinct from the alerts'.
const jumpFailedSound = "Funk"

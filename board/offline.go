package board

import (
	"time"

	"github.com/mew-dev/mew/assets"
	"github.com/mew-dev/mew/monitor/combine"
	"github.com/mew-dev/mew/session"
)

// Sessions on other machines (package remote) are listed like this
// machine's, with the host after the project. While a host cannot be
// reached its sessions keep their last state (never exited: nobody knows
// they ended), drawn greyed and still, with "offline, last seen …".

// Label is what the boards call a session: its project, and " @host" for a
// session on another machine.
func Label(s session.Shown) string {
	p := combine.Project(s.Cwd)
	if s.Host == "" {
		return p
	}
	if p == "" {
		return "@" + s.Host
	}
	return p + " @" + s.Host
}

// OfflineNote says since when an offline host's states are stale.
func OfflineNote(lastSeen, now time.Time) string {
	if lastSeen.IsZero() {
		return "offline, not reached yet"
	}
	return "offline, last seen " + FormatAge(now.Sub(lastSeen)) + " ago"
}

// greyed is c as an offline row draws it: its brightness only, halfway
// to the background, so the row reads as there but asleep.
func greyed(c RGB) RGB {
	bg := assets.Theme.Background
	l := (299*int(c.R) + 587*int(c.G) + 114*int(c.B)) / 1000
	mix := func(b uint8) uint8 { return uint8((l + int(b)) / 2) }
	return RGB{R: mix(bg.R), G: mix(bg.G), B: mix(bg.B)}
}

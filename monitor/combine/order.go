package combine

import "github.com/mew-dev/mew/session"

// hookIsNewer says whether the hooks' latest event came after the
// registry's status. The two come from different processes: the hook
// stamps its event, the monitor places the registry's status on the same
// clock when it reads the file (registry.ObserveMono). The machine's
// monotonic clock orders them even when the wall clock stepped in between
// (a wall clock set back an hour would otherwise let an old reading beat
// every newer event for an hour); without a monotonic time on both sides,
// the wall clocks decide. On a tie the hooks, which carry more detail, win.
func hookIsNewer(h *session.HookState, r *session.RegistryState) bool {
	if h.AtMono != 0 && r.AtMono != 0 {
		return h.AtMono >= r.AtMono
	}
	return !h.At.Before(r.At)
}

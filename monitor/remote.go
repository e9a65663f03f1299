package monitor

// The other machines' sessions join this one's after combine (moved here
// from source/remote: the read side depends on no concrete source).

import (
	"fmt"

	"github.com/mew-dev/mew/session"
)

// mergeRemote puts the hosts' sessions after this machine's. Every id is listed
// once (the board, jumps and alerts key on it): a host's session whose id
// is already listed (this machine's, or an earlier host's) is left out, and
// an error says so. Ids are UUIDs, so this only happens when two remotes
// are the same machine.
func mergeRemote(local []*session.Shown, remote []session.Shown) ([]*session.Shown, []error) {
	out := make([]*session.Shown, 0, len(local)+len(remote))
	where := make(map[string]string, len(local)+len(remote))
	for _, s := range local {
		out = append(out, s)
		where[s.ID] = s.Host
	}
	var errs []error
	for i := range remote {
		s := &remote[i]
		if h, dup := where[s.ID]; dup {
			if h == "" {
				h = "this machine"
			}
			errs = append(errs, fmt.Errorf("remote %s: session %s is listed by %s already (two remotes for one machine?)", s.Host, s.ID, h))
			continue
		}
		where[s.ID] = s.Host
		out = append(out, s)
	}
	return out, errs
}

package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/install"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
	"github.com/mew-dev/mew/source/tmux"
)

// onceTimeout bounds how long a one-shot command waits for the remotes:
// an unreachable host shows as offline rather than holding `mew status`.
const onceTimeout = 4 * time.Second

// attachRemotes adds the remotes of `mew remote add` to o: with follow, a
// hub that follows them until ctx ends; else each is asked once. It
// returns nil when there are none (or their config is unreadable, which
// it reports).
func attachRemotes(ctx context.Context, o *monitor.Options, follow bool, stderr io.Writer, cmd string) *remote.Hub {
	hub, err := remote.ForHome(o.Store.Home)
	if err != nil {
		fmt.Fprintf(stderr, "mew %s: remotes left out: %v\n", cmd, err)
	}
	if hub == nil {
		return nil
	}
	if follow {
		go hub.Run(ctx)
	} else {
		octx, cancel := context.WithTimeout(ctx, onceTimeout)
		hub.Once(octx)
		cancel()
	}
	o.Remote = hub
	return hub
}

// snapshot reads o's sources once (monitor.Snapshot), saying on stderr
// what `mew <cmd>` had to leave out.
func snapshot(o monitor.Options, cmd string, stderr io.Writer) []session.Shown {
	shown, errs := monitor.Snapshot(o)
	for _, e := range errs {
		fmt.Fprintf(stderr, "mew %s: skipped: %v\n", cmd, e)
	}
	return shown
}

// boardConfig is the boards' configuration with the tmux server the board
// acts on (its socket from the environment).
func boardConfig() board.Config {
	cfg := board.DefaultConfig()
	cfg.TmuxSocket = tmux.SocketPath(tmux.SocketFromEnv())
	return cfg
}

// findSession is the session named by want, an id or a unique prefix,
// among this machine's merged records (o's sources read once) and, when
// withRemotes and none here matches, the remotes' (asked once).
func findSession(o monitor.Options, want string, withRemotes bool, stderr io.Writer, cmd string) (act.Found, error) {
	recs, _ := monitor.Records(o) // a source that could not be read leaves its sessions out
	s := &act.Sessions{}
	s.Set(recs)
	if withRemotes {
		s.Remotes = func() *remote.Hub {
			ro := monitor.Options{Store: o.Store}
			return attachRemotes(context.Background(), &ro, false, stderr, cmd)
		}
	}
	return s.Find(want)
}

// doctorRemotes checks each remote of `mew remote add` (reachable, its
// mew, its hooks), all at once.
func doctorRemotes(mewHome string) []install.Finding {
	cfg, err := remote.Load(mewHome)
	if err != nil {
		return []install.Finding{{Level: install.Problem, Text: "remotes: " + err.Error()}}
	}
	if len(cfg.Remotes) == 0 {
		return nil
	}
	ssh, _ := remote.FindSSH()
	return install.DoctorRemotes(context.Background(), cfg.Remotes, ssh, remote.RunSSH)
}

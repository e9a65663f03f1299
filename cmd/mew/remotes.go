package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mew-dev/mew/install"
	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/remote"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
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

// findRemote is the session on a remote named by its id or a prefix of
// exactly one remote session's id (the remotes asked once).
func findRemote(st store.Store, want string, stderr io.Writer, cmd string) (session.Shown, remote.Remote, bool) {
	o := monitor.Options{Store: st}
	hub := attachRemotes(context.Background(), &o, false, stderr, cmd)
	if hub == nil {
		return session.Shown{}, remote.Remote{}, false
	}
	var match []session.Shown
	for _, s := range hub.Sessions() {
		if s.ID == want {
			match = []session.Shown{s}
			break
		}
		if strings.HasPrefix(s.ID, want) {
			match = append(match, s)
		}
	}
	if len(match) != 1 {
		return session.Shown{}, remote.Remote{}, false
	}
	return hub.Find(match[0].ID)
}

// jumpRemote plans `mew jump` to a session on a remote (findRemote).
func jumpRemote(st store.Store, want string, stderr io.Writer) (jump.Plan, bool) {
	s, r, ok := findRemote(st, want, stderr, "jump")
	if !ok {
		return jump.Plan{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), jump.DefaultPlanTimeout)
	defer cancel()
	return remote.PlanJump(ctx, s, r, remote.LocalJumpSystem()), true
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
	return remote.Doctor(context.Background(), cfg.Remotes, ssh, remote.RunSSH)
}

package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/mew-dev/mew/install"
	"github.com/mew-dev/mew/jump"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
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
// exactly one remote session's id (the remotes asked once); errNoSession
// when none is.
func findRemote(st store.Store, want string, stderr io.Writer, cmd string) (session.Shown, remote.Remote, error) {
	o := monitor.Options{Store: st}
	hub := attachRemotes(context.Background(), &o, false, stderr, cmd)
	if hub == nil {
		return session.Shown{}, remote.Remote{}, fmt.Errorf("%w %q (see `mew status`)", errNoSession, want)
	}
	s, err := findByID(hub.Sessions(), func(s session.Shown) string { return s.ID }, want)
	if err != nil {
		return session.Shown{}, remote.Remote{}, err
	}
	s, r, ok := hub.Find(s.ID)
	if !ok {
		return session.Shown{}, remote.Remote{}, fmt.Errorf("%w %q (see `mew status`)", errNoSession, want)
	}
	return s, r, nil
}

// jumpRemote plans `mew jump` to a session on a remote (findRemote).
func jumpRemote(st store.Store, want string, stderr io.Writer) (jump.Plan, error) {
	s, r, err := findRemote(st, want, stderr, "jump")
	if err != nil {
		return jump.Plan{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), jump.DefaultPlanTimeout)
	defer cancel()
	return jump.PlanRemote(ctx, s, r, jump.LocalRemoteSystem()), nil
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

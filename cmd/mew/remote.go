package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/source/remote"
	"github.com/mew-dev/mew/store"
)

func init() {
	register("remote", "sessions on other machines over ssh: add, list, rm", runRemote)
}

func remoteUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: mew remote add NAME [user@]host [--ssh-option Key=Value]... [--mew PATH] [--no-check]")
	fmt.Fprintln(w, "       mew remote list")
	fmt.Fprintln(w, "       mew remote rm NAME")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Mew runs `mew status --watch --json --feed` on each remote with your ssh (and ~/.ssh/config),")
	fmt.Fprintln(w, "in batch mode: set up key or agent login first; Mew never asks for a password.")
	fmt.Fprintln(w, "Install Mew there the same way (`mew install`). --ssh-option may repeat (Port=2222, IdentityFile=…,")
	fmt.Fprintln(w, "ProxyJump=…); options that run commands belong in ~/.ssh/config. --mew names the mew command")
	fmt.Fprintln(w, "there when it is not on the PATH of a non-interactive login.")
}

func runRemote(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		remoteUsage(stderr)
		return 2
	}
	switch args[0] {
	case "add":
		return remoteAdd(args[1:], stdout, stderr)
	case "list", "ls":
		return remoteList(args[1:], stdout, stderr)
	case "rm", "remove":
		return remoteRm(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		remoteUsage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "mew remote: unknown subcommand %q\n\n", text.OneLine(args[0], 80))
	remoteUsage(stderr)
	return 2
}

// parseRemoteAdd reads `add`'s arguments; flags may come before or after
// NAME and host.
func parseRemoteAdd(args []string) (r remote.Remote, check bool, err error) {
	var pos []string
	check = true
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(a, "=")
		if !strings.HasPrefix(a, "-") {
			pos = append(pos, a)
			continue
		}
		if v, ok := strings.CutPrefix(a, "-o"); ok && v != "" {
			// ssh's own spelling, -oKey=Value: checked as --ssh-option is.
			opt, err := remote.NormalizeOption(v)
			if err != nil {
				return r, false, err
			}
			r.SSHOptions = append(r.SSHOptions, opt)
			continue
		}
		needValue := func() (string, error) {
			if hasValue {
				return value, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("%s needs a value", name)
			}
			i++
			return args[i], nil
		}
		switch name {
		case "--ssh-option", "-o":
			v, err := needValue()
			if err != nil {
				return r, false, err
			}
			opt, err := remote.NormalizeOption(v)
			if err != nil {
				return r, false, err
			}
			r.SSHOptions = append(r.SSHOptions, opt)
		case "--mew":
			v, err := needValue()
			if err != nil {
				return r, false, err
			}
			r.Mew = v
		case "--no-check":
			check = false
		default:
			return r, false, fmt.Errorf("unknown flag %q", text.OneLine(a, 80))
		}
	}
	if len(pos) != 2 {
		return r, false, fmt.Errorf("want NAME and [user@]host, got %d arguments", len(pos))
	}
	r.Name, r.Host = pos[0], pos[1]
	return r, check, r.Validate()
}

func remoteAdd(args []string, stdout, stderr io.Writer) int {
	r, check, err := parseRemoteAdd(args)
	if err != nil {
		fmt.Fprintf(stderr, "mew remote add: %v\n\n", err)
		remoteUsage(stderr)
		return 2
	}
	home, err := store.Home()
	if err != nil {
		fmt.Fprintf(stderr, "mew remote add: %v\n", err)
		return 1
	}
	if err := remote.Edit(home, func(c *remote.Config) error { return c.Add(r) }); err != nil {
		fmt.Fprintf(stderr, "mew remote add: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "Added remote %s (%s).\n", r.Name, r.Host)
	if !check {
		return 0
	}
	// Try it once, so a typo or a missing key shows now and not as a grey
	// host later.
	ssh, err := remote.FindSSH()
	if err != nil {
		fmt.Fprintf(stdout, "Not checked: %v.\n", err)
		return 0
	}
	hub := remote.New(remote.Options{Remotes: []remote.Remote{r}, Dial: remote.DialSSH(ssh), CacheDir: remote.CacheDir(home)})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	hub.Once(ctx)
	h := hub.Hosts()[0]
	if h.Link == remote.Online {
		fmt.Fprintf(stdout, "Reached %s: mew %s, %d session(s).\n", r.Name, h.Version, h.Sessions)
		return 0
	}
	fmt.Fprintf(stdout, "Could not reach %s yet: %s\nMew keeps trying while it runs; `mew doctor` checks it again.\n", r.Name, h.Why)
	return 0
}

func remoteList(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		remoteUsage(stderr)
		return 2
	}
	home, err := store.Home()
	if err != nil {
		fmt.Fprintf(stderr, "mew remote list: %v\n", err)
		return 1
	}
	c, err := remote.Load(home)
	if err != nil {
		fmt.Fprintf(stderr, "mew remote list: %v\n", err)
		return 1
	}
	if len(c.Remotes) == 0 {
		fmt.Fprintln(stdout, "No remotes. Add one with `mew remote add NAME [user@]host`.")
		return 0
	}
	// The cached lists say when each host was last heard from (by any mew).
	hub := remote.New(remote.Options{Remotes: c.Remotes, CacheDir: remote.CacheDir(home)})
	seen := map[string]time.Time{}
	for _, h := range hub.Hosts() {
		seen[h.Name] = h.LastSeen
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tHOST\tSSH OPTIONS\tMEW\tLAST SEEN")
	for _, r := range c.Remotes {
		last := "never"
		if t := seen[r.Name]; !t.IsZero() {
			last = board.FormatAge(time.Since(t)) + " ago"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Name, r.Host, dash(strings.Join(r.SSHOptions, " ")), r.MewCommand(), last)
	}
	tw.Flush()
	return 0
}

func remoteRm(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		remoteUsage(stderr)
		return 2
	}
	name := args[0]
	home, err := store.Home()
	if err != nil {
		fmt.Fprintf(stderr, "mew remote rm: %v\n", err)
		return 1
	}
	if err := remote.Edit(home, func(c *remote.Config) error {
		r, ok := c.Find(name)
		if ok {
			name = r.Name
		}
		return c.Remove(name)
	}); err != nil {
		fmt.Fprintf(stderr, "mew remote rm: %v\n", err)
		return 1
	}
	if err := remote.RemoveCache(home, name); err != nil {
		fmt.Fprintf(stderr, "mew remote rm: removed, but its cached list stays: %v\n", err)
	}
	fmt.Fprintf(stdout, "Removed remote %s.\n", name)
	return 0
}

package main

import (
	"context"
	"flag"
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
	add(&command{
		name: "remote", summary: "sessions on other machines over ssh: add, list, rm",
		help: `Mew runs 'mew status --watch --json --feed' on each remote with your ssh (and ~/.ssh/config),
in batch mode: set up key or agent login first; Mew never asks for a password.
Install Mew there the same way ('mew install').`,
		subs: []*command{
			{
				name: "add", summary: "add a machine and try it once", args: "NAME [user@]host",
				help: `--ssh-option may repeat (Port=2222, IdentityFile=…, ProxyJump=…; ssh's -oKey=Value too);
options that run commands belong in ~/.ssh/config. Flags may come before or after NAME and host.`,
				// Its own parser (parseRemoteAdd) takes ssh's -oKey=Value
				// spelling too; these are declared for the help.
				raw: true,
				setup: func(fs *flag.FlagSet) runFunc {
					fs.String("ssh-option", "", "an ssh `Key=Value` option for this host (repeatable)")
					fs.String("mew", "", "the mew command on that machine, when it is not on the `PATH` of a non-interactive login")
					fs.Bool("no-check", false, "add it without trying it")
					return remoteAdd
				},
			},
			{name: "list", aliases: []string{"ls"}, summary: "the machines, with when each was last seen", setup: noFlags(remoteList)},
			{name: "rm", aliases: []string{"remove"}, summary: "forget a machine and its cached list", args: "NAME", setup: noFlags(remoteRm)},
		},
	})
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
		return usageError(stderr, "mew remote add", "%v", err)
	}
	home, err := store.Home()
	if err != nil {
		return fail(stderr, "mew remote add", err)
	}
	if err := remote.Edit(home, func(c *remote.Config) error { return c.Add(r) }); err != nil {
		return fail(stderr, "mew remote add", err)
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
	home, err := store.Home()
	if err != nil {
		return fail(stderr, "mew remote list", err)
	}
	c, err := remote.Load(home)
	if err != nil {
		return fail(stderr, "mew remote list", err)
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
		return usageError(stderr, "mew remote rm", "want one NAME, got %d arguments", len(args))
	}
	name := args[0]
	home, err := store.Home()
	if err != nil {
		return fail(stderr, "mew remote rm", err)
	}
	if err := remote.Edit(home, func(c *remote.Config) error {
		r, ok := c.Find(name)
		if ok {
			name = r.Name
		}
		return c.Remove(name)
	}); err != nil {
		return fail(stderr, "mew remote rm", err)
	}
	if err := remote.RemoveCache(home, name); err != nil {
		fmt.Fprintf(stderr, "mew remote rm: removed, but its cached list stays: %v\n", err)
	}
	fmt.Fprintf(stdout, "Removed remote %s.\n", name)
	return 0
}

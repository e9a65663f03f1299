package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/monitor"
	"github.com/mew-dev/mew/monitor/combine"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source/remote"
	"github.com/mew-dev/mew/source/tmux"
)

func init() {
	add(&command{
		name: "status", summary: "list sessions and their state (--json, --watch)",
		help:  "One row per session: its agent, where it runs (tmux pane, terminal tab, or host), its state and why.",
		setup: statusFlags,
	})
}

func statusFlags(fs *flag.FlagSet) runFunc {
	o := statusOptions{}
	fs.BoolVar(&o.json, "json", false, "print JSON (with --watch: one JSON object a line per change)")
	fs.BoolVar(&o.watch, "watch", false, "keep running and print a line per state change")
	fs.DurationVar(&o.forget, "forget-after", monitor.DefaultForgetAfter, "forget exited sessions older than this (0 keeps them)")
	fs.BoolVar(&o.feed, strings.TrimPrefix(remote.FeedFlag, "--"), false, "with --watch --json: this machine's whole list as one line per change, and a heartbeat every second (what 'mew remote' reads over ssh)")
	return func(args []string, stdout, stderr io.Writer) int { return runStatus(o, args, stdout, stderr) }
}

type statusOptions struct {
	json, watch, feed bool
	forget            time.Duration
}

func runStatus(opt statusOptions, args []string, stdout, stderr io.Writer) int {
	asJSON, watch, forget, feed := &opt.json, &opt.watch, &opt.forget, &opt.feed
	if *feed && !(*watch && *asJSON) {
		fmt.Fprintln(stderr, "mew status: --feed goes with --watch --json")
		return 2
	}
	o, err := monitorOptions()
	if err != nil {
		return fail(stderr, "mew status", err)
	}
	o.ForgetAfter = *forget
	// The shown texts are inert already (combine); this is the backstop,
	// harmless to JSON (its text is ASCII outside strings).
	stdout = text.NewWriter(stdout)
	if *watch {
		ctx, stop := untilStopped()
		defer stop()
		// A long-running mode: what it says on stderr goes to mew.log too
		// (started from launchd or over ssh, its stderr may go nowhere).
		mode := "status"
		if *feed {
			mode = "feed"
		}
		l := openLog(o.Store.Home, mode)
		defer l.Close()
		defer l.Printf("stopped")
		stderr = teeToLog(stderr, l)
		if *feed {
			return feedStatus(ctx, o, stdout, stderr) // this machine's sessions only
		}
		attachRemotes(ctx, &o, true, stderr, "status")
		return watchStatus(ctx, o, *asJSON, stdout, stderr)
	}
	hub := attachRemotes(context.Background(), &o, false, stderr, "status")
	shown := snapshot(o, "status", stderr)
	if hub != nil {
		for _, h := range hub.Hosts() {
			if h.Link != remote.Online {
				fmt.Fprintf(stderr, "mew status: remote %s is %s: %s\n", h.Name, board.OfflineNote(h.LastSeen, time.Now()), h.Why)
			}
		}
	}
	if *asJSON {
		return printJSON(stdout, stderr, shown)
	}
	printTable(stdout, shown, time.Now())
	return 0
}

func printJSON(stdout, stderr io.Writer, shown []session.Shown) int {
	if shown == nil {
		shown = []session.Shown{} // an empty array, never null
	}
	if err := writeJSON(stdout, shown); err != nil {
		return fail(stderr, "mew status", err)
	}
	return 0
}

func printTable(w io.Writer, shown []session.Shown, now time.Time) {
	if len(shown) == 0 {
		fmt.Fprintln(w, "No sessions. Start Claude Code (and run `mew install` for full detail).")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	hosts := anyHost(shown)
	ids := make([]string, len(shown))
	for i, s := range shown {
		ids[i] = s.ID
	}
	shortID := shortIDs(ids)
	if hosts {
		fmt.Fprintln(tw, "ID\tHOST\tAGENT\tSTATE\tREASON\tAGE\tPROJECT\tWHERE\tTITLE")
	} else {
		fmt.Fprintln(tw, "ID\tAGENT\tSTATE\tREASON\tAGE\tPROJECT\tWHERE\tTITLE")
	}
	watched := tmux.SocketPath(tmux.SocketFromEnv())
	for _, s := range shown {
		if hosts {
			fmt.Fprintf(tw, "%s\t%s\t", shortID(s.ID), hostLabel(s, now))
		} else {
			fmt.Fprintf(tw, "%s\t", shortID(s.ID))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", board.Agent(s), s.State, dash(string(s.Reason)), board.FormatAge(now.Sub(s.Since)), combine.Project(s.Cwd), board.Where(s, watched), text.OneLine(s.Title, 60))
	}
	tw.Flush()
}

// anyHost reports whether any session runs on a remote: the table then
// says where each one runs.
func anyHost(shown []session.Shown) bool {
	for _, s := range shown {
		if s.Host != "" {
			return true
		}
	}
	return false
}

// hostLabel is where a session runs, and when its host cannot be reached,
// since when its state is stale.
func hostLabel(s session.Shown, now time.Time) string {
	if s.Host == "" {
		return "local"
	}
	if s.Offline {
		return s.Host + " (" + board.OfflineNote(s.LastSeen, now) + ")"
	}
	return s.Host
}

// watchStatus prints one line per session whose state (or reason) changed,
// new sessions included and forgotten ones said once.
func watchStatus(ctx context.Context, o monitor.Options, asJSON bool, stdout, stderr io.Writer) int {
	updates, stop, ok := startWatch(ctx, o, "status", stderr)
	if !ok {
		return 1
	}
	defer stop()
	return statusLines(updates, asJSON, stdout, stderr)
}

// statusLines is watchStatus's output: a line per session whose state
// (or reason) changed in an update, new sessions included and forgotten
// ones said once; 1 once stdout is closed.
func statusLines(updates <-chan monitor.Update, asJSON bool, stdout, stderr io.Writer) int {
	// A session is its host and id; a host going offline or coming back
	// is a change too.
	type key struct {
		state   session.State
		reason  session.Reason
		offline bool
	}
	type where struct{ host, id string }
	// seen holds what was printed of each session and the last update
	// that looked it up.
	type shown struct {
		key
		update uint64
	}
	seen := map[where]*shown{}
	var update uint64
	// prev is the last update's list. An update shares the entries that
	// did not change with the one before (same pointer, same place among
	// the unchanged ones, both lists in monitor.Sort's order), so a walk
	// of the two side by side finds what changed with a pointer compare
	// a session: hundreds of sessions, tens of updates a second, one line.
	var prev []*session.Shown
	watched := tmux.SocketPath(tmux.SocketFromEnv())
	enc := json.NewEncoder(stdout)
	for u := range updates {
		for _, e := range u.Errors {
			fmt.Fprintf(stderr, "mew status: skipped: %v\n", e)
		}
		now := time.Now()
		update++
		// The short ids are worked out only for a line that shows one (a
		// sort of every id: most updates of hundreds of sessions print one
		// line, and JSON none).
		var short func(string) string
		shortID := func(id string) string {
			if short == nil {
				ids := make([]string, 0, len(u.Sessions)+len(seen))
				for _, s := range u.Sessions {
					ids = append(ids, s.ID)
				}
				for w := range seen {
					ids = append(ids, w.id)
				}
				short = shortIDs(ids)
			}
			return short(id)
		}
		// gone are the last list's entries not in this one: a session
		// that changed, or left.
		var gone []*session.Shown
		j := 0
		for _, s := range u.Sessions {
			for j < len(prev) && prev[j] != s && monitor.Compare(prev[j], s) <= 0 {
				gone = append(gone, prev[j]) // before s in the order, not s: not listed now
				j++
			}
			if j < len(prev) && prev[j] == s {
				j++
				continue // unchanged
			}
			w := where{s.Host, s.ID}
			k := key{s.State, s.Reason, s.Offline}
			old := seen[w]
			switch {
			case old == nil:
				old = &shown{}
				seen[w] = old
			case old.update == update:
				continue // listed twice: printed once
			case old.key == k:
				old.update = update
				continue
			}
			old.key, old.update = k, update
			if asJSON {
				if enc.Encode(s) != nil {
					return 1 // stdout closed
				}
				continue
			}
			id := shortID(s.ID)
			if s.Host != "" {
				id = hostLabel(*s, now) + ":" + id
			}
			fmt.Fprintf(stdout, "%s  %s  %s  %-8s %-10s %s  %s  %s\n", now.Format("15:04:05"), id, board.Agent(*s), s.State, dash(string(s.Reason)), combine.Project(s.Cwd), board.Where(*s, watched), text.OneLine(s.Title, 60))
		}
		gone = append(gone, prev[j:]...)
		prev = u.Sessions
		for _, g := range gone {
			w := where{g.Host, g.ID}
			e := seen[w]
			if e == nil || e.update == update {
				continue // listed again (changed), or said already
			}
			if asJSON {
				line := map[string]string{"id": w.id, "state": "forgotten"}
				if w.host != "" {
					line["host"] = w.host
				}
				enc.Encode(line)
			} else if w.host != "" {
				fmt.Fprintf(stdout, "%s  %s:%s  forgotten\n", now.Format("15:04:05"), w.host, shortID(w.id))
			} else {
				fmt.Fprintf(stdout, "%s  %s  forgotten\n", now.Format("15:04:05"), shortID(w.id))
			}
			delete(seen, w) // after its line: the short ids take it in
		}
	}
	return 0
}

// shortID is id as a table shows it: whole when short ("proc:8832",
// "tmux:%12": cut, they would read as another id), else its first 8
// characters past a "kind:" prefix, a prefix `mew jump` takes.
func shortID(id string) string {
	if n := shortLen(id); n < len(id) {
		return id[:n]
	}
	return id
}

func shortLen(id string) int {
	need := 8
	if i := strings.IndexByte(id, ':'); i >= 0 && i < 16 {
		need += i + 1
	}
	if len(id) <= need+4 {
		return len(id) // cutting a few characters saves nothing
	}
	return need
}

// shortIDs shortens each of ids as shortID does, but never to a prefix
// another of them shares: "proc:1210" and "proc:1211" are not both
// "proc:121" (the prefix is what `mew jump` and `mew answer` take).
func shortIDs(ids []string) func(string) string {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	n := make(map[string]int, len(sorted))
	common := func(a, b string) int {
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		return i
	}
	for i, id := range sorted {
		need := shortLen(id)
		if i > 0 {
			need = max(need, common(id, sorted[i-1])+1)
		}
		if i+1 < len(sorted) {
			need = max(need, common(id, sorted[i+1])+1)
		}
		n[id] = min(need, len(id))
	}
	return func(id string) string {
		if k, ok := n[id]; ok {
			return id[:k]
		}
		return shortID(id)
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

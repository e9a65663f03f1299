package remote

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/mew-dev/mew/install"
	"github.com/mew-dev/mew/internal/text"
)

var versionLine = regexp.MustCompile(`^mew (\S+) \(feed ([0-9]+)\)$`)

// Doctor checks each remote at once: that ssh reaches it in batch mode,
// which mew it runs (and that it speaks this mew's feed), and what that
// mew's own doctor says there (hooks installed, Claude Code's settings).
// Every finding names its remote.
func Doctor(ctx context.Context, remotes []Remote, ssh string, run RunFunc) []install.Finding {
	results := make([][]install.Finding, len(remotes))
	var wg sync.WaitGroup
	for i, r := range remotes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rctx, cancel := context.WithTimeout(ctx, DoctorTimeout)
			defer cancel()
			results[i] = doctorOne(rctx, r, ssh, run)
		}()
	}
	wg.Wait()
	var out []install.Finding
	for _, f := range results {
		out = append(out, f...)
	}
	return out
}

func doctorOne(ctx context.Context, r Remote, ssh string, run RunFunc) []install.Finding {
	var out []install.Finding
	add := func(l install.Level, format string, args ...any) {
		out = append(out, install.Finding{Level: l, Text: fmt.Sprintf("remote %s (%s): ", r.Name, r.Host) + fmt.Sprintf(format, args...)})
	}
	if ssh == "" {
		add(install.Problem, "ssh is not on the PATH; Mew reaches remotes with the system's ssh")
		return out
	}
	argv, err := r.SSHArgv(ssh, r.MewCommand(), "version")
	if err != nil {
		add(install.Problem, "%v", err)
		return out
	}
	stdout, err := run(ctx, argv)
	if err != nil {
		add(install.Problem, "%v; Mew shows it offline until this works (ssh in batch mode: a key or an agent, no password)", err)
		return out
	}
	m := versionLine.FindStringSubmatch(strings.TrimSpace(stdout))
	switch {
	case m == nil:
		add(install.Problem, "`%s version` printed %q, not a mew version: install the same Mew there", r.MewCommand(), clip(stdout))
		return out
	case m[2] != fmt.Sprint(FeedVersion):
		add(install.Problem, "its mew %s speaks feed %s, this one %d: install the same Mew on both", clip(m[1]), m[2], FeedVersion)
		return out
	}
	mine := BuildVersion()
	if m[1] != mine && m[1] != "devel" && mine != "devel" {
		add(install.Warning, "reachable; it runs mew %s, this is %s (they speak the same feed)", clip(m[1]), mine)
	} else {
		add(install.OK, "reachable; it runs mew %s", clip(m[1]))
	}
	// --local: that machine's own checks, not its remotes' (two machines
	// that list each other would ask each other round and round).
	argv, _ = r.SSHArgv(ssh, r.MewCommand(), "doctor", "--local")
	stdout, err = run(ctx, argv)
	findings := parseDoctor(stdout)
	if len(findings) == 0 && err != nil {
		add(install.Problem, "`mew doctor` there failed: %v", err)
	}
	for _, f := range findings {
		add(f.Level, "%s", f.Text)
	}
	return out
}

// parseDoctor reads `mew doctor`'s lines ("level    text"); the closing
// sentence is left out.
func parseDoctor(s string) []install.Finding {
	var out []install.Finding
	for _, line := range strings.Split(s, "\n") {
		word, text, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		var l install.Level
		switch word {
		case "ok":
			l = install.OK
		case "warning":
			l = install.Warning
		case "problem":
			l = install.Problem
		default:
			continue
		}
		out = append(out, install.Finding{Level: l, Text: clipLong(strings.TrimSpace(text))})
	}
	return out
}

// clipLong makes a line from a host safe to print.
func clipLong(s string) string { return text.OneLine(s, 300) }

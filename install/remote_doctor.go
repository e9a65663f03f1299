package install

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/source/remote"
)

var versionLine = regexp.MustCompile(`^mew (\S+) \(feed ([0-9]+)\)$`)

// DoctorRemotes checks each remote at once: that ssh reaches it in batch mode,
// which mew it runs (and that it speaks this mew's feed), and what that
// mew's own doctor says there (hooks installed, Claude Code's settings).
// Every finding names its remote.
func DoctorRemotes(ctx context.Context, remotes []remote.Remote, ssh string, run remote.RunFunc) []Finding {
	results := make([][]Finding, len(remotes))
	var wg sync.WaitGroup
	for i, r := range remotes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rctx, cancel := context.WithTimeout(ctx, remote.DoctorTimeout)
			defer cancel()
			results[i] = doctorOne(rctx, r, ssh, run)
		}()
	}
	wg.Wait()
	var out []Finding
	for _, f := range results {
		out = append(out, f...)
	}
	return out
}

func doctorOne(ctx context.Context, r remote.Remote, ssh string, run remote.RunFunc) []Finding {
	var out []Finding
	add := func(l Level, format string, args ...any) {
		out = append(out, Finding{Level: l, Text: fmt.Sprintf("remote %s (%s): ", r.Name, r.Host) + fmt.Sprintf(format, args...)})
	}
	if ssh == "" {
		add(Problem, "ssh is not on the PATH; Mew reaches remotes with the system's ssh")
		return out
	}
	argv, err := r.SSHArgv(ssh, r.MewCommand(), "version")
	if err != nil {
		add(Problem, "%v", err)
		return out
	}
	stdout, err := run(ctx, argv)
	if err != nil {
		add(Problem, "%v; Mew shows it offline until this works (ssh in batch mode: a key or an agent, no password)", err)
		return out
	}
	m := versionLine.FindStringSubmatch(strings.TrimSpace(stdout))
	switch {
	case m == nil:
		add(Problem, "`%s version` printed %q, not a mew version: install the same Mew there", r.MewCommand(), text.OneLine(stdout, 80))
		return out
	case m[2] != fmt.Sprint(remote.FeedVersion):
		add(Problem, "its mew %s speaks feed %s, this one %d: install the same Mew on both", text.OneLine(m[1], 80), m[2], remote.FeedVersion)
		return out
	}
	mine := remote.BuildVersion()
	if m[1] != mine && m[1] != "devel" && mine != "devel" {
		add(Warning, "reachable; it runs mew %s, this is %s (they speak the same feed)", text.OneLine(m[1], 80), mine)
	} else {
		add(OK, "reachable; it runs mew %s", text.OneLine(m[1], 80))
	}
	// --local: that machine's own checks, not its remotes' (two machines
	// that list each other would ask each other round and round).
	argv, _ = r.SSHArgv(ssh, r.MewCommand(), "doctor", "--local")
	stdout, err = run(ctx, argv)
	findings := parseDoctor(stdout)
	if len(findings) == 0 && err != nil {
		add(Problem, "`mew doctor` there failed: %v", err)
	}
	for _, f := range findings {
		add(f.Level, "%s", f.Text)
	}
	return out
}

// parseDoctor reads `mew doctor`'s lines ("level    text"); the closing
// sentence is left out.
func parseDoctor(s string) []Finding {
	var out []Finding
	for _, line := range strings.Split(s, "\n") {
		word, said, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		var l Level
		switch word {
		case "ok":
			l = OK
		case "warning":
			l = Warning
		case "problem":
			l = Problem
		default:
			continue
		}
		out = append(out, Finding{Level: l, Text: text.OneLine(strings.TrimSpace(said), 300)})
	}
	return out
}

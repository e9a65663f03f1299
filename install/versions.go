package install

// Claude Code 2.1.331 and older open a dialog at start when settings.json
// names a hook event they do not know, so Mew registers only the events the
// installed CLI knows: a table of the events that came after the oldest
// version Mew supports, with the first version that knows each. An event
// not in the table is known by every supported version; when the version
// cannot be read, the events of the table are left out (the conservative
// set).

import (
	"bytes"
	"context"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/text"
)

// version is a release number, major.minor.patch.
type version [3]int

func (v version) less(w version) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

func (v version) String() string {
	return strconv.Itoa(v[0]) + "." + strconv.Itoa(v[1]) + "." + strconv.Itoa(v[2])
}

// eventSince is a hook event and the first version of the agent that
// knows it.
type eventSince struct {
	event string
	since version
}

// claudeNewerEvents are Claude Code's hook events newer than 2.1.328 (the
// version Mew's events are measured on), measured or read in its release
// notes.
var claudeNewerEvents = []eventSince{
	{"PreSkillShellCommand", version{2, 1, 332}},
}

var versionRE = regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)`)

// parseVersion reads the first x.y.z in `--version` output ("2.1.332
// (Claude Code)").
func parseVersion(s string) (version, bool) {
	m := versionRE.FindStringSubmatch(s)
	if m == nil {
		return version{}, false
	}
	var v version
	for i := range v {
		n, err := strconv.Atoi(m[i+1])
		if err != nil {
			return version{}, false
		}
		v[i] = n
	}
	return v, true
}

// eventsKnown keeps the events a CLI of that version knows (ver "" or
// unreadable: only those every supported version knows).
func eventsKnown(events []string, table []eventSince, ver string) []string {
	v, ok := parseVersion(ver)
	out := make([]string, 0, len(events))
	for _, e := range events {
		keep := true
		for _, n := range table {
			if n.event == e {
				keep = ok && !v.less(n.since)
			}
		}
		if keep {
			out = append(out, e)
		}
	}
	return out
}

// unknownEvents are the events of the table a CLI of version ver does not
// know, among events (nil when the version cannot be read: the doctor then
// says nothing).
func unknownEvents(events []string, table []eventSince, ver string) []string {
	v, ok := parseVersion(ver)
	if !ok {
		return nil
	}
	var out []string
	for _, e := range events {
		for _, n := range table {
			if n.event == e && v.less(n.since) {
				out = append(out, e)
			}
		}
	}
	return out
}

// AgentVersion runs `exe --version`, bounded by timeout: "" when it fails
// or does not answer.
func AgentVersion(exe string, timeout time.Duration) string {
	if exe == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "--version") // an argv: no shell
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	if cmd.Run() != nil {
		return ""
	}
	return firstLine(out.String())
}

// newerEvents is the table of agent a's events newer than its oldest
// supported version.
func newerEvents(a Agent) []eventSince {
	if a.Name == Claude.Name {
		return claudeNewerEvents
	}
	return nil
}

// checkEventsKnown is the doctor's check that the agent's settings name no
// hook event the installed version does not know (Mew's or anyone's: at
// 2.1.331 and older such a file opens a dialog at every start).
func checkEventsKnown(o DoctorOptions, a Agent, add addFunc) {
	table := newerEvents(a)
	if len(table) == 0 || o.Claude == "" {
		return
	}
	doc, ok := readForDoctor(a.Path(o.Env))
	if !ok {
		return
	}
	var events []string
	for e := range doc.entries {
		events = append(events, e)
	}
	ver := AgentVersion(o.Claude, versionTimeout(o))
	if unknown := unknownEvents(events, table, ver); len(unknown) > 0 {
		sort.Strings(unknown)
		add(Problem, "%s names hook events %s %s does not know (%s); it asks about them at every start: remove them or update %s",
			a.Path(o.Env), strings.Join(unknown, ", "), a.Title, text.Clip(ver, 40), a.Title)
	}
}

func versionTimeout(o DoctorOptions) time.Duration {
	if o.VersionTimeout > 0 {
		return o.VersionTimeout
	}
	return 3 * time.Second
}

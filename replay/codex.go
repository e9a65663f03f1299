package replay

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/mew-dev/mew/internal/recording"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/source"
	"github.com/mew-dev/mew/source/codex"
	"github.com/mew-dev/mew/source/procscan"
)

// The Codex processes of a replay: the app-server daemon that runs the
// turns and the hooks, and the TUI on the agent's terminal.
const codexDaemonPid = 40300

// codexReplay is the Codex side of an engine: a CODEX_HOME with the
// daemon's pid file, a rollout file appended to line by line, and the TUI
// in the process table while tuiAlive says so.
type codexReplay struct {
	e        *engine
	home     string
	file     string // the rollout's name (rollout-<time>-<id>.jsonl)
	path     string // where it is written, once its first line is
	cwd      string
	tuiAlive func(sec float64) bool
}

func newCodexReplay(e *engine, file, cwd string, tuiAlive func(float64) bool) (*codexReplay, error) {
	home := filepath.Join(e.dir, "codex")
	if err := os.MkdirAll(filepath.Join(home, "app-server-daemon"), 0o700); err != nil {
		return nil, err
	}
	pid := fmt.Sprintf(`{"pid":%d}`, codexDaemonPid)
	if err := os.WriteFile(filepath.Join(home, "app-server-daemon", "daemon.pid"), []byte(pid), 0o600); err != nil {
		return nil, err
	}
	c := &codexReplay{e: e, home: home, file: file, cwd: cwd, tuiAlive: tuiAlive}
	started := e.procs[agentPid].StartMs
	// The daemon runs the hooks: the hook's parent.
	e.procs[codexDaemonPid] = e.procs[agentPid]
	daemon := e.procs[codexDaemonPid]
	daemon.Pid, daemon.Name = codexDaemonPid, "codex"
	e.procs[codexDaemonPid] = daemon
	hook := e.procs[hookPid]
	hook.PPid = codexDaemonPid
	e.procs[hookPid] = hook
	e.sources = append(e.sources, &codex.Source{
		Home: home, Recent: 100 * 365 * 24 * time.Hour, Now: e.now, Hooked: codex.HookedFromStore(e.st),
		Procs: func(context.Context) ([]procscan.Proc, error) {
			list := []procscan.Proc{{Pid: codexDaemonPid, PPid: 1, StartMs: started, Name: "codex",
				Args: []string{"codex", "app-server", "--listen", "unix://", "--managed-daemon"}, Cwd: cwd}}
			if c.tuiAlive(e.sec) {
				list = append(list, procscan.Proc{Pid: agentPid, PPid: 1, StartMs: started, Name: "codex",
					Args: []string{"codex"}, Tty: agentTty, Cwd: cwd})
			}
			return list, nil
		},
		Environ: func(int, []string) (map[string]string, error) { return map[string]string{}, nil },
	})
	return c, nil
}

// append writes one rollout line, in the day folder Codex would use at
// the virtual now.
func (c *codexReplay) append(line string) error {
	if c.path == "" {
		d := c.e.now().Local()
		c.path = filepath.Join(c.home, "sessions", d.Format("2006"), d.Format("01"), d.Format("02"), c.file)
		if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
			return err
		}
	}
	f, err := os.OpenFile(c.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// CodexRun replays one recorded Codex run (a folder of
// testdata/fixtures/codex-<version>: hooks.jsonl, rollout.jsonl,
// procs.jsonl, marks.json; AGENTS-README.md there): every hook payload
// through the hook program at the moment the hook started, every rollout
// line appended to a rollout file at the moment it appeared, the TUI in
// the process table until the exit mark (x1 of marks.json; else while
// procs.jsonl lists it).
func CodexRun(dir string) ([]Change, error) {
	r, err := recording.LoadCodexRun(dir)
	if err != nil {
		return nil, err
	}
	var file, cwd string
	for _, l := range r.Rollout {
		if codex.SessionIDFromName(l.File) != "" {
			file = l.File
			break
		}
	}
	// The recorder cut long lines short (session_meta among them): the
	// working directory is read from the first line or hook that has it.
	for _, l := range r.Rollout {
		if cwd = cwdIn([]byte(l.Line)); cwd != "" {
			break
		}
	}
	for _, h := range r.Hooks {
		if cwd != "" {
			break
		}
		cwd = cwdIn(h.Payload)
	}
	if file == "" {
		return nil, fmt.Errorf("%s: no rollout file named rollout-<time>-<session id>.jsonl", dir)
	}
	sid := codex.SessionIDFromName(file)
	e, err := newEngine(time.Unix(0, int64(r.T0*1e9)), "codex")
	if err != nil {
		return nil, err
	}
	defer e.close()
	alive := r.TUIAlive
	if x, ok := r.Marks["x1"]; ok {
		// The exit mark is exact; the process samples are a second apart.
		alive = func(sec float64) bool { return sec < x }
	}
	c, err := newCodexReplay(e, file, cwd, alive)
	if err != nil {
		return nil, err
	}
	e.follow = followID(&sid)
	var events []event
	var werr error
	for _, h := range r.Hooks {
		payload := []byte(h.Payload)
		events = append(events, event{h.Start, func() { e.hook(session.AgentCodex, "", payload) }})
	}
	for _, l := range r.Rollout {
		line := l.Line
		events = append(events, event{l.Seen, func() {
			if err := c.append(line); err != nil && werr == nil {
				werr = err
			}
		}})
	}
	end := 0.0
	for _, ev := range events {
		end = max(end, ev.at)
	}
	if x, ok := r.Marks["x1"]; ok {
		end = max(end, x)
	}
	sortEvents(events)
	out := e.run(end+3, events)
	if werr != nil {
		return nil, werr
	}
	return out, firstErr(e.errs)
}

// codexMeta is what a rollout's session_meta line says of the session.
type codexMeta struct {
	ID        string `json:"id"`
	Cwd       string `json:"cwd"`
	Timestamp string `json:"timestamp"`
}

func sessionMeta(line []byte) (codexMeta, bool) {
	var l struct {
		Type    string    `json:"type"`
		Payload codexMeta `json:"payload"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "session_meta" || l.Payload.ID == "" {
		return codexMeta{}, false
	}
	return l.Payload, true
}

var cwdField = regexp.MustCompile(`"cwd":\s*"((?:[^"\\]|\\.)*)"`)

// cwdIn finds the first "cwd" string in a JSON text, whole or cut short.
func cwdIn(b []byte) string {
	m := cwdField.FindSubmatch(b)
	if m == nil {
		return ""
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, m[1]...), '"'), &s) != nil {
		return ""
	}
	return s
}

// maxRolloutLine bounds one line of a rollout read by CodexRollout (the
// source itself skips longer ones).
const maxRolloutLine = 1 << 20

// CodexRollout replays a Codex rollout file as Codex writes it
// ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl): each line at
// its own "timestamp", its first line the session_meta. With no process
// table recorded, the TUI and its daemon run from the first line to the
// last (the rollout never says Codex waits or exited: only hooks, the
// screen and the process do).
func CodexRollout(r io.Reader) ([]Change, error) {
	type line struct {
		at   time.Time
		text string
	}
	var lines []line
	var meta codexMeta
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxRolloutLine)
	n := 0
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var l struct {
			Timestamp string `json:"timestamp"`
		}
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			return nil, fmt.Errorf("line %d: not JSON: %v", n, err)
		}
		at, err := time.Parse(time.RFC3339Nano, l.Timestamp)
		if err != nil {
			return nil, fmt.Errorf("line %d: no \"timestamp\" (RFC 3339): a Codex rollout line has one", n)
		}
		if m, ok := sessionMeta([]byte(text)); ok && meta.ID == "" {
			meta = m
		}
		lines = append(lines, line{at, text})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", n+1, err)
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("no lines")
	}
	if meta.ID == "" || !session.ValidID(meta.ID) {
		return nil, fmt.Errorf("no session_meta line with the session's id: not a Codex rollout")
	}
	t0 := lines[0].at
	for _, l := range lines {
		if l.at.Before(t0) {
			t0 = l.at
		}
	}
	e, err := newEngine(t0, "codex")
	if err != nil {
		return nil, err
	}
	defer e.close()
	file := "rollout-" + t0.UTC().Format("2006-01-02T15-04-05") + "-" + meta.ID + ".jsonl"
	c, err := newCodexReplay(e, file, meta.Cwd, func(float64) bool { return true })
	if err != nil {
		return nil, err
	}
	sid := meta.ID
	e.follow = followID(&sid)
	var events []event
	var werr error
	end := 0.0
	for _, l := range lines {
		text := l.text
		at := l.at.Sub(t0).Seconds()
		end = max(end, at)
		events = append(events, event{at, func() {
			if err := c.append(text); err != nil && werr == nil {
				werr = err
			}
		}})
	}
	sortEvents(events)
	out := e.run(end+1, events)
	if werr != nil {
		return nil, werr
	}
	return out, firstErr(e.errs)
}

// sortEvents orders events by time, keeping the recording's order among
// equal times.
func sortEvents(ev []event) {
	for i := 1; i < len(ev); i++ {
		for j := i; j > 0 && ev[j].at < ev[j-1].at; j-- {
			ev[j], ev[j-1] = ev[j-1], ev[j]
		}
	}
}

func firstErr(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return errs[0]
}

var _ source.Source = (*staticSource)(nil)

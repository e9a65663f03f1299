package hookbin

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mew-dev/mew/reducer"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/store"
)

// A hook that finds its session's lock taken spools its event
// (store.Append) for whoever holds the lock, or the next writer, to fold;
// readers fold pending events when they read. Fold is how: each program
// gives it to the stores it opens (store.Open(hookbin.Fold): mew-hook here,
// mew in cmd/mew's monitorOptions and `mew run`).
var Fold store.Fold = foldEntry

// The entry is the hook's whole input, so a later fold is the fold the hook
// would have done: a header line (format, agent, the event's wall and
// monotonic times, how the captured process applies), the captured process
// as a record's JSON (easyjson: the hook links no reflection codec), and
// the payload as it came.
//
//	mew-hook-event/1 <agent> <unix ns> <mono ns> <-|set|ifmissing> [<sum|-> <via|-> <0|1>]
//	{"v":…,"id":"…","process":{…}}        (empty when no process)
//	<payload>
const entryMagic = "mew-hook-event/1"

// The three last header fields (the delivery's digest and who ran the
// hook, and whether Codex's auto-review decides the request) carry what
// the hook knew beside the payload, so the later fold is the same fold.
func encodeEntry(agent string, now time.Time, mono int64, proc *session.Process, ifMissing bool, d delivery, autoReviewed bool, payload []byte) ([]byte, error) {
	mode := "-"
	var procJSON []byte
	if proc != nil {
		mode = "set"
		if ifMissing {
			mode = "ifmissing"
		}
		var err error
		if procJSON, err = session.EncodeRecord(&session.Record{Version: session.RecordVersion, Process: proc}); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	b.Grow(len(payload) + len(procJSON) + 64)
	ar := "0"
	if autoReviewed {
		ar = "1"
	}
	fmt.Fprintf(&b, "%s %s %d %d %s %s %s %s\n", entryMagic, agent, now.UnixNano(), mono, mode, orDash(d.sum), orDash(d.via), ar)
	b.Write(procJSON)
	b.WriteByte('\n')
	b.Write(payload)
	return b.Bytes(), nil
}

var errEntry = errors.New("not a spooled hook event")

// foldEntry folds a spooled hook event into rec, as the hook that spooled it
// would have; a second delivery of one event is noted, as the hook notes it.
func foldEntry(rec *session.Record, entry []byte) (note string, err error) {
	header, rest, ok := bytes.Cut(entry, []byte{'\n'})
	if !ok {
		return "", errEntry
	}
	procJSON, payload, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return "", errEntry
	}
	f := strings.Fields(string(header))
	if (len(f) != 5 && len(f) != 8) || f[0] != entryMagic || !session.ValidAgent(f[1]) {
		return "", fmt.Errorf("%w: header %q", errEntry, clipForLog(string(header)))
	}
	wall, err1 := strconv.ParseInt(f[2], 10, 64)
	mono, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil {
		return "", fmt.Errorf("%w: header %q", errEntry, clipForLog(string(header)))
	}
	var proc *session.Process
	switch f[4] {
	case "-":
	case "set", "ifmissing":
		var holder session.Record
		if err := session.DecodeRecord(procJSON, &holder); err != nil || holder.Process == nil {
			return "", fmt.Errorf("%w: its process does not parse", errEntry)
		}
		proc = holder.Process
	default:
		return "", fmt.Errorf("%w: header %q", errEntry, clipForLog(string(header)))
	}
	ev := new(reducer.Event)
	if _, err := reducer.ParseFor(f[1], payload, ev); err != nil {
		return "", err
	}
	if ev.SessionID != rec.ID {
		return "", fmt.Errorf("%w: it is of session %q", errEntry, clipForLog(ev.SessionID))
	}
	var d delivery
	if len(f) == 8 {
		d = delivery{sum: fromDash(f[5]), via: fromDash(f[6])}
		ev.AutoReviewed = f[7] == "1"
	}
	if !applyEvent(rec, f[1], ev, time.Unix(0, wall).UTC(), mono, proc, f[4] == "ifmissing", d) {
		return cameTwice(ev.Name), nil
	}
	return "", nil
}

// orDash and fromDash keep an empty header field a field ("-"); a digest
// and ViaEnv's values hold no spaces.
func orDash(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\n") {
		return "-"
	}
	return s
}

func fromDash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}

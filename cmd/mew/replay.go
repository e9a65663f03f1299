package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/replay"
	"github.com/mew-dev/mew/session"
)

func init() {
	register("replay", "replay a recording through Mew's pipeline, one JSON line per state change", runReplay)
}

func replayUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: mew replay [--agent NAME] FILE|FOLDER")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Plays a recording through the hook program, the sources, the rules and combine, on the recording's")
	fmt.Fprintln(w, `own clock, and prints {"t": s, "state": …, "reason": …, "source": …} for each change of the state`)
	fmt.Fprintln(w, "Mew would show (t: seconds from the recording's start). Nothing of yours is read or written.")
	fmt.Fprintln(w, "Recordings (README.md, \"mew replay\"):")
	fmt.Fprintln(w, "  --agent codex ROLLOUT    a Codex rollout file, each line at its own timestamp")
	fmt.Fprintln(w, "  CODEX-RUN-FOLDER         a recorded Codex run (marks.json, hooks.jsonl, rollout.jsonl)")
	fmt.Fprintln(w, `  EVENTS.jsonl             {"t": s, "source": "hook"|"registry", "doc": …} lines (Claude Code's`)
	fmt.Fprintln(w, "                           by default; --agent NAME for another agent's hook payloads)")
	fmt.Fprintln(w, `  --agent NAME SCREENS     screens.jsonl ({"t": s, "screen": text, "title": text}) or a folder`)
	fmt.Fprintln(w, "                           of NN-<label>.txt screens whose first line is `# t=<s> title=<title>`")
}

func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { replayUsage(stderr) }
	agent := fs.String("agent", "", "whose recording it is ("+strings.Join(session.Agents, ", ")+")")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			replayUsage(stdout)
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		replayUsage(stderr)
		return 2
	}
	// Your rules overrides are read as the monitor reads them; one that
	// does not load leaves the embedded rules (`mew rules check` says why).
	book, _ := loadRules()
	if *agent != "" && !session.ValidAgent(*agent) && book.Set(*agent) == nil {
		fmt.Fprintf(stderr, "mew replay: unknown agent %q (one of %s)\n", text.OneLine(*agent, 40), strings.Join(session.Agents, ", "))
		return 2
	}
	changes, err := replay.File(fs.Arg(0), *agent, book)
	if err != nil {
		fmt.Fprintf(stderr, "mew replay: %v\n", err)
		return 1
	}
	enc := json.NewEncoder(stdout)
	for _, c := range changes {
		if err := enc.Encode(c); err != nil {
			return 1
		}
	}
	return 0
}

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
	add(&command{
		name: "replay", summary: "replay a recording through Mew's pipeline, one JSON line per state change",
		args: "FILE|FOLDER", help: replayHelp,
		setup: func(fs *flag.FlagSet) runFunc {
			agent := fs.String("agent", "", "whose recording it is ("+strings.Join(session.Agents, ", ")+")")
			return func(args []string, stdout, stderr io.Writer) int { return runReplay(*agent, args, stdout, stderr) }
		},
	})
}

const replayHelp = `Plays a recording through the hook program, the sources, the rules and combine, on the recording's
own clock, and prints {"t": s, "state": …, "reason": …, "source": …} for each change of the state
Mew would show (t: seconds from the recording's start). Nothing of yours is read or written.
Recordings (README.md, "mew replay"):
  --agent codex ROLLOUT    a Codex rollout file, each line at its own timestamp
  CODEX-RUN-FOLDER         a recorded Codex run (marks.json, hooks.jsonl, rollout.jsonl)
  EVENTS.jsonl             {"t": s, "source": "hook"|"registry", "doc": …} lines (Claude Code's
                           by default; --agent NAME for another agent's hook payloads)
  --agent NAME SCREENS     screens.jsonl ({"t": s, "screen": text, "title": text}) or a folder
                           of NN-<label>.txt screens whose first line is '# t=<s> title=<title>'`

func runReplay(agentName string, args []string, stdout, stderr io.Writer) int {
	agent := &agentName
	if len(args) != 1 {
		return usageError(stderr, "mew replay", "want one FILE or FOLDER, got %d arguments", len(args))
	}
	fs := argList(args)
	// Your rules overrides are read as the monitor reads them; one that
	// does not load leaves the embedded rules (`mew rules check` says why).
	book, _ := loadRules()
	if *agent != "" && !session.ValidAgent(*agent) && book.Set(*agent) == nil {
		fmt.Fprintf(stderr, "mew replay: unknown agent %q (one of %s)\n", text.OneLine(*agent, 40), strings.Join(session.Agents, ", "))
		return 2
	}
	changes, err := replay.File(fs.Arg(0), *agent, book)
	if err != nil {
		return fail(stderr, "mew replay", err)
	}
	enc := json.NewEncoder(stdout)
	for _, c := range changes {
		if err := enc.Encode(c); err != nil {
			return 1
		}
	}
	return 0
}

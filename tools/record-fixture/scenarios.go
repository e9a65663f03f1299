package main

import (
	"fmt"
	"regexp"
	"sort"
	"time"

	"github.com/mew-dev/mew/e2e/driver"
	"github.com/mew-dev/mew/e2e/fakeapi"
)

// scenario is one fixture folder: how to start the CLI and what to do.
type scenario struct {
	name  string
	what  string // for the README
	args  []string
	drive func(r *driver.Run, api *fakeapi.Server) error
}

const (
	ready = 45 * time.Second
	turn  = 30 * time.Second
)

// pace is how long the scripted person takes to act on what the CLI shows
// (-pace): before typing a prompt, answering a dialog or typing /exit. A
// second keeps every state on screen long enough for a checkpoint; a
// minute shows the notifications the CLI sends to an absent person.
var pace = time.Second

var (
	permissionPrompt = regexp.MustCompile(`Do you want to proceed\?`)
	questionDialog   = regexp.MustCompile(`(?s)Which framework\?.*1\. React`)
	planDialog       = regexp.MustCompile(`Exit plan mode\?`)
	slowStreaming    = regexp.MustCompile(`↓ [0-9]+ tokens`) // the CLI counts streamed tokens; the text itself shows at the end
	interrupted      = regexp.MustCompile(`Interrupted`)
)

var scenarios = map[string]scenario{
	"permission": {
		what: "default permission mode; the model runs Bash; the prompt is approved with Enter (after -pace)",
		drive: func(r *driver.Run, _ *fakeapi.Server) error {
			return dialogTurn(r, fakeapi.Bash, permissionPrompt, "Enter")
		},
	},
	"ask": {
		what: "the model calls AskUserQuestion; answered with Enter (after -pace)",
		drive: func(r *driver.Run, _ *fakeapi.Server) error {
			return dialogTurn(r, fakeapi.Ask, questionDialog, "Enter")
		},
	},
	"plan": {
		what:  "plan mode (--permission-mode plan); the model calls ExitPlanMode; approved with Enter (after -pace)",
		args:  []string{"--permission-mode", "plan"},
		drive: func(r *driver.Run, _ *fakeapi.Server) error { return dialogTurn(r, fakeapi.Plan, planDialog, "Enter") },
	},
	"esc-permission": {
		what: "default permission mode; the model runs Bash; Esc on the permission prompt (after -pace)",
		drive: func(r *driver.Run, _ *fakeapi.Server) error {
			return dialogTurn(r, fakeapi.Bash, permissionPrompt, "Escape")
		},
	},
	"subagent": {
		what: "the model starts a subagent (Agent tool) that runs in the background; the main turn's Stop comes " +
			"before SubagentStop; Claude Code then re-engages on its own (a task-notification prompt) and the model acknowledges",
		drive: subagent,
	},
	"interrupt": {
		what:  "a slow turn; Esc pressed while it streams; no hook fires",
		drive: interrupt,
	},
	"question-exit": {
		what:  "the model answers with a plain-text question and ends its turn; then /exit (after -pace)",
		drive: questionExit,
	},
}

func init() {
	for name, sc := range scenarios {
		sc.name = name
		scenarios[name] = sc
	}
}

func scenarioNames() []string {
	var names []string
	for n := range scenarios {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// dialogTurn submits the scenario's prompt, answers its dialog with key
// and waits for the turn to end.
func dialogTurn(r *driver.Run, name string, dialog *regexp.Regexp, key string) error {
	if err := r.WaitReady(ready); err != nil {
		return err
	}
	time.Sleep(pace)
	sent, err := r.Submit(fakeapi.Prompt(name))
	if err != nil {
		return err
	}
	shown, err := r.WaitScreen(sent, dialog, turn)
	if err != nil {
		return err
	}
	time.Sleep(pace)
	a, err := r.Answer(dialog, shown.At, key)
	if err != nil {
		return err
	}
	_, err = r.WaitRegistry(a.Pressed, driver.Status("idle"), turn)
	return err
}

func subagent(r *driver.Run, api *fakeapi.Server) error {
	if err := r.WaitReady(ready); err != nil {
		return err
	}
	time.Sleep(pace)
	if _, err := r.Submit(fakeapi.Prompt(fakeapi.Agent)); err != nil {
		return err
	}
	noted, err := replyFinished(api, "task-notification")
	if err != nil {
		return err
	}
	_, err = r.WaitRegistry(noted, driver.Status("idle"), turn)
	return err
}

func interrupt(r *driver.Run, _ *fakeapi.Server) error {
	if err := r.WaitReady(ready); err != nil {
		return err
	}
	time.Sleep(pace)
	sent, err := r.Submit(fakeapi.Prompt(fakeapi.Slow))
	if err != nil {
		return err
	}
	if _, err := r.WaitScreen(sent, slowStreaming, turn); err != nil {
		return err
	}
	esc, err := r.Keys("Escape")
	if err != nil {
		return err
	}
	if _, err := r.WaitScreen(esc, interrupted, turn); err != nil {
		return err
	}
	_, err = r.WaitRegistry(esc, driver.Status("idle"), turn)
	return err
}

func questionExit(r *driver.Run, _ *fakeapi.Server) error {
	if err := r.WaitReady(ready); err != nil {
		return err
	}
	time.Sleep(pace)
	sent, err := r.Submit(fakeapi.Prompt(fakeapi.Question))
	if err != nil {
		return err
	}
	end, err := r.WaitRegistry(sent, driver.Status("idle"), turn)
	if err != nil {
		return err
	}
	// A person reads the question before typing /exit.
	if _, err := r.WaitScreen(end.At, regexp.MustCompile(`regression test\?`), turn); err != nil {
		return err
	}
	time.Sleep(pace)
	exit, err := r.Submit("/exit")
	if err != nil {
		return err
	}
	_, err = r.WaitRegistry(exit, driver.Gone, 10*time.Second)
	return err
}

func replyFinished(api *fakeapi.Server, why string) (time.Time, error) {
	deadline := time.Now().Add(turn)
	for time.Now().Before(deadline) {
		for _, l := range api.Log() {
			if l.Why == why && l.Finished {
				return l.FinishedAt, nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Time{}, fmt.Errorf("the stand-in API never finished a %s reply", why)
}

// Package fakellm is a scripted stand-in for two model APIs on loopback,
// for driving real agent CLIs in end-to-end tests without a network: the
// OpenAI-compatible chat completions API (`POST /v1/chat/completions`,
// streamed; OpenCode through a custom provider) and the Gemini API
// (`POST /v1beta/models/<model>:streamGenerateContent`; Gemini CLI through
// GOOGLE_GEMINI_BASE_URL).
//
// As in package fakeresponses (Codex), the reply to a request is a pure
// function of it: the person's prompt carries a scenario marker
// ("mew-e2e-<name>"), and the number of tool results since that prompt is
// the step. Requests without tools (OpenCode's title) get a neutral answer.
package fakellm

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Scenario names, typed into the CLI as part of the prompt (see Prompt).
const (
	Text  = "text"  // one text reply
	Shell = "shell" // a shell command the CLI asks permission for, then text
	Slow  = "slow"  // a text reply that trickles for a long time (to press Esc in)
	// Error is an HTTP 400 the CLIs do not retry: the turn fails.
	Error = "error"
	// Flaky is an HTTP 500 (which the CLIs retry), then text.
	Flaky = "flaky"
	// Danger is a shell command a permission gate asks about (pi asks
	// nothing itself; its example permission-gate.ts asks for rm -rf),
	// then text.
	Danger = "danger"
	// Down is an HTTP 500 on every request: the CLI retries, then fails.
	Down = "down"
	// Outage is Down with each answer saying to retry after OutageRetry
	// (retry-after-ms, which the AI SDK's retries honour: Cline's six
	// requests then take ~3 s, not 63 s, long enough for samples between
	// its start and its failure to say it kept working).
	Outage = "outage"
	// Brief is Text's reply trickled for Brief seconds, and ShellBrief
	// Shell with its last reply trickled so: a turn a screen read every
	// 700 ms sees running (the stand-in answers at once, a model does not).
	Brief       = "brief"
	ShellBrief  = "shellbrief"
	DangerBrief = "dangerbrief" // Danger with its last reply trickled as Brief
	// Quote is a text reply that quotes the agents' own dialog lines
	// (QuotedDialogs), spread over BriefFor: nobody is asked anything.
	Quote = "quote"
	// Long is a reply of LongLines rows, spread over BriefFor: it scrolls
	// what came before off a 32-row screen.
	Long = "long"
)

// LongLines is how many rows the long scenario's reply has.
const LongLines = 40

// QuotedDialogs is the Quote scenario's reply: each agent's permission
// dialog line, as its screen draws it, in paragraphs of their own.
const QuotedDialogs = "The dialogs read:\n\n" +
	"Allow execution of: 'touch x'?\n\n" + // Gemini CLI, Qwen Code
	"△ Permission required\n\n" + // OpenCode, Kilo
	"Do you want to run this command?\n\n" + // Copilot CLI
	"Do you want to proceed with this operation?\n\n" + // Grok CLI
	"[y] Approve  [n] Deny\n\n" + // Cline
	"⚠️ Dangerous command: rm -rf x\n\n" + // pi's permission gate
	"Nobody is asked anything here."

// OutageRetry is the retry-after the outage scenario's errors say.
const OutageRetry = 500 * time.Millisecond

// BriefFor is how long the brief scenarios' replies trickle.
const BriefFor = 2 * time.Second

const markerPrefix = "mew-e2e-"

var markerRE = regexp.MustCompile(`\bmew-e2e-([a-z]+)\b`)

// Prompt is what a test types to start scenario name.
func Prompt(name string) string { return "please " + markerPrefix + name }

// ShellCommand is what the shell scenario asks to run.
const ShellCommand = "touch made-by-agent"

// DangerCommand is what the danger scenario asks to run: it removes
// DangerDir from the CLI's working directory, then takes 3 s (a tool
// that runs a while: working, between the answer and the turn's end).
const (
	DangerDir     = "mew-probe-dir"
	DangerCommand = "rm -rf " + DangerDir + " && sleep 3"
)

// Timing knobs of the scripted replies.
type Timing struct {
	Slow  time.Duration // how long the slow reply trickles
	Chunk time.Duration // the gap between two pieces of a trickled reply
}

// DefaultTiming suits the end-to-end suite.
var DefaultTiming = Timing{Slow: 60 * time.Second, Chunk: 250 * time.Millisecond}

// Reply is one scripted model response.
type Reply struct {
	Kind   string // "text", "call" (a tool call), "ask" (a question tool's call) or "error" (an HTTP error)
	Text   string
	Status int // an error's HTTP status
	// RetryAfter, for an error, is sent as retry-after-ms.
	RetryAfter time.Duration
	Trickle    time.Duration // stream Text in pieces for this long
	// Spread streams Text row by row over this long (its rows kept).
	Spread time.Duration
	// Why names the decision for the request log: scenario/step or "side".
	Why string
}

// turn is what the script needs to know of a conversation.
type turn struct {
	scenario string
	step     int    // tool results after the marked prompt
	tools    bool   // the request offers tools (the agent loop, not a side request)
	retried  int    // requests for this scenario and step answered before
	result   string // the newest tool result's text (chat completions)
}

// decide picks the reply.
func decide(c turn, t Timing) Reply {
	if !c.tools {
		return Reply{Kind: "text", Text: "Fake title", Why: "side"}
	}
	why := c.scenario + "/" + strconv.Itoa(c.step)
	switch c.scenario {
	case Text:
		return Reply{Kind: "text", Text: "Hello from the fake model.", Why: why}
	case Shell:
		if c.step == 0 {
			return Reply{Kind: "call", Text: ShellCommand, Why: why}
		}
		return Reply{Kind: "text", Text: "Done.", Why: why}
	case Slow:
		return Reply{Kind: "text", Text: "Thinking it over slowly", Trickle: t.Slow, Why: why}
	case Error:
		return Reply{Kind: "error", Status: 400, Text: "scripted bad request", Why: why}
	case Brief:
		return Reply{Kind: "text", Text: "Hello from the fake model.", Trickle: BriefFor, Why: why}
	case Quote:
		return Reply{Kind: "text", Text: QuotedDialogs, Spread: BriefFor, Why: why}
	case Long:
		var b strings.Builder
		for i := 1; i <= LongLines; i++ {
			fmt.Fprintf(&b, "%d. Row %d of a long reply.\n", i, i)
		}
		return Reply{Kind: "text", Text: b.String(), Spread: BriefFor, Why: why}
	case ShellBrief:
		if c.step == 0 {
			return Reply{Kind: "call", Text: ShellCommand, Why: why}
		}
		return Reply{Kind: "text", Text: "Done.", Trickle: BriefFor, Why: why}
	case Danger:
		if c.step == 0 {
			return Reply{Kind: "call", Text: DangerCommand, Why: why}
		}
		return Reply{Kind: "text", Text: "Done.", Why: why}
	case DangerBrief:
		if c.step == 0 {
			return Reply{Kind: "call", Text: DangerCommand, Why: why}
		}
		return Reply{Kind: "text", Text: "Done.", Trickle: BriefFor, Why: why}
	case Down:
		return Reply{Kind: "error", Status: 500, Text: "scripted server error", Why: why}
	case Flaky:
		if c.retried == 0 {
			return Reply{Kind: "error", Status: 500, Text: "scripted server error", Why: why}
		}
		return Reply{Kind: "text", Text: "Hello after a retry.", Why: why}
	case Outage:
		return Reply{Kind: "error", Status: 500, Text: "scripted outage", RetryAfter: OutageRetry, Why: why}
	}
	if r, ok := more(c, why); ok {
		return r
	}
	return Reply{Kind: "text", Text: "No scripted scenario in this conversation.", Why: "unscripted"}
}

// marked finds the scenario a text names: the last one, as an agent may
// send two prompts as one user message (Qwen Code joins a prompt to the
// one before it when that turn failed with no reply).
func marked(text string) string {
	if all := markerRE.FindAllStringSubmatch(text, -1); all != nil {
		return all[len(all)-1][1]
	}
	return ""
}

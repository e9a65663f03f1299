// Package session holds the data types every part of Mew shares: what a
// session record on disk looks like, what each signal source last observed,
// and the state shown to the person. It has no behaviour beyond small
// helpers, so the pure packages (reducer, combine, board) and the I/O
// packages (store, registry, hookbin) can all depend on it.
package session

import "time"

// State is what Mew says about a session.
type State string

const (
	Working State = "working"
	Waiting State = "waiting" // the person must act; see Reason
	Done    State = "done"    // the turn ended: the person's move
	Idle    State = "idle"    // nothing to do: fresh, interrupted or dismissed
	Failed  State = "failed"  // the turn died on an error
	Exited  State = "exited"  // the session ended or its process is gone
)

// Reason says why a session waits.
type Reason string

const (
	ReasonNone       Reason = ""
	ReasonPermission Reason = "permission"
	ReasonQuestion   Reason = "question"
	ReasonPlan       Reason = "plan"
	ReasonInput      Reason = "input"
)

// NeedsYou reports whether a state asks for the person's attention.
func (s State) NeedsYou() bool { return s == Waiting || s == Done }

// The agents Mew knows. Record.Agent and Shown.Agent are one of these.
const (
	AgentClaude   = "claude"
	AgentCodex    = "codex"
	AgentOpenCode = "opencode"
	AgentGemini   = "gemini"
	AgentAmp      = "amp"
	// AgentAgy is Antigravity CLI (`agy`), Gemini CLI's successor for
	// consumers: built from its published shapes, not yet recorded.
	AgentAgy = "agy"
	// Measured in the census of npm agent CLIs (testdata/fixtures/
	// <agent>-<version>).
	AgentCopilot  = "copilot"  // GitHub Copilot CLI
	AgentQwen     = "qwen"     // Qwen Code
	AgentPi       = "pi"       // pi (@mariozechner/pi-coding-agent)
	AgentCline    = "cline"    // Cline CLI
	AgentKilo     = "kilo"     // Kilo CLI (an OpenCode fork)
	AgentContinue = "continue" // Continue CLI (cn)
	// AgentGrok is Grok CLI (@vibe-kit/grok-cli): screen only, measured
	// against the stand-in in e2e (no hooks).
	AgentGrok = "grok"
)

// Agents lists every agent, in the order Mew documents them.
var Agents = []string{AgentClaude, AgentCodex, AgentOpenCode, AgentGemini, AgentAmp, AgentAgy,
	AgentCopilot, AgentQwen, AgentPi, AgentCline, AgentKilo, AgentContinue, AgentGrok}

// ValidAgent reports whether name is an agent Mew knows.
func ValidAgent(name string) bool {
	for _, a := range Agents {
		if a == name {
			return true
		}
	}
	return false
}

// RecordVersion is bumped when the on-disk layout changes incompatibly.
const RecordVersion = 1

// Record is one session's file in $MEW_HOME/sessions/<id>.json. Each source
// keeps only its own latest observation; the shown state is derived from
// them by combine, never stored.
type Record struct {
	Version  int            `json:"version"`
	ID       string         `json:"id"`
	Agent    string         `json:"agent"`
	Hook     *HookState     `json:"hook,omitempty"`
	Registry *RegistryState `json:"registry,omitempty"`
	Log      *LogState      `json:"log,omitempty"`
	Screen   *ScreenState   `json:"screen,omitempty"`
	Process  *Process       `json:"process,omitempty"`
	// Terminal is the agent's terminal UI when another process runs the
	// session: Codex's TUI, next to the `codex app-server` daemon that runs
	// turns and hooks and outlives it. It is where a jump goes; Process
	// stays the process whose death ends the session.
	Terminal *Terminal `json:"terminal,omitempty"`
	// Usage is the agent's own latest report of the session's usage and
	// the account's quota (Claude Code's statusline input, written by
	// `mew-hook --statusline`). Codex's comes with its log (LogState.Usage).
	Usage *Usage `json:"usage,omitempty"`
}

// Usage is what an agent reported of a session's use and its account's
// quota, as it reported it: a figure the agent does not give stays unset
// (nil, zero), never estimated.
type Usage struct {
	At     time.Time `json:"at"`     // when the agent reported it
	Source string    `json:"source"` // "statusline" | "rollout:token_count"
	Model  string    `json:"model,omitempty"`
	// ContextPercent is how full the context window is (0-100), and
	// ContextSize/ContextUsed its size and the tokens in it, when known.
	ContextPercent *float64 `json:"context_percent,omitempty"`
	ContextSize    int64    `json:"context_size,omitempty"`
	ContextUsed    int64    `json:"context_used,omitempty"`
	// CostUSD is the session's cost as the agent computed it.
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// TotalTokens is the session's tokens so far (input + output).
	TotalTokens int64 `json:"total_tokens,omitempty"`
	// FiveHour and Weekly are the account's rolling quotas.
	FiveHour *Quota `json:"five_hour,omitempty"`
	Weekly   *Quota `json:"weekly,omitempty"`
	// Account names the account the quota is of, when the agent says
	// (Codex's plan type); "" is the agent's one account on this machine.
	Account string `json:"account,omitempty"`
}

// Quota is one rolling window of an account's rate limit.
type Quota struct {
	UsedPercent float64   `json:"used_percent"`
	ResetsAt    time.Time `json:"resets_at,omitzero"`
}

// Terminal is an agent's terminal UI process, as a process source saw it.
type Terminal struct {
	Process
	// Gone: the session has no terminal UI any more (it exited, or the
	// session never had one, as with `codex exec`).
	Gone bool      `json:"gone,omitempty"`
	At   time.Time `json:"at"` // when it was last seen, or seen gone
	// HooksReview: the UI shows no session yet while Codex asks the
	// person to review Mew's hooks at its start ("Hooks need review":
	// they are installed but not trusted), so it waits on that dialog
	// (source/codex; outside tmux no screen shows it).
	HooksReview bool `json:"hooks_review,omitempty"`
}

// HookState is everything the hook events taught us. The reducer keeps the
// facts (pending tools, subagents, whether a Stop came) and derives State
// from them after every event.
type HookState struct {
	State  State     `json:"state"`
	Reason Reason    `json:"reason,omitempty"`
	Source string    `json:"source"` // the event that decided State, e.g. "hook:PermissionRequest"
	Since  time.Time `json:"since"`  // when State (with Reason) began
	// At is the time of the newest event that bears on the state; combine
	// compares it with the registry's status time.
	At time.Time `json:"at"`
	// AtMono is At on the machine's monotonic clock (internal/clock), 0
	// when unknown: it orders hook events and registry readings even
	// across a wall clock step (combine).
	AtMono int64 `json:"at_mono,omitempty"`

	Cwd            string `json:"cwd,omitempty"`
	Title          string `json:"title,omitempty"`
	Tool           string `json:"tool,omitempty"`        // the tool waited on
	ToolDetail     string `json:"tool_detail,omitempty"` // e.g. the Bash command, shortened
	LastMessage    string `json:"last_message,omitempty"`
	Model          string `json:"model,omitempty"`
	PermissionMode string `json:"permission_mode,omitempty"`
	TranscriptPath string `json:"transcript_path,omitempty"`

	// Turn facts.
	Active    bool          `json:"active,omitempty"`    // the main agent's turn is under way
	StopSeen  bool          `json:"stop_seen,omitempty"` // a main Stop came since the last prompt
	Failure   string        `json:"failure,omitempty"`   // error kind of a StopFailure since the last prompt
	Ended     string        `json:"ended,omitempty"`     // SessionEnd reason; non-empty means exited
	Subagents []string      `json:"subagents,omitempty"` // running subagent ids, sorted
	Finished  []string      `json:"finished,omitempty"`  // recently stopped subagent ids (capped)
	Pending   []PendingTool `json:"pending,omitempty"`   // tools started and not finished, oldest first
	// HandBack is when the last background subagent stopped after the main
	// turn had ended: Claude Code then starts a turn by itself to hand its
	// result to the model, so the session is working, not done, until that
	// turn begins or HandBackHold passes without it.
	HandBack   time.Time `json:"hand_back,omitzero"`
	EventCount int       `json:"event_count,omitempty"` // events folded in, for diagnostics
	// Unknown lists event names and notification kinds this Mew does not
	// know (capped): recorded as seen, never an error.
	Unknown []string `json:"unknown,omitempty"`
	// Recent are digests of the newest payloads folded in (capped): the
	// hook drops the same payload coming right after through the other
	// way, one event delivered twice (Mew's plugin and a settings entry of
	// Mew's both run the hook), even with another event's delivery in
	// between. The same payload again through the same way is an event.
	Recent []Delivery `json:"recent,omitempty"`
}

// Delivery is one payload the hook folded in: its digest, when it came,
// who ran the hook (Via: "plugin" for Mew's agent plugin, "" for a
// settings entry), and whether the other one's delivery of it came too.
type Delivery struct {
	Sum    string    `json:"sum"`
	At     time.Time `json:"at"`
	Via    string    `json:"via,omitempty"`
	Paired bool      `json:"paired,omitempty"`
}

// PendingTool is a tool call that started (PreToolUse or PermissionRequest)
// and has not finished. Wait is set when the call waits on the person.
type PendingTool struct {
	ID     string    `json:"id,omitempty"` // tool_use_id when known
	Agent  string    `json:"agent,omitempty"`
	Tool   string    `json:"tool"`
	Input  string    `json:"input,omitempty"` // hash of tool_input, to pair PermissionRequest with PreToolUse
	Detail string    `json:"detail,omitempty"`
	Wait   Reason    `json:"wait,omitempty"`
	Since  time.Time `json:"since"`
	// Options are the labels a question offers (AskUserQuestion's first
	// question), in order: the choices when no screen shows the dialog.
	Options []string `json:"options,omitempty"`
}

// RegistryState is Mew's memory of Claude Code's own session file
// (~/.claude/sessions/<pid>.json).
type RegistryState struct {
	Status     string    `json:"status,omitempty"` // idle | busy | waiting | "" (not reported)
	WaitingFor string    `json:"waiting_for,omitempty"`
	At         time.Time `json:"at"` // statusUpdatedAt, or when Mew saw the file
	// AtMono is At on the monotonic clock (see HookState.AtMono).
	AtMono int64 `json:"at_mono,omitempty"`
	// TurnSeen is true when busy or waiting was observed after the last
	// idle Mew saw before it, or the transcript got a finished reply after
	// the idle (a turn too short for a busy), in this process: lets a
	// registry-only session tell "a turn ended" (done) from "nothing
	// happened yet" (idle). LastTurnAt is when (busy's time, or the
	// reply's).
	TurnSeen   bool      `json:"turn_seen,omitempty"`
	LastTurnAt time.Time `json:"last_turn_at,omitempty"`
	Gone       bool      `json:"gone,omitempty"` // the file disappeared
	// Interrupted: the status is idle and the session's transcript shows
	// its last turn stopped by the person (Esc on a prompt or while the
	// answer streamed), not finished (source/registry/transcript.go).
	Interrupted bool      `json:"interrupted,omitempty"`
	Pid         int       `json:"pid,omitempty"`
	ProcStart   string    `json:"proc_start,omitempty"`
	StartedAt   time.Time `json:"started_at,omitempty"`
	Cwd         string    `json:"cwd,omitempty"`
	Name        string    `json:"name,omitempty"`
	Tmux        string    `json:"tmux,omitempty"`
	Version     string    `json:"version,omitempty"`
	File        string    `json:"file,omitempty"` // base name of the registry file
	// Entrypoint is how Claude Code was started: "cli" interactive,
	// "sdk-cli" (`claude -p`), "sdk-ts", "sdk-py" (SDK apps), ...
	Entrypoint string `json:"entrypoint,omitempty"`
}

// LogState is what an agent's own log says about its turns (Codex's rollout
// file): task started, completed, failed or aborted. It never knows about a
// wait on the person (Codex writes no approval to its rollout).
type LogState struct {
	State  State     `json:"state"`  // working | done | failed | idle
	Source string    `json:"source"` // the line that decided, e.g. "rollout:task_complete"
	Since  time.Time `json:"since"`  // when State began
	At     time.Time `json:"at"`     // time of the newest line that bears on the state
	Error  string    `json:"error,omitempty"`
	File   string    `json:"file,omitempty"` // base name of the log file
	Cwd    string    `json:"cwd,omitempty"`
	Title  string    `json:"title,omitempty"`
	// LastMessage is the agent's last message of the turn.
	LastMessage string `json:"last_message,omitempty"`
	// Final: the log's done is the agent's own last word on the turn
	// (Copilot CLI writes its agentStop only for a turn that succeeded),
	// so a screen that still draws the turn running lags it and is not
	// waited for (monitor/combine).
	Final bool `json:"final,omitempty"`
	// Usage is the log's latest token_count (Codex): tokens, context and
	// the account's rate limits.
	Usage *Usage `json:"usage,omitempty"`
}

// Screen states a rules file can name (see package rules). blocked means a
// prompt that waits on the person is drawn.
const (
	ScreenExited  = "exited"
	ScreenBlocked = "blocked"
	ScreenFailed  = "failed"
	ScreenWorking = "working"
	ScreenIdle    = "idle"
	ScreenUnknown = "unknown"
)

// HandBackHold is how long a background subagent's hand-back is taken
// for a turn about to begin (HookState.HandBack). Claude Code 2.1.328
// began it 0.07-0.18 s after SubagentStop, and its registry said idle in
// between, which read as a done for that moment.
const HandBackHold = 1500 * time.Millisecond

// ScreenSettle is how long after an agent reports a turn's end its screen
// may still show the turn running: agents report first and draw after
// (Gemini CLI's AfterAgent came 60 ms before its API error or "Request
// cancelled" showed). Until a screen read that much after the report
// agrees, the turn is not shown done (monitor/combine), and a screen
// source read on news sends its reads until one is that late
// (source.Nudger).
const ScreenSettle = 500 * time.Millisecond

// Settle is how long after a turn's end was reported this screen may still
// show it running: the agent's own time where its rules give one (Gemini
// CLI draws an Esc or an API error only after its AfterAgent hooks have
// all run, over 0.5 s later on a loaded machine), else ScreenSettle.
func (s *ScreenState) Settle() time.Duration {
	if s != nil && s.ReportSettle > 0 {
		return s.ReportSettle
	}
	return ScreenSettle
}

// ScreenState is what the screen source read on the session's terminal:
// a tmux pane (read by the monitor itself) or a `mew run` wrapper (which
// writes it into the store).
type ScreenState struct {
	Agent  string `json:"agent"`            // the agent sniffed on this terminal
	State  string `json:"state"`            // one of the Screen* states
	Reason Reason `json:"reason,omitempty"` // when blocked: why
	// Rule names the rule that matched: "<agent>/<state>#<n>".
	Rule string `json:"rule,omitempty"`
	// TurnEnded: a finished-turn line ("✻ Worked for 2s") is on the screen.
	TurnEnded bool `json:"turn_ended,omitempty"`
	// Interrupted: the idle screen says the person stopped the turn (Gemini
	// CLI's "Request cancelled", which no hook reports).
	Interrupted bool `json:"interrupted,omitempty"`
	// ErrorShown: the screen still shows the turn running, but an error
	// row that came during it is drawn too (Gemini CLI runs its
	// end-of-turn hooks, spinner and all, after an API error).
	ErrorShown bool      `json:"error_shown,omitempty"`
	Since      time.Time `json:"since"` // when State began on this screen
	At         time.Time `json:"at"`    // the newest read of the screen
	// Unblocked is the last time a prompt went away from the screen: a
	// wait any other source reported before it is over.
	Unblocked time.Time `json:"unblocked,omitempty"`
	// ReportSettle is the agent's own ScreenSettle (its rules file's
	// report_settle; 0 for the default): see Settle.
	ReportSettle time.Duration `json:"report_settle,omitempty"`
	// ReportFinal: the agent's reports are not held for this screen (its
	// rules file's report_final; see monitor/combine's settle).
	ReportFinal bool `json:"report_final,omitempty"`
	// Background: the agent is no longer the terminal's foreground process
	// (the shell is back, or it was suspended).
	Background bool   `json:"background,omitempty"`
	Title      string `json:"title,omitempty"` // the terminal title the agent set
	Via        string `json:"via"`             // "tmux" | "run"
	Pane       string `json:"pane,omitempty"`  // tmux pane id (%N)
	// Window is the pane's tmux session and window index, "work:2": how a
	// person finds the pane (the pane id is tmux's own).
	Window  string `json:"window,omitempty"`
	Tty     string `json:"tty,omitempty"`
	Pid     int    `json:"pid,omitempty"` // the agent process on that terminal
	StartMs int64  `json:"start_ms,omitempty"`
	// Prompt is the text of the prompt on screen when blocked (the rows of
	// the dialog, trimmed): what an answer must still find before typing.
	Prompt string `json:"prompt,omitempty"`
	// Choices are the answers the dialog offers (its options as drawn),
	// when blocked and the agent's rules say how to read them.
	Choices []Choice `json:"choices,omitempty"`
	// Attention is when the agent last asked its terminal for a
	// notification (OSC 9, 99 or 777; seen by `mew run` only: tmux drops
	// them), Notice that notification's text.
	Attention time.Time `json:"attention,omitzero"`
	Notice    string    `json:"notice,omitempty"`
	// Progress is the agent's progress bar (OSC 9;4): working,
	// indeterminate, paused, error, or "" for none.
	Progress string `json:"progress,omitempty"`
}

// Choice is one answer a waiting session offers: N is the number that
// picks it (the agent's own option number where it draws one), Label its
// text as the agent shows it.
type Choice struct {
	N     int    `json:"n"`
	Label string `json:"label"`
}

// Process identifies the agent process and where it runs, recorded by the
// hook at SessionStart for liveness and jumps.
type Process struct {
	Pid     int    `json:"pid"`
	StartMs int64  `json:"start_ms,omitempty"` // process start, Unix milliseconds
	Name    string `json:"name,omitempty"`
	// Cwd is the process's working directory, when a source read it (the
	// process scan); the hook's record has the session's cwd instead.
	Cwd       string            `json:"cwd,omitempty"`
	Tty       string            `json:"tty,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	Host      *Host             `json:"host,omitempty"`
	Tmux      *Tmux             `json:"tmux,omitempty"`
	HookPid   int               `json:"hook_pid,omitempty"`
	Ancestors []Ancestor        `json:"ancestors,omitempty"`
	// Headless: no person attends the session (`claude -p`, an SDK app);
	// see terminal.DescribeAgent.
	Headless bool `json:"headless,omitempty"`
}

// Ancestor is one process above the agent, nearest first.
type Ancestor struct {
	Pid  int    `json:"pid"`
	Name string `json:"name,omitempty"`
	Exe  string `json:"exe,omitempty"`
}

// Host is the GUI application the session's terminal belongs to.
type Host struct {
	BundleID string `json:"bundle_id,omitempty"`
	AppPath  string `json:"app_path,omitempty"`
	Pid      int    `json:"pid,omitempty"`
}

// Tmux locates the pane when the agent runs inside tmux.
type Tmux struct {
	Socket string `json:"socket,omitempty"`
	Pane   string `json:"pane,omitempty"` // %N
	// ServerPid is the tmux server from $TMUX; identifies a restarted server.
	ServerPid int `json:"server_pid,omitempty"`
}

// Shown is the state Mew reports for a session: the result of combine plus
// what a person needs to see. It is the `mew status --json` schema.
type Shown struct {
	ID    string `json:"id"`
	Agent string `json:"agent"`
	// AgentVersion is the agent's version, when a source reported it
	// (Claude Code's registry).
	AgentVersion string    `json:"agent_version,omitempty"`
	State        State     `json:"state"`
	Reason       Reason    `json:"reason,omitempty"`
	Source       string    `json:"source"`
	Since        time.Time `json:"since"`
	Cwd          string    `json:"cwd"`
	Pid          int       `json:"pid"`
	Title        string    `json:"title"`
	Tool         string    `json:"tool,omitempty"`
	ToolDetail   string    `json:"tool_detail,omitempty"`
	LastMessage  string    `json:"last_message"`
	Tty          string    `json:"tty,omitempty"`
	Tmux         string    `json:"tmux,omitempty"`
	// TmuxServer is the socket of the server Tmux's pane is on, when known:
	// every server numbers its panes from %0, so a pane id alone is
	// ambiguous.
	TmuxServer string `json:"tmux_server,omitempty"`
	// TmuxWindow is the pane's tmux session and window index ("work:2").
	TmuxWindow string `json:"tmux_window,omitempty"`
	// Terminal is the terminal app the session's tab is in, outside tmux
	// ("iTerm2", "WezTerm"), and TerminalPane the app's own number for
	// it ("pane 3"), when known: see termid.App. TerminalTitle is the
	// title the agent set on its terminal, when a screen read it.
	Terminal      string `json:"terminal,omitempty"`
	TerminalPane  string `json:"terminal_pane,omitempty"`
	TerminalTitle string `json:"terminal_title,omitempty"`
	HooksSeen     bool   `json:"hooks"`    // Mew's hooks reported on this session
	Registry      bool   `json:"registry"` // Claude Code's registry reported on it
	// Headless: no person attends it (`claude -p`, an SDK app): it never
	// counts as needing you, whatever its state (NeedsYou).
	Headless bool `json:"headless,omitempty"`
	// Host is the remote (`mew remote add NAME`) the session runs on; ""
	// for this machine.
	Host string `json:"host,omitempty"`
	// Offline: the host cannot be reached now. The state is the last one
	// seen there, at LastSeen; it is stale, never a sign the session ended.
	Offline  bool      `json:"offline,omitempty"`
	LastSeen time.Time `json:"last_seen,omitzero"`
	// Choices are the answers a waiting session offers (package answer
	// types them into its terminal); AnswerVia says how Mew can type
	// there ("tmux", "run", "iterm2"), "" when it cannot: answer in the
	// terminal.
	Choices   []Choice `json:"choices,omitempty"`
	AnswerVia string   `json:"answer_via,omitempty"`
	// Usage is the session's latest usage report (context, cost, the
	// account's quota), nil when its agent reports none.
	Usage *Usage `json:"usage,omitempty"`
}

// NeedsYou reports whether the session asks for the person: a needs-you
// state of a session someone attends.
func (s Shown) NeedsYou() bool { return !s.Headless && s.State.NeedsYou() }

// ValidID reports whether id is a plain safe name: 1-128 ASCII letters,
// digits, '-', '_', ':' or '%', starting with a letter or digit. Claude Code
// uses UUIDs; the rule is wider (other agents, and the ids Mew gives
// sessions only a screen sees: "tmux:%12", "run:4242") but never admits a
// path separator, a dot, whitespace or shell metacharacters, so an id can
// name a file.
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case (c == '-' || c == '_' || c == ':' || c == '%') && i > 0:
		default:
			return false
		}
	}
	return true
}

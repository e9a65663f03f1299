package reducer

// GitHub Copilot CLI (measured on 1.0.102: testdata/fixtures/copilot-1.0.102)
// runs command hooks from ~/.copilot/hooks/*.json under camelCase event
// names, with camelCase payloads that do not name their event: Mew's hooks
// file passes the name on the hook's command line (hookbin.EventFlag).

// Copilot CLI's own event names.
const (
	copilotSessionStart       = "sessionStart"
	copilotUserPrompt         = "userPromptSubmitted"
	copilotPreToolUse         = "preToolUse"
	copilotPermissionRequest  = "permissionRequest"
	copilotNotification       = "notification"
	copilotPostToolUse        = "postToolUse"
	copilotPostToolUseFailure = "postToolUseFailure"
	copilotAgentStop          = "agentStop"
	copilotErrorOccurred      = "errorOccurred"
	copilotSessionEnd         = "sessionEnd"
	// copilotRetrying is errorOccurred with recoverable: true (the request
	// is retried: Copilot fires one per retry, 5 of them, and none for the
	// final failure, which only its session log says).
	copilotRetrying = "errorOccurred.recoverable"
)

// CopilotEvents are the Copilot CLI hook events Mew registers for. Copilot
// runs hooks one after another and waits for each: preCompact,
// subagentStart/Stop say nothing Mew shows, so they are left out, and so
// is permissionRequest: it fires before Copilot's own rules and
// auto-approval run, so it announces a wait nobody may be asked about. Its
// notification (permission_prompt, elicitation_dialog) says a person is
// asked.
var CopilotEvents = []string{
	copilotSessionStart, copilotUserPrompt, copilotPreToolUse, copilotNotification,
	copilotPostToolUse, copilotPostToolUseFailure, copilotAgentStop, copilotErrorOccurred, copilotSessionEnd,
}

// copilotFields renames Copilot's payload fields to the ones Event reads.
// preToolUse and postToolUse name the input toolArgs, permissionRequest
// toolInput; a payload has one or the other.
var copilotFields = []fieldName{
	{"sessionId", "session_id"},
	{"transcriptPath", "transcript_path"},
	{"toolName", "tool_name"},
	{"toolArgs", "tool_input"},
	{"toolInput", "tool_input"},
}

// parseCopilot decodes a Copilot hook payload of event name into ev (names
// not yet canonical).
func parseCopilot(name string, payload []byte, ev *Event) ([]string, error) {
	recoverable := false
	payload = snakeFields(payload, copilotFields, func(key string, raw []byte) {
		if key == "recoverable" {
			recoverable = string(raw) == "true"
		}
	})
	*ev = Event{}
	ignored, err := ParseLenient(payload, ev)
	if name != "" {
		// The payload's own name, where it has one, is Claude's
		// (notification says "Notification"): the command line's wins.
		ev.Name = name
	}
	if ev.Name == copilotErrorOccurred && recoverable {
		ev.Name = copilotRetrying
	}
	return ignored, err
}

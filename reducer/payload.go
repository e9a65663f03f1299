package reducer

import "encoding/json"

// The types in this file are decoded on every hook call. Their JSON code is
// generated (easyjson, see `make generate`): encoding/json builds its
// decoders by reflection on first use, which cost ~0.4 ms of a hook process
// that must stay close to a no-op's start-up time.

// BackgroundTask is one entry of Stop's background_tasks.
type BackgroundTask struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Status string `json:"status"`
}

// Event is the part of a hook payload the reducer reads. Unknown fields are
// ignored by the decoder; unknown events are kept by name.
type Event struct {
	SessionID        string           `json:"session_id"`
	Name             string           `json:"hook_event_name"`
	Cwd              string           `json:"cwd"`
	TranscriptPath   string           `json:"transcript_path"`
	PermissionMode   string           `json:"permission_mode"`
	Model            string           `json:"model"`
	Source           string           `json:"source"` // SessionStart: startup | resume | clear | compact
	Prompt           string           `json:"prompt"`
	ToolName         string           `json:"tool_name"`
	ToolInput        json.RawMessage  `json:"tool_input"`
	ToolUseID        string           `json:"tool_use_id"`
	AgentID          string           `json:"agent_id"`
	NotificationType string           `json:"notification_type"`
	Message          string           `json:"message"`
	LastMessage      string           `json:"last_assistant_message"`
	BackgroundTasks  []BackgroundTask `json:"background_tasks"`
	Reason           string           `json:"reason"` // SessionEnd
	Error            json.RawMessage  `json:"error"`  // StopFailure: a string or an object
	// PromptResponse is Gemini CLI's AfterAgent answer (its
	// last_assistant_message).
	PromptResponse string `json:"prompt_response"`
	// AutoReviewed is set by the hook, not the payload: the agent's own
	// reviewer decides this PermissionRequest before anybody is asked
	// (Codex's approvals_reviewer = "auto_review"), so it is no wait yet.
	AutoReviewed bool `json:"-"`
}

// toolInput is the part of a tool_input worth showing a person.
type toolInput struct {
	Command     string     `json:"command"`
	FilePath    string     `json:"file_path"`
	Path        string     `json:"path"`
	URL         string     `json:"url"`
	Pattern     string     `json:"pattern"`
	Questions   []question `json:"questions"`
	Description string     `json:"description"`
}

type question struct {
	Question string   `json:"question"`
	Options  []option `json:"options"`
}

// option is one of an AskUserQuestion question's answers.
type option struct {
	Label string `json:"label"`
}

// stopError is StopFailure's error when it is an object (OpenCode's
// session.error names its kind in "name").
type stopError struct {
	Type string `json:"type"`
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// PluginEvent is what Mew's OpenCode and Amp plugins forward to the hook:
// the agent's own event object, as the agent passed it to the plugin, with
// only the fields Mew reads (Amp's agent.end carries the whole thread, which
// the plugin leaves out) and the directory the agent runs in. See
// ParsePlugin for how it becomes an Event.
type PluginEvent struct {
	Type string `json:"type"`
	// Cwd is added by Mew's plugin: the directory the agent was started in.
	Cwd        string       `json:"cwd"`
	Properties pluginFields `json:"properties"` // OpenCode
	Thread     pluginThread `json:"thread"`     // Amp
	// Status is Amp's agent.end outcome ("done", "error", "cancelled").
	Status  string `json:"status"`
	Message string `json:"message"` // Amp's agent.start: the prompt
}

// pluginFields are the properties of OpenCode's events that Mew reads.
type pluginFields struct {
	SessionID string `json:"sessionID"`
	// Status is session.status's {"type": "busy"|"retry"|"idle", …}.
	Status     pluginStatus    `json:"status"`
	ID         string          `json:"id"`        // permission.asked
	RequestID  string          `json:"requestID"` // permission.replied
	Reply      string          `json:"reply"`     // permission.replied: once | always | reject
	Response   string          `json:"response"`  // the same before OpenCode 1.x
	Permission string          `json:"permission"`
	Metadata   json.RawMessage `json:"metadata"` // permission.asked: e.g. {"command": …}
	Error      pluginError     `json:"error"`    // session.error
	Info       pluginInfo      `json:"info"`     // session.created
}

type pluginStatus struct {
	Type    string `json:"type"`
	Message string `json:"message"` // retry: why
}

type pluginError struct {
	Name string `json:"name"`
}

type pluginInfo struct {
	ID        string `json:"id"`
	Directory string `json:"directory"`
	ParentID  string `json:"parentID"`
	Title     string `json:"title"`
}

type pluginThread struct {
	ID string `json:"id"`
}

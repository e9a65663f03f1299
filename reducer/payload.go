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

// stopError is StopFailure's error when it is an object.
type stopError struct {
	Type string `json:"type"`
	Kind string `json:"kind"`
}

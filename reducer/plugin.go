package reducer

import (
	"fmt"
	"strings"
)

// Agents whose events come from a plugin Mew installs into the agent
// (OpenCode, Amp, Kilo; pi's extension) rather than from hooks the agent runs: the plugin forwards
// the agent's own event (PluginEvent) and the hook makes it an Event here.
// Which event it is stays data: the name is the event's type, with its kind
// appended when the renames table knows that pair ("session.status.busy",
// "permission.replied.reject", "session.error.MessageAbortedError",
// "agent.end.cancelled"), and the table maps it to a canonical event.

// FromPlugin reports whether agent's events come from Mew's plugin.
func FromPlugin(agent string) bool { return MappingOf(agent).Payload == PluginPayload }

// ParseFor decodes a payload agent sent to the hook into ev, canonical
// (Normalize applied). ignored lists the fields of a hook payload left out
// for an unexpected type (ParseLenient).
func ParseFor(agent string, payload []byte, ev *Event) (ignored []string, err error) {
	return ParseNamed(agent, "", payload, ev)
}

// ParseNamed is ParseFor for a hook told its event's name on its command
// line (Copilot CLI's payloads carry none): name, when set, is the event.
func ParseNamed(agent, name string, payload []byte, ev *Event) (ignored []string, err error) {
	switch MappingOf(agent).Payload {
	case PluginPayload:
		err = ParsePlugin(agent, payload, ev)
	case ClinePayload:
		err = parseCline(payload, ev)
		if err != nil && err != ErrNoSession {
			err = fmt.Errorf("payload is not a Cline hook event: %w", err)
		}
	case CopilotPayload:
		ignored, err = parseCopilot(name, payload, ev)
	case CamelPayload:
		ignored, err = ParseLenient(snakeFields(payload, agyFields, nil), ev)
	default:
		ignored, err = ParseLenient(payload, ev)
	}
	if err != nil {
		return ignored, err
	}
	Normalize(agent, ev)
	return ignored, nil
}

// ParsePlugin decodes what Mew's plugin forwarded into ev (names not yet
// canonical). It fails on input that is not a JSON object or names no
// session.
func ParsePlugin(agent string, payload []byte, ev *Event) error {
	var p PluginEvent
	if err := decode(payload, &p); err != nil {
		return fmt.Errorf("payload is not a plugin event: %w", err)
	}
	f := &p.Properties
	*ev = Event{
		SessionID: first(f.SessionID, f.Info.ID, p.Thread.ID),
		Cwd:       first(p.Cwd, f.Info.Directory),
		ToolName:  f.Permission,
		ToolInput: f.Metadata,
		ToolUseID: first(f.ID, f.RequestID),
		Prompt:    p.Message,
	}
	kind := first(f.Status.Type, f.Reply, f.Response, f.Error.Name, p.Status)
	ev.Name = p.Type
	if kind != "" {
		if _, ok := lookup(agent, p.Type+"."+kind); ok {
			ev.Name = p.Type + "." + kind
		}
	}
	if f.Error.Name != "" {
		ev.Error = quoteJSON(f.Error.Name)
	}
	if ev.ToolName == "" && (strings.HasPrefix(p.Type, "form.") || strings.HasPrefix(p.Type, "question.")) {
		ev.ToolName = toolAskUserQuestion // OpenCode's question to the person
	}
	if ev.SessionID == "" {
		return ErrNoSession
	}
	return nil
}

func first(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// quoteJSON makes s a JSON string (errorKind reads it back); control
// characters and quotes are dropped rather than escaped: it is a kind name.
func quoteJSON(s string) []byte {
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x20 && c != '"' && c != '\\' {
			b = append(b, c)
		}
	}
	return append(b, '"')
}

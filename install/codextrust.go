package install

// Codex runs a hook from hooks.json only after the person trusted it: the
// "Hooks need review" dialog writes, for each hook,
//
//	[hooks.state."<hooks.json path>:<event>:<group>:<handler>"]
//	trusted_hash = "sha256:<hex>"
//
// into config.toml. Mew never writes that (it is the person's consent); it
// computes the hash the same way to tell whether its hooks are trusted.
//
// How Codex 0.169 computes it (codex-rs/hooks engine/discovery.rs,
// command_hook_hash and config's version_for_toml; checked against hashes
// the real CLI wrote, see codextrust_test.go): the hook's normalized
// identity {event_name, matcher, hooks: [{type, command, timeout, async,
// statusMessage}]} — event_name in snake case, the matcher only for events
// that take one, timeout defaulted to 600 and at least 1 (SessionEnd and
// Interrupt: 1, at most 3), absent options
// left out — as JSON with every object's keys sorted and no blanks
// (serde_json's compact form), hashed with SHA-256.

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// codexHook is one command hook of hooks.json as Codex normalizes it.
type codexHook struct {
	Event         string  // hooks.json's event name, e.g. "PreToolUse"
	Matcher       *string // the group's matcher, when it has one
	Command       string
	Timeout       *int64 // seconds; nil when absent
	Async         bool
	StatusMessage *string
}

// codexMatcherEvents are the events whose matcher Codex keeps in a hook's
// identity (matcher_pattern_for_event); for the others it is dropped.
var codexMatcherEvents = []string{"PreToolUse", "PermissionRequest", "PostToolUse", "SessionStart"}

// codexEventLabel is the event's name in trust keys and hashes:
// PreToolUse → pre_tool_use.
func codexEventLabel(event string) string {
	var b strings.Builder
	for i, r := range event {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// codexTrustKey is the key of a hook's state in config.toml.
func codexTrustKey(hooksPath, event string, group, handler int) string {
	return hooksPath + ":" + codexEventLabel(event) + ":" + strconv.Itoa(group) + ":" + strconv.Itoa(handler)
}

// codexHash is the trusted_hash Codex expects for h.
func codexHash(h codexHook) string {
	timeout := int64(600)
	if h.Timeout != nil {
		timeout = max(*h.Timeout, 1)
	}
	if h.Event == "SessionEnd" || h.Event == "Interrupt" {
		// These run while Codex stops a session or a turn: 1 s by
		// default, 3 s at most, whatever the file says (measured).
		timeout = 1
		if h.Timeout != nil {
			timeout = min(max(*h.Timeout, 1), 3)
		}
	}
	handler := map[string]string{
		"type":    jsonString("command"),
		"command": jsonString(h.Command),
		"timeout": strconv.FormatInt(timeout, 10),
		"async":   strconv.FormatBool(h.Async),
	}
	if h.StatusMessage != nil {
		handler["statusMessage"] = jsonString(*h.StatusMessage)
	}
	identity := map[string]string{
		"event_name": jsonString(codexEventLabel(h.Event)),
		"hooks":      "[" + jsonObject(handler) + "]",
	}
	if h.Matcher != nil && takesMatcher(h.Event) {
		identity["matcher"] = jsonString(*h.Matcher)
	}
	sum := sha256.Sum256([]byte(jsonObject(identity)))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func takesMatcher(event string) bool {
	for _, e := range codexMatcherEvents {
		if e == event {
			return true
		}
	}
	return false
}

// jsonObject writes members (values already JSON) with sorted keys and no
// blanks.
func jsonObject(members map[string]string) string {
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonString(k))
		b.WriteByte(':')
		b.WriteString(members[k])
	}
	b.WriteByte('}')
	return b.String()
}

// jsonString quotes s as serde_json does: only the quote, the backslash
// and control characters are escaped (\b \f \n \r \t by name, the rest as
// \u00xx); everything else, '/', DEL, U+2028 and all non-ASCII included, is
// written as it is. encoding/json escapes more (<, >, &, U+2028, \b as
// \u0008), which would change the hash.
func jsonString(s string) string {
	const hexDigits = "0123456789abcdef"
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

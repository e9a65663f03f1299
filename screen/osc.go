package screen

// oscScanner follows the byte stream for the agent-state sequence Codex
// writes, ESC ] 7501 ; state=<state>[:key=value…] (BEL or ESC \), across
// write boundaries. tmux drops these sequences; a PTY wrapper sees them.
// midterm ignores OSC numbers it does not know, so this is read beside it.
type oscScanner struct {
	phase int // see the constants below
	buf   []byte
	state string // the newest announced state, e.g. "blocked:app=codex:kind=permission"
	// notice is what the agent asked the terminal for (notifications,
	// progress): see notice.go.
	notice Notice
}

const (
	oscText    = iota // ordinary output
	oscEsc            // saw ESC
	oscBody           // inside ESC ] …
	oscBodyEsc        // inside the body, saw ESC (maybe the ST terminator)
)

// maxOSC bounds what is kept of one sequence: the state payload and a
// notification are short; anything longer is some other OSC (a hyperlink,
// a clipboard write) and is skipped.
const maxOSC = 1024

const agentStatePrefix = "7501;state="

// maxAgentState bounds the state payload (what it was before notices
// needed longer sequences).
const maxAgentState = 256

func (o *oscScanner) scan(p []byte) {
	for _, c := range p {
		switch o.phase {
		case oscText:
			if c == 0x1b {
				o.phase = oscEsc
			}
		case oscEsc:
			switch c {
			case ']':
				o.phase, o.buf = oscBody, o.buf[:0]
			case 0x1b:
			default:
				o.phase = oscText
			}
		case oscBody:
			switch c {
			case 0x07:
				o.finish()
			case 0x1b:
				o.phase = oscBodyEsc
			case 0x18, 0x1a: // CAN, SUB abort a sequence
				o.phase = oscText
			default:
				if len(o.buf) < maxOSC {
					o.buf = append(o.buf, c)
				}
			}
		case oscBodyEsc:
			if c == '\\' {
				o.finish()
				continue
			}
			// ESC starts a new sequence; the unterminated OSC is dropped.
			o.phase = oscEsc
			if c == ']' {
				o.phase, o.buf = oscBody, o.buf[:0]
			}
		}
	}
}

func (o *oscScanner) finish() {
	o.phase = oscText
	if len(o.buf) >= maxOSC {
		return
	}
	if len(o.buf) > 0 && (o.buf[0] == '9' || o.buf[0] == '7') && o.notice.notice(string(o.buf)) {
		return
	}
	if len(o.buf) > maxAgentState || len(o.buf) <= len(agentStatePrefix) || string(o.buf[:len(agentStatePrefix)]) != agentStatePrefix {
		return
	}
	v := o.buf[len(agentStatePrefix):]
	for _, c := range v {
		if c < 0x20 || c >= 0x7f {
			return // not the ASCII payload the agents write
		}
	}
	o.state = string(v)
}

// AgentStateName is the state word of an announced state
// ("blocked:app=codex:kind=permission" → "blocked").
func AgentStateName(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return s[:i]
		}
	}
	return s
}

// AgentStateField returns the value of key in an announced state
// ("blocked:app=codex:kind=permission", "kind" → "permission").
func AgentStateField(s, key string) string {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ':' {
			part := s[start:i]
			if len(part) > len(key) && part[:len(key)] == key && part[len(key)] == '=' {
				return part[len(key)+1:]
			}
			start = i + 1
		}
	}
	return ""
}

package screen

import (
	"strings"

	"github.com/mew-dev/mew/internal/text"
)

// What an agent asks its terminal for besides drawing: a desktop
// notification (OSC 9 <text>, iTerm2 and ConEmu; OSC 99, kitty; OSC 777;
// notify;<title>;<body>, rxvt, Ghostty, WezTerm) and a progress bar (OSC
// 9;4;<state>;<value>, ConEmu and Windows Terminal). tmux drops them; a
// PTY wrapper sees them.

// Progress states of OSC 9;4.
const (
	ProgressNone          = ""              // none shown, or removed (state 0)
	ProgressWorking       = "working"       // a value set (1)
	ProgressError         = "error"         // (2)
	ProgressIndeterminate = "indeterminate" // (3)
	ProgressPaused        = "paused"        // (4)
)

// Notice is what the agent asked for so far.
type Notice struct {
	// Asked counts the notifications the agent asked for: a change is
	// "the agent asked for attention".
	Asked int
	// Text is the last one's text (title and body), cleaned to one line.
	Text string
	// Progress is the progress bar's state (Progress*).
	Progress string
}

const maxNoticeText = 200

// notice reads an OSC body as a notification or progress request; false
// when it is neither.
func (n *Notice) notice(body string) bool {
	switch {
	case strings.HasPrefix(body, "9;4;") || body == "9;4":
		st, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(body, "9;4"), ";"), ";")
		switch st {
		case "0", "":
			n.Progress = ProgressNone
		case "1":
			n.Progress = ProgressWorking
		case "2":
			n.Progress = ProgressError
		case "3":
			n.Progress = ProgressIndeterminate
		case "4":
			n.Progress = ProgressPaused
		default:
			return false
		}
		return true
	case strings.HasPrefix(body, "9;"):
		msg := body[2:]
		// ConEmu's other OSC 9 commands are numbers (9;1 sleep, 9;9 cwd,
		// …): only free text is a notification.
		if msg == "" || isConEmuCommand(msg) {
			return false
		}
		n.ask(msg)
		return true
	case strings.HasPrefix(body, "99;"):
		// kitty: 99;<key=value:…>;<payload>; a payload in parts (d=0)
		// asks once, when its last part comes (d=1, the default).
		meta, payload, ok := strings.Cut(body[3:], ";")
		if !ok {
			return false
		}
		if strings.Contains(":"+meta+":", ":d=0:") {
			return true
		}
		if strings.Contains(":"+meta+":", ":p=close:") || strings.Contains(":"+meta+":", ":p=alive:") {
			return true // not a request for attention
		}
		n.ask(payload)
		return true
	case strings.HasPrefix(body, "777;notify;"):
		title, msg, _ := strings.Cut(body[len("777;notify;"):], ";")
		n.ask(strings.TrimSpace(title + " " + msg))
		return true
	}
	return false
}

func (n *Notice) ask(msg string) {
	n.Asked++
	n.Text = text.OneLine(msg, maxNoticeText)
}

func isConEmuCommand(s string) bool {
	num, _, _ := strings.Cut(s, ";")
	if num == "" || len(num) > 2 {
		return false
	}
	for _, c := range num {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Package screen turns an agent's terminal output into the rows a person
// sees, so rules (package rules) can read what is drawn: the one signal
// every agent has. It wraps github.com/vito/midterm (measured against tmux
// on the recorded Claude Code runs: every row identical).
//
// The emulator never answers a terminal query (cursor position, device
// attributes, keyboard mode): the person's real terminal does, and a second
// answer would reach the agent as typed input. It keeps the visible rows
// only: a prompt that scrolled away has been answered and must not count.
package screen

import (
	"strings"
	"sync"

	"github.com/vito/midterm"
)

// Default size of a screen whose real size is unknown.
const (
	DefaultRows = 32
	DefaultCols = 120
)

// Emulator is one terminal screen. It is safe for concurrent use: the
// writer (a PTY pump) and the reader (the sweep) run in different
// goroutines.
type Emulator struct {
	mu         sync.Mutex
	term       *midterm.Terminal
	rows, cols int
	osc        oscScanner
	csi        csiClamp
	clamped    []byte
	// wantRows and wantCols hold a size asked for while a write held mu:
	// Resize never waits for the emulator (it runs on `mew run`'s signal
	// loop).
	sizeMu   sync.Mutex
	wantRows int
	wantCols int
}

// New returns an empty screen of the given size (DefaultRows × DefaultCols
// for a size < 1).
func New(rows, cols int) *Emulator {
	if rows < 1 || cols < 1 {
		rows, cols = DefaultRows, DefaultCols
	}
	t := midterm.NewTerminal(rows, cols)
	// ForwardRequests and ForwardResponses stay nil: midterm answers
	// nothing when they are (see the package comment).
	return &Emulator{term: t, rows: rows, cols: cols}
}

// Write feeds output bytes to the screen. It never fails; bytes the
// emulator does not understand are dropped as a terminal would.
func (e *Emulator) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.applySize()
	e.osc.scan(p)
	e.csi.rows, e.csi.cols = e.rows, e.cols
	e.clamped = e.csi.clamp(e.clamped[:0], p)
	for i := 0; i < len(e.clamped); i += feedPiece {
		e.feed(e.clamped[i:min(i+feedPiece, len(e.clamped))])
		e.applySize()
		if e.term.Height != e.rows || e.term.Width != e.cols {
			// midterm grows a screen for lines inserted below its bottom
			// (and works on the grown screen after); the real terminal
			// has its size, no more.
			e.term.Resize(e.rows, e.cols)
		}
	}
	return len(p), nil
}

// feedPiece is how much midterm reads between two checks of its size.
const feedPiece = 4 << 10

// feed hands p to midterm, surviving a panic in it: a malformed sequence
// must cost the screen, never the process that carries the agent's output.
func (e *Emulator) feed(p []byte) {
	defer func() {
		if recover() != nil {
			e.term = midterm.NewTerminal(e.rows, e.cols)
		}
	}()
	e.term.Write(p)
}

// Resize changes the screen size (the agent redraws after SIGWINCH).
func (e *Emulator) Resize(rows, cols int) {
	if rows < 1 || cols < 1 {
		return
	}
	e.sizeMu.Lock()
	e.wantRows, e.wantCols = rows, cols
	e.sizeMu.Unlock()
	if e.mu.TryLock() {
		e.applySize()
		e.mu.Unlock()
	}
	// else the write in progress applies it after its current piece
}

// applySize makes the screen the size Resize asked for (mu held).
func (e *Emulator) applySize() {
	e.sizeMu.Lock()
	rows, cols := e.wantRows, e.wantCols
	e.wantRows, e.wantCols = 0, 0
	e.sizeMu.Unlock()
	if rows < 1 || (rows == e.rows && cols == e.cols) {
		return
	}
	e.rows, e.cols = rows, cols
	e.term.Resize(rows, cols)
}

// Snapshot is what the screen shows at one moment.
type Snapshot struct {
	Rows  []string // the visible rows, trailing blanks trimmed
	Title string   // the window title the agent set (OSC 0/2)
	// AgentState is the newest state an agent announced with its own
	// escape sequence (Codex: ESC ] 7501 ; state=… BEL), "" if none.
	AgentState string
	// Notice is what the agent asked the terminal for: notifications
	// (OSC 9, 99, 777) and progress (OSC 9;4).
	Notice Notice
}

// Snapshot returns the visible rows and the title.
func (e *Emulator) Snapshot() Snapshot {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.applySize()
	content := e.term.Content
	if len(content) > e.rows {
		content = content[:e.rows]
	}
	s := Snapshot{Rows: make([]string, len(content)), Title: e.term.Title, AgentState: e.osc.state, Notice: e.osc.notice}
	for i, row := range content {
		s.Rows[i] = rowText(row)
	}
	return s
}

// rowText is a row as text, trailing blanks trimmed. midterm keeps a wide
// character in one cell followed by its continuation cell; the
// continuation is not text.
func rowText(row []rune) string {
	var b strings.Builder
	b.Grow(len(row))
	for _, r := range row {
		if r == 0 {
			continue
		}
		b.WriteRune(r)
	}
	return strings.TrimRight(b.String(), " ")
}

// Text joins rows into one string, a row a line, trailing blank rows
// dropped: the same shape as `tmux capture-pane -p`.
func Text(rows []string) string {
	end := len(rows)
	for end > 0 && rows[end-1] == "" {
		end--
	}
	return strings.Join(rows[:end], "\n")
}

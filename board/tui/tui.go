// Package tui is the terminal board: the same board as the panel, as a
// live list in a terminal (Bubble Tea), coloured by state. Arrows move, Enter
// jumps to the session's terminal, 1-9 answer the selected waiting
// session's prompt, and the bell rings when a session newly waits on the
// person.
package tui

import (
	"fmt"
	"image/color"
	"io"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mew-dev/mew/assets"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"

	"github.com/mew-dev/mew/internal/text"
)

// Jumper brings the person to a session's terminal and says where it went.
type Jumper interface {
	Jump(id string) (string, error)
}

// Answerer types a choice into a waiting session's terminal (package
// answer) and says what happened.
type Answerer interface {
	Answer(id string, c session.Choice) (string, error)
}

// Update is one list of sessions from the monitor.
type Update struct {
	Sessions []session.Shown
	Errors   []error
}

// NoteMsg sets the line under the list (the demo narrates with it).
type NoteMsg string

// TickRate is how often ages and settling are refreshed without news.
const TickRate = 4 // per second

// Options configure a Model.
type Options struct {
	// Updates brings the sessions; the board quits when it closes.
	Updates <-chan Update
	// Jumper jumps on Enter; nil disables jumping.
	Jumper Jumper
	// Answerer answers on 1-9; nil disables answering.
	Answerer Answerer
	// Bell gets a BEL for every new wait (the terminal); nil: silent.
	Bell io.Writer
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Plain draws without colours or attributes (text for a pipe). Else
	// the board is styled in full colour and Bubble Tea brings the colours
	// down to what the terminal shows.
	Plain bool
	// Title heads the board ("mew" when empty).
	Title string
	// Board overrides the board's settings (DefaultConfig, listing idle
	// and exited sessions too, when nil).
	Board *board.Config
	// Static renders a one-off list: no cursor, no key help.
	Static bool
	// Mutes keeps the person's mutes and snoozes (m and z on a row); nil
	// disables the keys.
	Mutes Mutes
	// Facts gives what the bell's decision needs (mutes, snoozes, the
	// terminal in front: board.Decide); nil rings for every alert.
	Facts func() board.AlertFacts
}

// Mutes keeps per-session mutes and snoozes (internal/alertprefs).
type Mutes interface {
	ToggleMute(id string) (bool, error)
	ToggleSnooze(id string, now time.Time, d time.Duration) (time.Time, error)
}

// SnoozeFor is how long z snoozes a session.
const SnoozeFor = time.Hour

// Model is the Bubble Tea model of the terminal board.
type Model struct {
	opt      Options
	board    *board.Board
	sessions []session.Shown
	rows     []board.Row
	selected string // the selected session's id: kept across reorders
	cursor   int
	status   string
	note     string
	errors   int
	width    int
	// agentCol is the agent column's width in the frame being drawn.
	agentCol  int
	rang      int
	jumping   string
	answering string
	st        styles
	quotas    []board.QuotaBar
	help      bool // ? shows the keys
}

type (
	tickMsg   time.Time
	closedMsg struct{}
	jumpedMsg struct {
		id, where string
		err       error
	}
	answeredMsg struct {
		id, what string
		err      error
	}
)

// New returns a board showing nothing yet.
func New(o Options) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Title == "" {
		o.Title = "mew"
	}
	cfg := board.DefaultConfig()
	cfg.ShowQuiet = true // the terminal board is the whole list
	if o.Board != nil {
		cfg = *o.Board
	}
	return &Model{opt: o, board: board.New(cfg), width: 100, st: newStyles(o.Plain)}
}

// Init starts listening and ticking.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.next(), tick())
}

func tick() tea.Cmd {
	return tea.Tick(time.Second/TickRate, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// next waits for the monitor's next list.
func (m *Model) next() tea.Cmd {
	if m.opt.Updates == nil {
		return nil
	}
	ch := m.opt.Updates
	return func() tea.Msg {
		u, ok := <-ch
		if !ok {
			return closedMsg{}
		}
		return u
	}
}

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case Update:
		m.sessions = msg.Sessions
		m.errors = len(msg.Errors)
		m.refresh()
		return m, m.next()
	case closedMsg:
		return m, tea.Quit
	case tickMsg:
		m.refresh()
		return m, tick()
	case NoteMsg:
		m.note = string(msg)
		return m, nil
	case tea.WindowSizeMsg:
		m.width = msg.Width
		return m, nil
	case answeredMsg:
		m.answering = ""
		if msg.err != nil {
			m.status = "not answered: " + msg.err.Error()
		} else {
			m.status = msg.what
		}
		return m, nil
	case jumpedMsg:
		m.jumping = ""
		if msg.err != nil {
			// The jump's own message may say it already: one cause said once.
			m.status = "could not jump: " + strings.TrimPrefix(msg.err.Error(), "did not jump: ")
		} else {
			m.status = msg.where
		}
		return m, nil
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	return m, nil
}

func (m *Model) key(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.help {
		// Any key closes the help; q still quits.
		m.help = false
		if k.String() == "q" || k.String() == "ctrl+c" {
			return m, tea.Quit
		}
		return m, nil
	}
	switch k.String() {
	case "?":
		m.help = true
	case "q", "esc", "ctrl+c":
		return m, tea.Quit
	case "up", "k":
		m.move(-1)
	case "down", "j":
		m.move(1)
	case "home", "g":
		m.move(-len(m.rows))
	case "end", "G":
		m.move(len(m.rows))
	case "enter":
		return m, m.jump()
	case "m":
		m.toggleMute()
	case "z":
		m.toggleSnooze()
	default:
		return m, m.answer(k.String())
	}
	return m, nil
}

func (m *Model) toggleMute() {
	if len(m.rows) == 0 || m.opt.Mutes == nil {
		return
	}
	r := m.rows[m.cursor]
	on, err := m.opt.Mutes.ToggleMute(r.Session.ID)
	switch {
	case err != nil:
		m.status = "cannot mute: " + err.Error()
	case on:
		m.status = r.Project + " muted: no sound or notification (m again unmutes)"
	default:
		m.status = r.Project + " unmuted"
	}
}

func (m *Model) toggleSnooze() {
	if len(m.rows) == 0 || m.opt.Mutes == nil {
		return
	}
	r := m.rows[m.cursor]
	until, err := m.opt.Mutes.ToggleSnooze(r.Session.ID, m.opt.Now(), SnoozeFor)
	switch {
	case err != nil:
		m.status = "cannot snooze: " + err.Error()
	case until.IsZero():
		m.status = r.Project + ": snooze ended"
	default:
		m.status = r.Project + " snoozed until " + until.Format("15:04") + " (z again ends it)"
	}
}

// answer handles a choice key on the selected row (board.AnswerKey).
func (m *Model) answer(key string) tea.Cmd {
	if len(m.rows) == 0 {
		return nil
	}
	r := m.rows[m.cursor]
	a := board.AnswerKey(r, key)
	switch {
	case a.Kind == board.NoAnswer:
		if a.Why != "" {
			m.status = a.Why
		}
		return nil
	case a.Kind == board.AnswerElsewhere:
		m.status = a.Why + ": enter jumps there"
		return nil
	case m.opt.Answerer == nil:
		m.status = "answering is not available here"
		return nil
	case m.answering != "":
		m.status = "an answer is being typed…"
		return nil
	}
	id, c, ans := r.Session.ID, a.Choice, m.opt.Answerer
	m.answering, m.status = id, fmt.Sprintf("answering %s: %d %s…", r.Project, c.N, oneLine(c.Label, 40))
	return func() tea.Msg {
		what, err := ans.Answer(id, c)
		return answeredMsg{id: id, what: what, err: err}
	}
}

func (m *Model) move(d int) {
	if len(m.rows) == 0 {
		return
	}
	m.cursor = min(max(m.cursor+d, 0), len(m.rows)-1)
	m.selected = m.rows[m.cursor].Session.ID
}

func (m *Model) jump() tea.Cmd {
	if len(m.rows) == 0 {
		return nil
	}
	if m.opt.Jumper == nil {
		m.status = "jumping is not available here"
		return nil
	}
	r := m.rows[m.cursor]
	id, j := r.Session.ID, m.opt.Jumper
	m.jumping, m.status = id, "jumping to "+r.Project+"…"
	return func() tea.Msg {
		where, err := j.Jump(id)
		return jumpedMsg{id: id, where: where, err: err}
	}
}

// refresh re-arranges the board at the current time and rings for new
// waits.
func (m *Model) refresh() {
	now := m.opt.Now()
	v := m.board.Update(m.sessions, now)
	m.rows, m.quotas = v.Rows, v.Quotas
	m.quotaAlerts(v.QuotaAlerts)
	alerts := v.Alerts
	if len(alerts) > 0 && m.opt.Facts != nil {
		alerts = board.Sent(board.Decide(alerts, m.opt.Facts(), now))
	}
	for _, a := range alerts {
		if a.State == session.Waiting && m.opt.Bell != nil {
			m.opt.Bell.Write([]byte("\a"))
			m.rang++
			break // one bell however many began at once
		}
	}
	m.cursor = 0
	for i, r := range m.rows {
		if r.Session.ID == m.selected {
			m.cursor = i
			return
		}
	}
	if len(m.rows) > 0 {
		m.selected = m.rows[0].Session.ID
	}
}

// Rows returns the rows shown, in order.
func (m *Model) Rows() []board.Row { return m.rows }

// Selected returns the selected session's id.
func (m *Model) Selected() string {
	if len(m.rows) == 0 {
		return ""
	}
	return m.rows[m.cursor].Session.ID
}

// Bells counts the bells rung so far.
func (m *Model) Bells() int { return m.rang }

// style is an SGR style from x/ansi, the styling layer Lip Gloss v2 renders
// with. Lip Gloss itself is not linked: its package init detects stdout's
// colour profile, which runs `tmux info` in every mew process started in
// tmux, and the board needs nothing from it beyond bold, italic and colour.
type style = ansi.Style

type styles struct {
	title, dim, sel, note style
	state                 map[session.State]style
}

func rgb(c assets.RGB) color.Color { return color.RGBA{R: c.R, G: c.G, B: c.B, A: 0xff} }

func newStyles(plain bool) styles {
	s := styles{state: map[session.State]style{}}
	if plain {
		return s // empty styles render text as it is
	}
	t := assets.Theme
	s.title = style{}.Bold()
	s.dim = style{}.ForegroundColor(rgb(t.Dim))
	s.sel = style{}.Bold()
	s.note = style{}.Italic(true)
	for st, c := range map[session.State]assets.RGB{
		session.Waiting: t.Waiting, session.Done: t.Done, session.Failed: t.Failed,
		session.Working: t.Working, session.Idle: t.Idle, session.Exited: t.Gone,
	} {
		s.state[st] = style{}.ForegroundColor(rgb(c))
		if st == session.Waiting || st == session.Failed {
			s.state[st] = s.state[st].Bold()
		}
	}
	return s
}

// Column widths of the list.
const (
	projectW = 18
	agentW   = 8 // "opencode", "continue"; wider when a version is known
	// minProjectW is as far as a narrow terminal cuts the project.
	minProjectW = 6
	stateW      = 20
	ageW        = 5
)

// keyHelp is what ? shows.
const keyHelp = `Keys
  ↑/↓ or k/j   select a session (g/G: the first, the last)
  enter        jump to its terminal tab or tmux pane
  1-9          answer a waiting session: type that choice
  m            mute it: no sound or notification
  z            snooze it for an hour
  ?            this help (any key closes it)
  q, esc       quit

The selected row shows its agent and where it runs in full, a waiting
row all its choices.`

// View is the board on the alternate screen (the live board).
func (m *Model) View() tea.View {
	v := tea.NewView(m.text())
	v.AltScreen = true
	return v
}

// text renders the board.
func (m *Model) text() string {
	var b strings.Builder
	b.WriteString(m.st.title.Styled(m.opt.Title))
	b.WriteString("  ")
	b.WriteString(m.st.dim.Styled(summary(m.rows)))
	b.WriteString("\n\n")
	if len(m.rows) == 0 {
		b.WriteString(m.st.dim.Styled("  No sessions. Start Claude Code (`mew install` adds the hooks for full detail)."))
		b.WriteString("\n")
	}
	if m.help && !m.opt.Static {
		b.WriteString(keyHelp)
		b.WriteString("\n")
		return b.String()
	}
	m.agentCol = m.agentWidth()
	for i, r := range m.rows {
		b.WriteString(m.line(i, r))
		b.WriteString("\n")
		if i == m.cursor && !m.opt.Static {
			// The selected row in full: its agent and place, and a
			// waiting row's every choice (wrapped, never cut).
			for _, l := range wrap(m.placeOf(r), max(m.width-4, 16)) {
				b.WriteString("    " + m.st.dim.Styled(l) + "\n")
			}
			for _, l := range wrap(text.OneLine(board.ChoicesLine(r), 0), max(m.width-4, 16)) {
				b.WriteString("    " + m.st.state[session.Waiting].Styled(l) + "\n")
			}
		}
	}
	b.WriteString("\n")
	if q := m.quotaLines(); q != "" {
		b.WriteString(q)
		b.WriteString("\n")
	}
	if m.note != "" {
		b.WriteString(m.st.note.Styled(text.OneLine(m.note, 0)))
		b.WriteString("\n")
	}
	if m.status != "" {
		// A jump's report quotes apps and panes: inert, and wrapped so
		// that its reason can be read whole.
		for _, l := range wrap(text.OneLine(m.status, 0), m.width) {
			b.WriteString(l + "\n")
		}
	}
	if m.errors > 0 {
		b.WriteString(m.st.dim.Styled(fmt.Sprintf("%d session file(s) could not be read; `mew status` lists them", m.errors)))
		b.WriteString("\n")
	}
	if m.opt.Static {
		return strings.TrimRight(b.String(), "\n")
	}
	b.WriteString(m.st.dim.Styled("↑/↓ select · enter jump · 1-9 answer · m mute · z snooze · ? keys · q quit"))
	return b.String()
}

func (m *Model) line(i int, r board.Row) string {
	marker := "  "
	if i == m.cursor && !m.opt.Static {
		marker = "› "
	}
	state := string(r.State)
	if r.Reason != "" {
		state += " · " + string(r.Reason)
	}
	if r.Session.Headless {
		state += " · headless" // nobody attends it: why it does not ring
	}
	state = text.OneLine(state, 0) // a session file anyone can write names them
	// The agent with its version is never cut: its column is as wide as
	// the widest row's, and on a narrow terminal the project gives way
	// (after the detail, which is cut first).
	aw := max(m.agentCol, agentW)
	pw := projectW
	if m.width > 0 {
		pw = min(projectW, max(m.width-(2+1+aw+1+stateW+1+ageW+2), minProjectW))
	}
	project := pad(text.OneLine(r.Project, pw), pw)
	agent := pad(board.Agent(r.Session), aw)
	age := board.FormatAge(r.Age)
	fixed := 2 + pw + 1 + aw + 1 + stateW + 1 + ageW + 2
	d := detailOf(r)
	if d == r.Session.Title && r.Session.Tmux == "" && r.Session.Terminal != "" && board.TabTitle(r.Session) != "" {
		d = "" // the place quotes the tab's title already
	}
	if w := m.where(r); w != "-" && d != "" {
		d = w + " · " + d
	} else if w != "-" {
		d = w
	}
	if n := board.UsageNote(r.Session); n != "" {
		d = n + " · " + d
	}
	st := m.st.state[r.State]
	if r.Offline != "" {
		d = r.Offline + " · " + d
		st = m.st.dim // a stale state: greyed
	}
	detail := oneLine(d, max(m.width-fixed, 0))
	var projStyle style
	if i == m.cursor && !m.opt.Static {
		projStyle = m.st.sel
	}
	return marker + projStyle.Styled(project) + " " + agent + " " + st.Styled(pad(state, stateW)) + " " +
		m.st.dim.Styled(fmt.Sprintf("%*s", ageW, age)) + "  " + m.st.dim.Styled(detail)
}

// agentWidth is the agent column's width: the widest agent (name and
// version) of the rows, at least agentW.
func (m *Model) agentWidth() int {
	w := agentW
	for _, r := range m.rows {
		w = max(w, len([]rune(board.Agent(r.Session))))
	}
	return w
}

// where is the row's place: the host first for another machine's.
func (m *Model) where(r board.Row) string {
	w := board.Where(r.Session, m.boardConfig().TmuxSocket)
	if r.Session.Host != "" {
		w = text.OneLine(r.Session.Host, 40) + ": " + w
	}
	return w
}

// placeOf is the selected row's line: the agent with its version, where
// it runs, and its id (what `mew jump` and `mew answer` take).
func (m *Model) placeOf(r board.Row) string {
	return board.Agent(r.Session) + " · " + m.where(r) + " · id " + text.OneLine(r.Session.ID, 0)
}

func (m *Model) boardConfig() board.Config {
	if m.opt.Board != nil {
		return *m.opt.Board
	}
	return board.Config{}
}

// wrap breaks s into lines of at most width runes, at spaces where it
// can; width ≤ 0 leaves it one line.
func wrap(s string, width int) []string {
	if s == "" {
		return nil
	}
	if width <= 0 {
		return []string{s}
	}
	var out []string
	for {
		r := []rune(s)
		if len(r) <= width {
			return append(out, s)
		}
		cut := width
		for i := width; i > width/2; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, strings.TrimRight(string(r[:cut]), " "))
		s = strings.TrimLeft(string(r[cut:]), " ")
	}
}

func detailOf(r board.Row) string {
	s := r.Session
	switch {
	case r.State == session.Waiting && s.ToolDetail != "" && s.Tool != "" && r.Reason == session.ReasonPermission:
		return s.Tool + ": " + s.ToolDetail
	case r.State == session.Waiting && s.ToolDetail != "":
		return s.ToolDetail
	case (r.State == session.Done || r.State == session.Failed) && s.LastMessage != "":
		return s.LastMessage
	}
	return s.Title
}

func summary(rows []board.Row) string {
	counts := map[session.State]int{}
	headless := 0
	for _, r := range rows {
		if r.Session.Headless {
			headless++ // counted apart: a headless session never needs you
			continue
		}
		counts[r.State]++
	}
	var parts []string
	for _, st := range []session.State{session.Waiting, session.Done, session.Failed, session.Working, session.Idle, session.Exited} {
		if n := counts[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	if headless > 0 {
		parts = append(parts, fmt.Sprintf("%d headless", headless))
	}
	if len(parts) == 0 {
		return "no sessions"
	}
	return strings.Join(parts, " · ")
}

func pad(s string, n int) string {
	if w := len([]rune(s)); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}

// Render returns the board for sessions at one moment, as plain text:
// `mew watch --once` and `mew demo --once`.
func Render(sessions []session.Shown, cfg board.Config, now time.Time, width int) string {
	m := New(Options{Now: func() time.Time { return now }, Plain: true, Board: &cfg, Static: true})
	m.width = width
	m.Update(Update{Sessions: sessions})
	return m.text()
}

// oneLine cuts untrusted text to n runes on one line; n ≤ 0 leaves nothing.
func oneLine(s string, n int) string {
	if n <= 0 {
		return ""
	}
	return text.OneLine(s, n)
}

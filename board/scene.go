package board

import (
	"fmt"
	"strings"
	"time"

	"github.com/mew-dev/mew/assets"
	"github.com/mew-dev/mew/session"

	"github.com/mew-dev/mew/internal/text"
)

// TickRate is how often the simulation steps.
const (
	TickRate     = 8 // per second
	TickInterval = time.Second / TickRate
)

// Layout, in logical pixels.
const (
	Width = 288

	headerH  = 14
	rowsTop  = headerH + 2
	rowH     = 28
	rowPitch = rowH + 2

	roomX = 4
	roomW = 76
	wallH = 18

	textX     = roomX + roomW + 4
	textChars = (Width - textX - 6) / assets.GlyphAdv
	textRight = textX + textChars*assets.GlyphAdv

	// Where cats stand, relative to the room: walking cats pace at the
	// back, the waiting cat comes to the front, next to its text.
	walkFeet   = 22
	walkMinX   = 2
	walkMaxX   = roomW - assets.CatW - 2
	sitX       = 44
	sitFeet    = 24
	frontX     = 58
	frontFeet  = 27
	flopX      = 26
	flopFeet   = 25
	cushionX   = 44
	cushionY   = 23
	windowX    = 12
	windowY    = 3
	deskX      = 27
	deskY      = 14
	plantX     = 1
	plantY     = 13
	bubbleDX   = 4 // bubble position relative to the front cat
	bubbleTopY = 5

	// A waiting row with choices gets a strip of buttons under it.
	stripH     = 12
	buttonGap  = 3
	maxButtons = 9
)

// catPlan is everything that decides how a row looks. Two equal plans draw
// equal pixels, which is how a tick knows its frame is unchanged without
// drawing it.
type rowPlan struct {
	id           string
	y            int
	state        session.State
	coat         int // -1: the ghost coat
	pose         string
	catX, catTop int
	flip         bool
	bubble       string // mark sprite name, "" for none
	bubbleY      int
	extra        string // "alarm" or "zz"
	night        bool
	offline      bool // the host cannot be reached: greyed and still
	line1, age   string
	line2, line3 string
	h            int // the row's height: rowH, and the strip when it has buttons
	buttons      [maxButtons]button
	nbuttons     int
}

// button is one choice under a waiting row (or, where Mew cannot type,
// the one button that says so and jumps).
type button struct {
	x, w   int
	label  string
	choice int // the choice's number; 0: the row's own click (the jump)
}

type plan struct {
	h       int
	summary string
	empty   bool
	rows    []rowPlan
}

func (p *plan) equal(q *plan) bool {
	if p.h != q.h || p.summary != q.summary || p.empty != q.empty || len(p.rows) != len(q.rows) {
		return false
	}
	for i := range p.rows {
		if p.rows[i] != q.rows[i] {
			return false
		}
	}
	return true
}

// Scene runs the cat simulation: one Tick every TickInterval.
type Scene struct {
	tick  uint64
	last  plan
	frame Frame
	drawn bool
}

// NewScene starts a simulation at tick 0.
func NewScene() *Scene { return &Scene{} }

// Tick advances the simulation one step and returns the frame for rows at
// now. When nothing visible changed, the frame is the previous one with
// Unchanged set, and nothing is drawn.
func (s *Scene) Tick(rows []Row, now time.Time) Frame {
	s.tick++
	p := makePlan(rows, now, s.tick)
	if s.drawn && p.equal(&s.last) {
		f := s.frame
		f.Tick, f.Unchanged = s.tick, true
		return f
	}
	s.last, s.drawn = p, true
	s.frame = render(&p)
	s.frame.Tick = s.tick
	return s.frame
}

// Draw returns the frame for rows at now and simulation step tick, with
// no memory of earlier frames: what snapshots use.
func Draw(rows []Row, now time.Time, tick uint64) Frame {
	p := makePlan(rows, now, tick)
	f := render(&p)
	f.Tick = tick
	return f
}

// Height returns the frame height for n rows without choices.
func Height(n int) int {
	if n == 0 {
		n = 1 // the "all quiet" row
	}
	return rowsTop + n*rowPitch
}

// FrameHeight returns the frame height for rows: a waiting row with
// choices is taller by its strip of buttons.
func FrameHeight(rows []Row) int {
	h := Height(len(rows))
	for _, r := range rows {
		if Answerable(r) {
			h += stripH
		}
	}
	return h
}

func makePlan(rows []Row, now time.Time, tick uint64) plan {
	p := plan{h: FrameHeight(rows), summary: summary(rows), empty: len(rows) == 0}
	p.rows = make([]rowPlan, len(rows))
	y := rowsTop
	for i, r := range rows {
		p.rows[i] = planRow(r, y, tick)
		y += p.rows[i].h + 2
	}
	return p
}

// planButtons lays out a waiting row's choices across the panel: as many
// equal buttons as choices, each label cut to its button.
func planButtons(rp *rowPlan, r Row) {
	if !Answerable(r) {
		return
	}
	rp.h += stripH
	const left, right = 4, Width - 4
	if !typable(r) {
		rp.buttons[0] = button{x: left, w: right - left, label: ElsewhereWhy + " >"}
		rp.nbuttons = 1
		return
	}
	n := min(len(r.Session.Choices), maxButtons)
	w := (right - left - (n-1)*buttonGap) / n
	for i, c := range r.Session.Choices[:n] {
		chars := max((w-4)/assets.GlyphAdv, 1)
		rp.buttons[i] = button{x: left + i*(w+buttonGap), w: w, label: text.Clip(fmt.Sprintf("%d %s", c.N, c.Label), chars), choice: c.N}
	}
	rp.nbuttons = n
}

func planRow(r Row, y int, tick uint64) rowPlan {
	c := r.Cat
	if r.Offline != "" {
		tick = 0 // a stale state does not move
	}
	// Animation runs on beats of four ticks (2 Hz) and walking steps on
	// even ticks: the 8 Hz tick keeps state changes prompt, while odd
	// ticks never change a steady board and most even ones don't either,
	// so the view skips most redraws. Each cat's phase picks its own beat.
	beat := tick / 4
	catBeat := beat + uint64(c.Phase)
	rp := rowPlan{id: r.Session.ID, y: y, state: r.State, coat: c.Coat, h: rowH}
	switch r.State {
	case session.Waiting:
		rp.pose, rp.catX, rp.catTop = "front", frontX, frontFeet-assets.CatH+1
		if catBeat%10 == 0 {
			rp.pose = "front-blink" // a slow blink every 5 s
		}
		rp.bubble = "mark-" + string(r.Reason)
		if _, ok := loadArt().sprites[rp.bubble]; !ok {
			rp.bubble = "mark-input"
		}
		// Every waiting bubble bobs on the same beat: one pulse across the
		// board reads as one signal.
		rp.bubbleY = bubbleTopY - int(beat%2)
	case session.Done:
		rp.pose, rp.catX, rp.catTop = "sit", sitX, sitFeet-assets.CatH+1
		if catBeat%12 == 0 {
			rp.pose = "sit-tail" // a flick of the tail every 6 s
		}
	case session.Failed:
		rp.pose, rp.catX, rp.catTop = "flop", flopX, flopFeet-assets.CatH+1
		rp.extra = "alarm"
	case session.Working:
		rp.pose, rp.catTop = "walk1", walkFeet-assets.CatH+1
		rp.catX, rp.flip = walkAt(c, tick)
		if (tick/uint64(c.StepTicks))%2 == 1 {
			rp.pose = "walk2"
		}
	case session.Idle:
		rp.pose, rp.catX, rp.catTop = "loaf", cushionX, sitFeet-assets.CatH+2
		rp.extra = "zz"
	default: // exited
		rp.pose, rp.catX, rp.catTop = "loaf", cushionX, sitFeet-assets.CatH+2
		rp.coat, rp.night = -1, true
	}
	rp.line1 = r.Project
	rp.age = FormatAge(r.Age)
	rp.line2 = string(r.State)
	if r.Reason != "" {
		rp.line2 += " · " + string(r.Reason)
	}
	rp.line3 = detail(r)
	if n := UsageNote(r.Session); n != "" {
		rp.line3 = n + " · " + rp.line3
	}
	if r.Offline != "" {
		rp.offline = true
		rp.line2 = r.Offline // the cat's pose still tells the state
	}
	// Clip here, not when drawing, so the plan holds exactly what is shown.
	// The agent after the project, never cut away by a long project name:
	// two agents in one project are two rows that read apart.
	room := textChars - len(rp.age) - 1
	if a := text.OneLine(Agent(r.Session), 24); r.Session.Agent != "" {
		rp.line1 = text.OneLine(rp.line1, max(room-len(a)-3, 6)) + " · " + a
	}
	rp.line1 = text.OneLine(rp.line1, room)
	rp.line2 = text.Clip(rp.line2, textChars)
	rp.line3 = text.OneLine(rp.line3, textChars)
	planButtons(&rp, r)
	return rp
}

// walkAt is where a working cat is at tick: pacing the room at its own
// speed, from its own starting point.
func walkAt(c Cat, tick uint64) (x int, facingLeft bool) {
	span := uint64(walkMaxX - walkMinX)
	pos := (tick/uint64(c.StepTicks) + uint64(c.Phase)) % (2 * span)
	if pos < span {
		return walkMinX + int(pos), false
	}
	return walkMinX + int(2*span-pos), true
}

// detail is the third line: what the person needs to recognise the moment.
func detail(r Row) string {
	s := r.Session
	switch r.State {
	case session.Waiting:
		switch {
		case (r.Reason == session.ReasonQuestion || r.Reason == session.ReasonPlan) && s.ToolDetail != "":
			return s.ToolDetail // the question or plan itself; the tool's name adds nothing
		case s.Tool != "" && s.ToolDetail != "":
			return s.Tool + ": " + s.ToolDetail
		case s.Tool != "":
			return s.Tool
		}
	case session.Done, session.Failed:
		if s.LastMessage != "" {
			return s.LastMessage
		}
	}
	return s.Title
}

func summary(rows []Row) string {
	var wait, done, work, quiet int
	for _, r := range rows {
		switch r.Group {
		case GroupWaiting:
			wait++
		case GroupDone:
			done++
		case GroupWorking:
			work++
		default:
			quiet++
		}
	}
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(wait, "waiting")
	add(done, "done")
	add(work, "working")
	add(quiet, "quiet")
	if len(parts) == 0 {
		return "all quiet"
	}
	return strings.Join(parts, " · ")
}

// FormatAge is how long ago, the way the boards show it.
func FormatAge(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// stateColor is the colour a state is written in.
func stateColor(s session.State) RGB {
	t := assets.Theme
	switch s {
	case session.Waiting:
		return t.Waiting
	case session.Done:
		return t.Done
	case session.Failed:
		return t.Failed
	case session.Working:
		return t.Working
	case session.Idle:
		return t.Idle
	}
	return t.Gone
}

// render draws a plan.
func render(p *plan) Frame {
	t := assets.Theme
	f := Frame{W: Width, H: p.h, Background: t.Background}
	f.Rects = make([]Rect, 0, 16+len(p.rows)*160)
	f.Rects = append(f.Rects, Rect{0, 0, Width, headerH, t.Header})
	f.Texts = append(f.Texts,
		Text{X: 4, Y: 3, S: "mew", Color: t.HeaderText, Size: assets.GlyphH},
		Text{X: Width - 4 - len([]rune(p.summary))*assets.GlyphAdv, Y: 3, S: p.summary, Color: t.Dim, Size: assets.GlyphH},
	)
	if p.empty {
		quiet := planRow(Row{State: session.Idle, Cat: CatFor("mew"), Project: "nothing needs you"}, rowsTop, 0)
		quiet.age, quiet.line2, quiet.line3 = "", "", "the cats are napping"
		drawRow(&f, &quiet, false)
		return f
	}
	for i := range p.rows {
		drawRow(&f, &p.rows[i], true)
	}
	return f
}

func drawRow(f *Frame, r *rowPlan, clickable bool) {
	if r.offline {
		rects, texts := len(f.Rects), len(f.Texts)
		defer func() {
			for i := rects; i < len(f.Rects); i++ {
				f.Rects[i].Color = greyed(f.Rects[i].Color)
			}
			for i := texts; i < len(f.Texts); i++ {
				f.Texts[i].Color = greyed(f.Texts[i].Color)
			}
		}()
	}
	t := assets.Theme
	a := loadArt()
	y := r.y
	wall := t.Wall
	switch {
	case r.night:
		wall = t.WallExited
	case r.state == session.Failed:
		wall = t.WallFailed // the room itself says something went wrong
	}
	accent := stateColor(r.state)
	f.Rects = append(f.Rects,
		Rect{0, y, 2, rowH, accent},
		Rect{roomX, y, roomW, wallH, wall},
		Rect{roomX, y + wallH - 1, roomW, 1, t.Floor},
		Rect{roomX, y + wallH, roomW, rowH - wallH, t.Floor},
		Rect{roomX, y + rowH - 4, roomW, 4, t.FloorFront},
	)
	window := "window"
	if r.night {
		window = "window-night"
	}
	coat := assets.Ghost
	if r.coat >= 0 {
		coat = assets.Coats[r.coat]
	}
	rx := roomX
	f.sprite(a, window, rx+windowX, y+windowY, false, coat)
	f.sprite(a, "desk", rx+deskX, y+deskY, false, coat)
	f.sprite(a, "plant", rx+plantX, y+plantY, false, coat)
	f.sprite(a, "cushion", rx+cushionX, y+cushionY, false, coat)
	f.sprite(a, r.pose, rx+r.catX, y+r.catTop, r.flip, coat)
	switch {
	case r.bubble != "":
		bx, by := rx+frontX+bubbleDX, y+r.bubbleY
		f.sprite(a, "bubble", bx, by, false, coat)
		f.sprite(a, r.bubble, bx+2, by+2, false, coat)
	case r.extra == "alarm":
		f.sprite(a, "alarm", rx+flopX+assets.CatW+1, y+r.catTop+5, false, coat)
	case r.extra == "zz":
		f.sprite(a, "zz", rx+cushionX+assets.CatW-1, y+r.catTop+1, false, coat)
	}
	size := assets.GlyphH
	f.Texts = append(f.Texts, Text{X: textX, Y: y, S: r.line1, Color: t.Text, Size: size})
	if r.age != "" {
		f.Texts = append(f.Texts, Text{X: textRight - len(r.age)*assets.GlyphAdv, Y: y, S: r.age, Color: t.Dim, Size: size})
	}
	if r.line2 != "" {
		f.Texts = append(f.Texts, Text{X: textX, Y: y + 10, S: r.line2, Color: accent, Size: size})
	}
	if r.line3 != "" {
		f.Texts = append(f.Texts, Text{X: textX, Y: y + 19, S: r.line3, Color: t.Dim, Size: size})
	}
	if clickable {
		f.Hits = append(f.Hits, Hit{X: 0, Y: y, W: Width, H: rowH, ID: r.id})
	}
	by := y + rowH + 1
	for _, b := range r.buttons[:r.nbuttons] {
		ink := t.Text
		if b.choice == 0 {
			ink = t.Dim
		}
		f.Rects = append(f.Rects, Rect{b.x, by, b.w, stripH - 1, t.Header})
		f.Texts = append(f.Texts, Text{X: b.x + 2, Y: by + 1, S: b.label, Color: ink, Size: size})
		if clickable {
			// Buttons come after the row: HitTest takes the first match,
			// and the strip lies outside the row's own region anyway.
			f.Hits = append(f.Hits, Hit{X: b.x, Y: by, W: b.w, H: stripH - 1, ID: r.id, Choice: b.choice})
		}
	}
}

// sprite appends a sprite's runs at (x, y), mirrored when flip.
func (f *Frame) sprite(a art, name string, x, y int, flip bool, coat assets.Coat) {
	s := a.sprites[name]
	for _, r := range s.runs {
		rx := x + r.x
		if flip {
			rx = x + s.w - r.x - r.w
		}
		c := r.ink
		if r.role != 0 {
			c, _ = coat.Paint(r.role)
		}
		f.Rects = append(f.Rects, Rect{rx, y + r.y, r.w, 1, c})
	}
}

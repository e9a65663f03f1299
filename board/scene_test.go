package board

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/assets"
	"github.com/mew-dev/mew/session"
)

func TestArtParses(t *testing.T) {
	a, err := parseArt()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"walk1", "walk2", "sit", "sit-tail", "front", "front-blink", "flop", "loaf"} {
		s := a.sprites[name]
		if s.w != assets.CatW || s.h != assets.CatH {
			t.Errorf("cat sprite %s is %d×%d, want %d×%d", name, s.w, s.h, assets.CatW, assets.CatH)
		}
	}
	for r := rune(32); r < 127; r++ {
		if _, ok := a.glyphs[r]; !ok {
			t.Errorf("the font has no %q", r)
		}
	}
	for _, r := range "·…" {
		if _, ok := a.glyphs[r]; !ok {
			t.Errorf("the font has no %q (the board writes it)", r)
		}
	}
	if _, err := parseSprite([]string{"KK", "K"}); err == nil {
		t.Error("a ragged sprite parsed")
	}
	if _, err := parseSprite([]string{"K?"}); err == nil {
		t.Error("a sprite with an unknown colour parsed")
	}
	if _, err := parseFont("== A\nXXXXX\n"); err == nil {
		t.Error("a one-row glyph parsed")
	}
}

// mixedSessions is a steady board of n sessions in every listed state.
func mixedSessions(n int, now time.Time) []session.Shown {
	states := []session.State{session.Waiting, session.Done, session.Working, session.Failed, session.Working}
	reasons := []session.Reason{session.ReasonPermission, session.ReasonQuestion, session.ReasonPlan, session.ReasonInput}
	ids := testIDs(n)
	out := make([]session.Shown, n)
	for i := range out {
		out[i] = session.Shown{
			ID: ids[i], State: states[i%len(states)], Since: now.Add(-time.Duration(i+1) * 7 * time.Minute),
			Cwd: "/Users/dev/src/project-" + string(rune('a'+i%26)), Title: "a task", Tool: "Bash", ToolDetail: "make test",
		}
		if out[i].State == session.Waiting {
			out[i].Reason = reasons[i%len(reasons)]
		}
	}
	return out
}

// A tick says "unchanged" exactly when its frame equals the last one, and
// the frame it returns is always the one Draw makes from scratch.
func TestTickReportsUnchangedExactly(t *testing.T) {
	sessions := mixedSessions(9, t0)
	s := NewScene()
	var prev Frame
	changed, unchanged := 0, 0
	for i := 0; i < 400; i++ {
		now := t0.Add(time.Duration(i) * TickInterval)
		if i == 200 { // a state change mid-run
			sessions[2].State, sessions[2].Since = session.Done, now.Add(-time.Hour)
		}
		rows := Arrange(sessions, now, DefaultConfig())
		f := s.Tick(rows, now)
		want := Draw(rows, now, f.Tick)
		if !sameContent(f, want) {
			t.Fatalf("tick %d: the frame differs from a fresh Draw", f.Tick)
		}
		if i > 0 {
			if same := sameContent(f, prev); same != f.Unchanged {
				t.Fatalf("tick %d: Unchanged=%v but frames equal=%v", f.Tick, f.Unchanged, same)
			}
		} else if f.Unchanged {
			t.Fatal("the first frame claims to be unchanged")
		}
		if f.Unchanged {
			unchanged++
		} else {
			changed++
		}
		prev = f
	}
	if unchanged == 0 || changed < 2 {
		t.Errorf("changed %d, unchanged %d: the check saw only one kind of tick", changed, unchanged)
	}
}

func sameContent(a, b Frame) bool {
	a.Tick, a.Unchanged, b.Tick, b.Unchanged = 0, false, 0, false
	return reflect.DeepEqual(a, b)
}

func TestHitTest(t *testing.T) {
	sessions := mixedSessions(5, t0)
	rows := Arrange(sessions, t0, DefaultConfig())
	f := Draw(rows, t0, 1)
	if f.H != Height(len(rows)) {
		t.Errorf("frame height %d, want %d", f.H, Height(len(rows)))
	}
	for i, r := range rows {
		y := rowsTop + i*rowPitch
		for _, p := range [][2]int{{1, y}, {roomX + 20, y + 14}, {Width - 1, y + rowH - 1}, {textX + 3, y + 12}} {
			if id, ok := f.HitTest(p[0], p[1]); !ok || id != r.Session.ID {
				t.Errorf("point %v: hit %q %v, want row %d (%s)", p, id, ok, i, r.Session.ID)
			}
		}
		if id, ok := f.HitTest(10, y+rowH); ok { // the gap between rows
			t.Errorf("the gap under row %d hit %s", i, id)
		}
	}
	for _, p := range [][2]int{{5, 5}, {-1, rowsTop}, {Width, rowsTop + 3}, {5, f.H}} {
		if id, ok := f.HitTest(p[0], p[1]); ok {
			t.Errorf("point %v outside the rows hit %s", p, id)
		}
	}
}

func TestPoses(t *testing.T) {
	poseOf := map[session.State]rowPlan{}
	for _, st := range []session.State{session.Waiting, session.Done, session.Working, session.Failed, session.Idle, session.Exited} {
		r := Row{Session: session.Shown{ID: "x"}, State: st, Cat: CatFor("x")}
		if st == session.Waiting {
			r.Reason = session.ReasonQuestion
		}
		poseOf[st] = planRow(r, rowsTop, 3)
	}
	if p := poseOf[session.Waiting]; p.bubble != "mark-question" || p.catX != frontX || !strings.HasPrefix(p.pose, "front") {
		t.Errorf("waiting: %+v, want at the front with a question bubble", p)
	}
	if p := poseOf[session.Done]; !strings.HasPrefix(p.pose, "sit") {
		t.Errorf("done: pose %s, want sitting", p.pose)
	}
	if p := poseOf[session.Working]; !strings.HasPrefix(p.pose, "walk") {
		t.Errorf("working: pose %s, want walking", p.pose)
	}
	if p := poseOf[session.Failed]; p.pose != "flop" || p.extra != "alarm" {
		t.Errorf("failed: %+v", p)
	}
	if p := poseOf[session.Exited]; !p.night || p.coat != -1 {
		t.Errorf("exited: %+v, want a dark room and a ghost coat", p)
	}
	// Failed and exited look like nothing else.
	for st, p := range poseOf {
		if st != session.Failed && p.pose == "flop" {
			t.Errorf("%s shares the failed pose", st)
		}
		if st != session.Exited && (p.night || p.coat == -1) {
			t.Errorf("%s looks exited", st)
		}
	}
}

func TestWalkingSpeedAndBounds(t *testing.T) {
	fast, slow := Cat{StepTicks: 2}, Cat{StepTicks: 4}
	dist := func(c Cat) int {
		d := 0
		x, _ := walkAt(c, 0)
		for tick := uint64(1); tick <= 40; tick++ {
			nx, _ := walkAt(c, tick)
			if nx < walkMinX || nx > walkMaxX {
				t.Fatalf("cat walked out of the room: x=%d", nx)
			}
			if nx != x {
				d++
			}
			x = nx
		}
		return d
	}
	if f, s := dist(fast), dist(slow); f != 2*s || s == 0 {
		t.Errorf("in 40 ticks the fast cat moved %d px, the slow one %d; want twice as far", f, s)
	}
	// Turning round at the walls.
	sawLeft, sawRight := false, false
	for tick := uint64(0); tick < 400; tick++ {
		_, left := walkAt(fast, tick)
		sawLeft, sawRight = sawLeft || left, sawRight || !left
	}
	if !sawLeft || !sawRight {
		t.Error("the cat never turned round")
	}
}

func TestTextIsCleanedAndClipped(t *testing.T) {
	s := session.Shown{
		ID: "x", State: session.Waiting, Reason: session.ReasonPermission, Since: t0.Add(-time.Minute),
		Cwd:  "/p/a-very-long-project-name-that-goes-on-and-on",
		Tool: "Bash", ToolDetail: "echo \x1b[31mred\x1b[0m\nrm -rf /tmp/x\r\tand a great deal more text after it",
	}
	f := Draw(Arrange([]session.Shown{s}, t0, DefaultConfig()), t0, 0)
	for _, tx := range f.Texts {
		if strings.ContainsFunc(tx.S, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Errorf("text run %q has control characters", tx.S)
		}
		if end := tx.X + len([]rune(tx.S))*assets.GlyphAdv; end > Width {
			t.Errorf("text run %q ends at %d, past the frame's %d", tx.S, end, Width)
		}
	}
	var project string
	for _, tx := range f.Texts {
		if tx.Y == rowsTop && tx.X == textX {
			project = tx.S
		}
	}
	if !strings.HasSuffix(project, "…") || !strings.HasPrefix(project, "a-very-long") {
		t.Errorf("project text %q, want the name clipped with an ellipsis", project)
	}
}

func TestEmptyBoard(t *testing.T) {
	f := Draw(nil, t0, 0)
	if len(f.Hits) != 0 {
		t.Errorf("an empty board has click targets: %v", f.Hits)
	}
	var all []string
	for _, tx := range f.Texts {
		all = append(all, tx.S)
	}
	if !strings.Contains(strings.Join(all, "|"), "nothing needs you") {
		t.Errorf("empty board says %q", all)
	}
}

// Nearest-neighbour scaling: every logical pixel becomes a solid block.
func TestImageScalesNearestNeighbour(t *testing.T) {
	rows := Arrange(mixedSessions(4, t0), t0, DefaultConfig())
	f := Draw(rows, t0, 2)
	one, err := Image(f, 1)
	if err != nil {
		t.Fatal(err)
	}
	const k = 3
	three, err := Image(f, k)
	if err != nil {
		t.Fatal(err)
	}
	if three.Bounds().Dx() != f.W*k || three.Bounds().Dy() != f.H*k {
		t.Fatalf("scaled image is %v", three.Bounds())
	}
	for y := 0; y < f.H; y++ {
		for x := 0; x < f.W; x++ {
			want := one.At(x, y)
			for dy := 0; dy < k; dy++ {
				for dx := 0; dx < k; dx++ {
					if got := three.At(x*k+dx, y*k+dy); got != want {
						t.Fatalf("pixel (%d,%d)+(%d,%d) = %v, want %v", x, y, dx, dy, got, want)
					}
				}
			}
		}
	}
	if _, err := Image(f, 0); err == nil {
		t.Error("scale 0 accepted")
	}
	if _, err := Image(f, MaxScale+1); err == nil {
		t.Error("a scale over the maximum accepted")
	}
}

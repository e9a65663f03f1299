package app

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

func TestFramePNGIsOnePixelPerBoardPixel(t *testing.T) {
	rows := rowsAt(t0, shown("w1", session.Waiting, t0.Add(-time.Minute), "/p/alpha"))
	f := board.Draw(rows, t0, 1)
	data, err := framePNG(f)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != f.W || b.Dy() != f.H {
		t.Fatalf("image %v for a %dx%d frame", b, f.W, f.H)
	}
	// Every filled rectangle shows in its colour (the last one drawn over a
	// pixel wins; check each rectangle's pixel that no later one covers).
	for i, r := range f.Rects {
		if r.W <= 0 || r.H <= 0 {
			continue
		}
		x, y := r.X+r.W-1, r.Y+r.H-1
		covered := false
		for _, later := range f.Rects[i+1:] {
			if x >= later.X && x < later.X+later.W && y >= later.Y && y < later.Y+later.H {
				covered = true
				break
			}
		}
		if covered || x >= f.W || y >= f.H || x < 0 || y < 0 || len(f.Texts) > 0 && textCovers(f, x, y) {
			continue
		}
		cr, cg, cb, _ := img.At(x, y).RGBA()
		if uint8(cr>>8) != r.Color.R || uint8(cg>>8) != r.Color.G || uint8(cb>>8) != r.Color.B {
			t.Fatalf("rect %d %+v: pixel (%d,%d) is %02x%02x%02x", i, r, x, y, cr>>8, cg>>8, cb>>8)
		}
	}
	if _, err := framePNG(board.Frame{}); err == nil {
		t.Fatal("an empty frame must be an error")
	}
}

// textCovers is a conservative test for a pixel under a text run's cells.
func textCovers(f board.Frame, x, y int) bool {
	for _, tx := range f.Texts {
		w := len([]rune(tx.S)) * tx.Size // wider than the glyphs: conservative
		if x >= tx.X && x < tx.X+w && y >= tx.Y && y < tx.Y+tx.Size {
			return true
		}
	}
	return false
}

// The panel's per-changed-frame cost beyond the board's own draw: encoding
// the frame for the view.
func BenchmarkFramePNG20(b *testing.B) {
	var in []session.Shown
	for i := 0; i < 20; i++ {
		st := session.Working
		if i%3 == 0 {
			st = session.Waiting
		}
		in = append(in, shown("s"+string(rune('a'+i)), st, t0.Add(-time.Minute), "/p/x"))
	}
	f := board.Draw(rowsAt(t0, in...), t0, 1)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := framePNG(f); err != nil {
			b.Fatal(err)
		}
	}
}

// The main thread's work per 8 Hz tick with 20 sessions: the board, the
// scene, the icon decision, and encoding the frames that changed (what
// the view then draws as one image).
func BenchmarkControllerTick20(b *testing.B) {
	var in []session.Shown
	for i := 0; i < 20; i++ {
		st := []session.State{session.Waiting, session.Done, session.Working, session.Working}[i%4]
		in = append(in, shown("s"+string(rune('a'+i)), st, t0.Add(-time.Minute), "/p/x"))
	}
	c := newController(board.DefaultConfig())
	c.SetSessions(in, 0, t0)
	c.Recheck(t0)
	redraws := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := c.Tick(t0.Add(time.Duration(i+1) * board.TickInterval))
		if e.Redraw {
			redraws++
			f, _ := c.Frame()
			if _, err := framePNG(f); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ticks/s")
	b.ReportMetric(100*float64(redraws)/float64(b.N), "%redrawn")
}

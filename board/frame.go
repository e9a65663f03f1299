package board

import "github.com/mew-dev/mew/assets"

// RGB is an opaque colour.
type RGB = assets.RGB

// Rect is a filled rectangle in logical pixels.
type Rect struct {
	X, Y, W, H int
	Color      RGB
}

// Text is a run of text in logical pixels: (X, Y) is the top-left of its
// first character cell. Size is the cell height in logical pixels (a
// multiple of assets.GlyphH when drawn with the board's bitmap font);
// characters advance Size*assets.GlyphAdv/assets.GlyphH pixels each.
type Text struct {
	X, Y  int
	S     string
	Color RGB
	Size  int
}

// Hit is a clickable region and the session it stands for: the row
// (Choice 0: a jump), or one of a waiting row's choice buttons.
type Hit struct {
	X, Y, W, H int
	ID         string
	Choice     int
}

// Frame is one picture of the board: the background, then the rectangles
// in order, then the text runs on top. There is no antialiasing: every
// edge is on a logical pixel. Frames share their slices with the scene
// (an unchanged tick returns the same ones): treat them as read-only.
type Frame struct {
	W, H       int
	Background RGB
	Rects      []Rect
	Texts      []Text
	Hits       []Hit
	// Tick is the simulation step the frame shows.
	Tick uint64
	// Unchanged says the frame is the same as the previous tick's, so the
	// view need not draw it again.
	Unchanged bool
}

// HitTest returns the session at logical point (x, y), if any.
func (f *Frame) HitTest(x, y int) (id string, ok bool) {
	h, ok := f.HitAt(x, y)
	return h.ID, ok
}

// HitAt returns the clickable region at logical point (x, y), if any.
func (f *Frame) HitAt(x, y int) (Hit, bool) {
	for _, h := range f.Hits {
		if x >= h.X && x < h.X+h.W && y >= h.Y && y < h.Y+h.H {
			return h, true
		}
	}
	return Hit{}, false
}

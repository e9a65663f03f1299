package app

import "math"

// rect is a rectangle in AppKit screen points: origin at the bottom left,
// y growing upwards.
type rect struct{ X, Y, W, H float64 }

// Panel placement, in points.
const (
	// panelMargin keeps the panel off the menu bar and the screen's edge.
	panelMargin = 8
	// panelPointsTarget is about how many points a board pixel takes: the
	// board's 5×7 font is then ~10 pt tall, readable next to menu text,
	// and its 288-pixel width ~430 pt.
	panelPointsTarget = 1.5
)

// pointsPerPixelFor is the size in points of one board pixel on a screen with
// the given backing scale (physical pixels per point). It is a whole
// number of physical pixels, so every board pixel is drawn as the same
// square block and the pixel art stays sharp: 1.5 pt on Retina (3×3
// pixels), 2 pt on a standard display (2×2), 5/3 pt at 3×.
func pointsPerPixelFor(backingScale float64) float64 {
	if !(backingScale >= 1) || math.IsInf(backingScale, 0) {
		backingScale = 1 // unknown or nonsense: a standard display
	}
	physical := math.Max(1, math.Round(panelPointsTarget*backingScale))
	return physical / backingScale
}

// panelRect is where the panel goes for a frame of frameW×frameH board
// pixels: the top right corner of the screen's visible frame (below the
// menu bar, clear of the Dock), panelMargin in. A frame larger than the
// visible area is cut to it, keeping its top (the sessions that need the
// person come first).
func panelRect(visible rect, frameW, frameH int, pointsPerPixel float64) rect {
	w := float64(frameW) * pointsPerPixel
	h := float64(frameH) * pointsPerPixel
	w = math.Max(1, math.Min(w, visible.W-2*panelMargin))
	h = math.Max(1, math.Min(h, visible.H-2*panelMargin))
	return rect{
		X: visible.X + visible.W - panelMargin - w,
		Y: visible.Y + visible.H - panelMargin - h,
		W: w, H: h,
	}
}

// bannerClearance is the strip at the top right of the visible frame that
// macOS's notification banners take (a banner is about 64 pt tall, inset
// about 16 pt from the menu bar and the edge): an estimate, not measured
// here (no Mac).
const bannerClearance = 88

// belowBanners is the visible frame the panel is placed in: when Mew posts
// its own banners, without the strip where they show, so a banner does not
// cover the panel's top rows (the sessions that need the person). A screen
// too short for that keeps its whole frame.
func belowBanners(visible rect, banners bool) rect {
	if !banners || visible.H < 3*bannerClearance {
		return visible
	}
	visible.H -= bannerClearance
	return visible
}

// toLogical turns a point in the panel view's own coordinates (points,
// origin at the top left: the view is flipped) into board pixels for
// Frame.HitTest.
func toLogical(x, y, pointsPerPixel float64) (int, int) {
	if !(pointsPerPixel > 0) {
		return -1, -1
	}
	return int(math.Floor(x / pointsPerPixel)), int(math.Floor(y / pointsPerPixel))
}

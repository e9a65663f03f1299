package app

import (
	"math"
	"testing"
)

func TestPointsPerPixelIsWholePhysicalPixels(t *testing.T) {
	for _, c := range []struct {
		backing, want float64
	}{
		{2, 1.5},     // Retina: 3×3 pixels
		{1, 2},       // standard display: 2×2
		{3, 5.0 / 3}, // 3×: 5×5
		{0, 2},       // unknown: as standard
		{math.NaN(), 2},
		{math.Inf(1), 2},
	} {
		got := pointsPerPixelFor(c.backing)
		if math.Abs(got-c.want) > 1e-9 {
			t.Errorf("PointsPerPixel(%v) = %v, want %v", c.backing, got, c.want)
		}
		b := c.backing
		if !(b >= 1) || math.IsInf(b, 0) {
			b = 1
		}
		if phys := got * b; math.Abs(phys-math.Round(phys)) > 1e-9 || phys < 1 {
			t.Errorf("backing %v: %v physical pixels per board pixel, want a whole number", c.backing, phys)
		}
	}
}

func TestPanelRectTopRight(t *testing.T) {
	// A 1512×982 Retina screen: menu bar 33 pt, Dock at the bottom 60 pt.
	visible := rect{X: 0, Y: 60, W: 1512, H: 982 - 33 - 60}
	r := panelRect(visible, 288, 46, 1.5)
	want := rect{X: 1512 - panelMargin - 432, Y: 60 + 889 - panelMargin - 69, W: 432, H: 69}
	if r != want {
		t.Fatalf("PanelRect = %+v, want %+v", r, want)
	}
	// Its top edge is panelMargin below the menu bar, its right edge
	// panelMargin in from the screen's.
	if top := r.Y + r.H; top != visible.Y+visible.H-panelMargin {
		t.Errorf("top at %v", top)
	}
	if right := r.X + r.W; right != visible.X+visible.W-panelMargin {
		t.Errorf("right at %v", right)
	}
}

func TestPanelRectSecondScreenAndClamp(t *testing.T) {
	// A screen left of the main one has negative x.
	visible := rect{X: -1920, Y: 0, W: 1920, H: 1050}
	r := panelRect(visible, 288, 2000, 2)
	if r.H != 1050-2*panelMargin || r.Y != panelMargin {
		t.Errorf("a frame taller than the screen must be cut to it: %+v", r)
	}
	if r.X != -panelMargin-576 || r.W != 576 {
		t.Errorf("x/w on the left screen: %+v", r)
	}
	tiny := panelRect(rect{W: 100, H: 100}, 288, 46, 2)
	if tiny.W != 100-2*panelMargin || tiny.X != panelMargin {
		t.Errorf("a narrow screen cuts the width: %+v", tiny)
	}
}

func TestToLogicalFlipped(t *testing.T) {
	for _, c := range []struct {
		x, y, ppp float64
		wx, wy    int
	}{
		{0, 0, 1.5, 0, 0},
		{1.49, 1.49, 1.5, 0, 0},
		{1.5, 3.0, 1.5, 1, 2},
		{431.9, 68.9, 1.5, 287, 45},
		{-0.5, 10, 2, -1, 5}, // left of the view: no hit
		{10, 10, 0, -1, -1},  // nonsense scale: no hit
	} {
		x, y := toLogical(c.x, c.y, c.ppp)
		if x != c.wx || y != c.wy {
			t.Errorf("ToLogical(%v, %v, %v) = %d, %d; want %d, %d", c.x, c.y, c.ppp, x, y, c.wx, c.wy)
		}
	}
}

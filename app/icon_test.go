package app

import (
	"bytes"
	"image"
	"image/png"
	"testing"
	"time"

	"github.com/mew-dev/mew/assets"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

func rowsAt(now time.Time, in ...session.Shown) []board.Row {
	return board.Arrange(in, now, board.DefaultConfig())
}

func TestIconFor(t *testing.T) {
	old := t0.Add(-time.Minute)
	cases := []struct {
		name string
		in   []session.Shown
		want statusIcon
	}{
		{"nothing", nil, statusIcon{ToolTip: "Mew: no sessions"}},
		{"working", []session.Shown{shown("a", session.Working, old, "/p")},
			statusIcon{ToolTip: "Mew: 1 working"}},
		{"waiting", []session.Shown{shown("a", session.Waiting, old, "/p"), shown("b", session.Working, old, "/p")},
			statusIcon{Attention: true, Title: "1", ToolTip: "Mew: 1 waiting, 1 working"}},
		{"done and failed count too", []session.Shown{
			shown("a", session.Done, old, "/p"), shown("b", session.Failed, old, "/p"), shown("c", session.Waiting, old, "/p"),
		}, statusIcon{Attention: true, Title: "3", ToolTip: "Mew: 1 waiting, 1 done, 1 failed"}},
		{"an unsettled wait is not attention yet", []session.Shown{shown("a", session.Waiting, t0, "/p")},
			statusIcon{ToolTip: "Mew: 1 working"}},
	}
	for _, c := range cases {
		if got := iconFor(rowsAt(t0, c.in...)); got != c.want {
			t.Errorf("%s: IconFor = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func decodeIcon(t *testing.T, ic iconBitmap) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(ic.PNG))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	if float64(b.Dx()) != ic.W*iconPixelsPerPoint || float64(b.Dy()) != ic.H*iconPixelsPerPoint {
		t.Fatalf("PNG %v for a %vx%v pt icon at %dx", b, ic.W, ic.H, iconPixelsPerPoint)
	}
	// The menu bar is 22 pt tall (24 on notched Macs).
	if ic.H > 18 || ic.W > 22 || ic.H < 8 {
		t.Fatalf("icon %vx%v pt does not fit the menu bar", ic.W, ic.H)
	}
	return img
}

func TestIconImages(t *testing.T) {
	quiet, loud := iconImageFor(false), iconImageFor(true)
	if !quiet.Template || loud.Template {
		t.Fatalf("template: quiet=%v attention=%v; want only the quiet one", quiet.Template, loud.Template)
	}
	if bytes.Equal(quiet.PNG, loud.PNG) {
		t.Fatal("the two icons are the same picture")
	}
	qi := decodeIcon(t, quiet)
	opaque, faint := 0, 0
	b := qi.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := qi.At(x, y).RGBA()
			if a == 0 {
				continue
			}
			if r != 0 || g != 0 || bl != 0 {
				t.Fatalf("template pixel (%d,%d) has colour; templates are alpha only", x, y)
			}
			if a == 0xffff {
				opaque++
			} else {
				faint++
			}
		}
	}
	if opaque == 0 || faint == 0 {
		t.Fatalf("template: %d outline and %d fill pixels; want both", opaque, faint)
	}
	li := decodeIcon(t, loud)
	colours := map[[3]uint32]bool{}
	lb := li.Bounds()
	for y := lb.Min.Y; y < lb.Max.Y; y++ {
		for x := lb.Min.X; x < lb.Max.X; x++ {
			r, g, bl, a := li.At(x, y).RGBA()
			if a != 0 {
				colours[[3]uint32{r, g, bl}] = true
			}
		}
	}
	if len(colours) < 4 {
		t.Fatalf("the attention cat has %d colours; want the coloured sprite", len(colours))
	}
	// Each sprite pixel is a whole 2×2 block.
	for y := lb.Min.Y; y < lb.Max.Y; y += iconPixelsPerPoint {
		for x := lb.Min.X; x < lb.Max.X; x += iconPixelsPerPoint {
			if li.At(x, y) != li.At(x+1, y+1) {
				t.Fatalf("block at (%d,%d) is not uniform", x, y)
			}
		}
	}
}

func TestCropSprite(t *testing.T) {
	got := assets.Crop([]string{"....", ".K..", "..F.", "...."})
	if len(got) != 2 || got[0] != "K." || got[1] != ".F" {
		t.Fatalf("Crop = %q", got)
	}
}

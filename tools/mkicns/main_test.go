package main

import (
	"bytes"
	"image"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/mew-dev/mew/assets"
	"github.com/mew-dev/mew/internal/icns"
)

func TestIconFileHoldsEverySizeOnce(t *testing.T) {
	data, err := iconFile()
	if err != nil {
		t.Fatal(err)
	}
	entries, err := icns.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		if seen[e.Type] {
			t.Errorf("entry %q twice", e.Type)
		}
		seen[e.Type] = true
		if _, err := icns.CheckPNG(e); err != nil {
			t.Error(err)
		}
	}
	if len(seen) != len(icns.PNGSizes) {
		t.Errorf("%d entry types, want %d", len(seen), len(icns.PNGSizes))
	}
	again, _ := iconFile()
	if !bytes.Equal(data, again) {
		t.Error("two renders differ: the committed icon would churn")
	}
}

func count(img *image.NRGBA, c color.NRGBA) int {
	n := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] == c.R && img.Pix[i+1] == c.G && img.Pix[i+2] == c.B && img.Pix[i+3] == c.A {
			n++
		}
	}
	return n
}

func TestRenderDrawsTheCatSharpOnTheRoom(t *testing.T) {
	outline := rgba(assets.Ink['K'])
	for _, size := range []int{16, 32, 128, 1024} {
		img := render(size)
		if img.NRGBAAt(0, 0).A != 0 || img.NRGBAAt(size-1, size-1).A != 0 {
			t.Errorf("%d px: corners are not transparent", size)
		}
		margin := max(1, size*100/1024)
		if img.NRGBAAt(size/2, size-margin-1-size/40) != rgba(assets.Theme.Floor) {
			t.Errorf("%d px: no floor under the cat", size)
		}
		if count(img, outline) == 0 || count(img, rgba(assets.Coats[0].Fur)) == 0 {
			t.Errorf("%d px: the cat is missing", size)
		}
		// Whole-number scaling: every outline pixel's run length along a
		// row is a multiple of the scale, so no pixel is smeared.
		rows := assets.Crop(assets.Sprites[iconSprite])
		scale := max(1, (size*55/100+len(rows)/2)/len(rows))
		for y := 0; y < size; y++ {
			run := 0
			for x := 0; x <= size; x++ {
				if x < size && img.NRGBAAt(x, y) == outline {
					run++
					continue
				}
				if run%scale != 0 {
					t.Fatalf("%d px: an outline run of %d at row %d is not a multiple of the scale %d", size, run, y, scale)
				}
				run = 0
			}
		}
	}
}

func TestRunWritesTheFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "Mew.icns")
	if code := run([]string{"-o", out}, io.Discard); code != 0 {
		t.Fatalf("exit code %d", code)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := iconFile(); !bytes.Equal(data, want) {
		t.Error("written file differs from the rendered icon")
	}
	if code := run([]string{"-o", filepath.Join(t.TempDir(), "missing", "dir", "Mew.icns")}, io.Discard); code != 1 {
		t.Errorf("exit code %d writing into a missing directory, want 1", code)
	}
}

package board_test

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/demo"
	"github.com/mew-dev/mew/session"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/golden")

// TestGoldenBoards draws a few board states and compares them pixel by
// pixel with the images in testdata/golden (go test -run Golden -update
// rewrites them; look at the images before committing).
func TestGoldenBoards(t *testing.T) {
	now := demo.BoardTime
	cases := []struct {
		name  string
		frame board.Frame
		scale int
	}{
		{"panel", demo.BoardFrame(false), 2},
		{"all-states", demo.BoardFrame(true), 2},
		{"empty", board.Draw(nil, now, 0), 2},
		{"later-tick", board.Draw(board.Arrange(demo.Board(false), now, board.DefaultConfig()), now, demo.BoardTick+37), 2},
		{"one-waiting-1x", board.Draw(board.Arrange([]session.Shown{{
			ID: "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b", State: session.Waiting, Reason: session.ReasonInput,
			Since: now.Add(-15 * time.Second), Cwd: "/home/me/notes", Title: "summarise the meeting",
		}}, now, board.DefaultConfig()), now, 1), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := board.WritePNG(&buf, c.frame, c.scale); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "golden", c.name+".png")
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			ComparePNG(t, buf.Bytes(), want)
		})
	}
}

// ComparePNG fails unless two PNGs have the same size and pixels.
func ComparePNG(t *testing.T, got, want []byte) {
	t.Helper()
	g, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatalf("decoding the drawn image: %v", err)
	}
	w, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatalf("decoding the golden image: %v", err)
	}
	if g.Bounds() != w.Bounds() {
		t.Fatalf("image is %v, golden is %v", g.Bounds(), w.Bounds())
	}
	diff, first := 0, image.Point{-1, -1}
	b := g.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, a1 := g.At(x, y).RGBA()
			r2, g2, b2, a2 := w.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				if diff == 0 {
					first = image.Pt(x, y)
				}
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("%d pixels differ from the golden image, the first at %v (-update rewrites it)", diff, first)
	}
}

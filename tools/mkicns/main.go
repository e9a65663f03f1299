// Command mkicns draws Mew's app icon, the waiting cat of the board's
// sprites on its room's wall and floor, at every size an .icns holds, and
// writes assets/Mew.icns. Each size is drawn with whole-pixel scaling so the
// pixel art stays sharp. Run it (make icon) after changing the sprite or
// the palette, and commit the output: .icns files cannot be made with
// Apple's tools on Linux.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"sort"

	"github.com/mew-dev/mew/assets"
	"github.com/mew-dev/mew/internal/icns"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	flags := flag.NewFlagSet("mkicns", flag.ContinueOnError)
	flags.SetOutput(stderr)
	out := flags.String("o", "assets/Mew.icns", "the .icns file to write")
	preview := flags.String("png", "", "also write the 1024 px image to this PNG file")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	data, err := iconFile()
	if err == nil {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err == nil && *preview != "" {
		var buf bytes.Buffer
		if err = png.Encode(&buf, render(1024)); err == nil {
			err = os.WriteFile(*preview, buf.Bytes(), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "mkicns:", err)
		return 1
	}
	return 0
}

// iconFile renders every PNG entry type macOS reads and packs them.
func iconFile() ([]byte, error) {
	types := make([]string, 0, len(icns.PNGSizes))
	for t := range icns.PNGSizes {
		types = append(types, t)
	}
	sort.Strings(types) // the same bytes on every run
	var entries []icns.Entry
	for _, t := range types {
		var buf bytes.Buffer
		if err := png.Encode(&buf, render(icns.PNGSizes[t])); err != nil {
			return nil, err
		}
		entries = append(entries, icns.Entry{Type: t, Data: buf.Bytes()})
	}
	var file bytes.Buffer
	if err := icns.Encode(&file, entries); err != nil {
		return nil, err
	}
	return file.Bytes(), nil
}

const iconSprite = "front" // the cat as it looks when it needs you

func rgba(c assets.RGB) color.NRGBA { return color.NRGBA{c.R, c.G, c.B, 0xff} }

// render draws the icon at size×size: a rounded square of wall over floor
// in the macOS icon grid (100 px margin and a ~185 px corner at 1024), and
// the cat standing on the floor, scaled by a whole number.
func render(size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	margin := max(1, size*100/1024)
	body := size - 2*margin
	radius := body * 185 / 824
	floorTop := margin + body*68/100
	wall, floor := rgba(assets.Theme.Wall), rgba(assets.Theme.Floor)
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			if !insideRounded(x, y, margin, body, radius) {
				continue
			}
			if y >= floorTop {
				img.SetNRGBA(x, y, floor)
			} else {
				img.SetNRGBA(x, y, wall)
			}
		}
	}

	rows := assets.Crop(assets.Sprites[iconSprite])
	h, w := len(rows), len(rows[0])
	scale := max(1, (size*55/100+max(w, h)/2)/max(w, h)) // rounded
	left := (size - w*scale) / 2
	// Feet a little into the floor; at small sizes the whole-number scale
	// makes the cat tall, and then it stands lower rather than poke out.
	top := max(floorTop+body*8/100-h*scale, margin+max(1, body/32))
	coat := assets.Coats[0]
	for r, row := range rows {
		for c := 0; c < len(row); c++ {
			ink, ok := coat.Paint(row[c])
			col := rgba(ink)
			if !ok {
				continue
			}
			for dy := 0; dy < scale; dy++ {
				for dx := 0; dx < scale; dx++ {
					img.SetNRGBA(left+c*scale+dx, top+r*scale+dy, col)
				}
			}
		}
	}
	return img
}

func insideRounded(x, y, margin, body, radius int) bool {
	x, y = x-margin, y-margin
	if x < 0 || y < 0 || x >= body || y >= body {
		return false
	}
	// Distance from the nearest corner circle's centre, at pixel centres.
	cx := min(max(x, radius), body-1-radius)
	cy := min(max(y, radius), body-1-radius)
	dx, dy := x-cx, y-cy
	return dx*dx+dy*dy <= radius*radius
}

package app

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"sync"

	"github.com/mew-dev/mew/assets"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

// statusIcon is what the menu-bar item shows.
type statusIcon struct {
	// Attention: a session needs the person (waiting, done or failed):
	// the coloured cat facing out instead of the sitting outline.
	Attention bool
	// Title is the number of sessions that need the person, next to the
	// cat; "" when none.
	Title   string
	ToolTip string
}

// iconFor decides the status icon from the board's rows (settled states,
// so a prompt approved within milliseconds never flashes the icon).
func iconFor(rows []board.Row) statusIcon {
	var waiting, done, failed, working int
	for _, r := range rows {
		switch r.Group {
		case board.GroupWaiting:
			waiting++
		case board.GroupDone:
			if r.State == session.Failed {
				failed++
			} else {
				done++
			}
		case board.GroupWorking:
			working++
		}
	}
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(waiting, "waiting")
	add(done, "done")
	add(failed, "failed")
	add(working, "working")
	tip := "Mew: no sessions"
	if len(parts) > 0 {
		tip = "Mew: " + strings.Join(parts, ", ")
	}
	needs := waiting + done + failed
	icon := statusIcon{Attention: needs > 0, ToolTip: tip}
	if needs > 0 {
		icon.Title = fmt.Sprint(needs)
	}
	return icon
}

// iconBitmap is a status-item picture: PNG bytes at iconPixelsPerPoint
// pixels per point, and its size in points.
type iconBitmap struct {
	PNG []byte
	// W and H are the size in points (the PNG is iconPixelsPerPoint times
	// larger, for Retina menu bars).
	W, H float64
	// Template: an outline the system tints for light and dark menu bars.
	// The attention cat keeps its colours, so it is not one.
	Template bool
}

// iconPixelsPerPoint: one sprite pixel is one point, drawn as 2×2 pixels
// so Retina menu bars show it sharp.
const iconPixelsPerPoint = 2

// Sprites of the two icons: the cat that sits quietly, and the one that
// turned to face you (what the panel shows for a waiting session).
const (
	iconQuietSprite     = "sit"
	iconAttentionSprite = "front"
	// templateFill is the alpha of the quiet cat's body: the outline is
	// solid, the fur a faint tint, so the template reads as a drawing.
	templateFill = 0x50
)

var iconImages = sync.OnceValue(func() [2]iconBitmap {
	return [2]iconBitmap{renderIcon(false), renderIcon(true)}
})

// iconImageFor returns the picture for the quiet or the attention state.
func iconImageFor(attention bool) iconBitmap {
	if attention {
		return iconImages()[1]
	}
	return iconImages()[0]
}

func renderIcon(attention bool) iconBitmap {
	name := iconQuietSprite
	if attention {
		name = iconAttentionSprite
	}
	rows := assets.Crop(assets.Sprites[name])
	h, w := len(rows), len(rows[0])
	const k = iconPixelsPerPoint
	img := image.NewNRGBA(image.Rect(0, 0, w*k, h*k))
	coat := assets.Coats[0]
	for y, row := range rows {
		for x := 0; x < len(row); x++ {
			ink, ok := coat.Paint(row[x])
			col := color.NRGBA{ink.R, ink.G, ink.B, 0xff}
			if !ok {
				continue
			}
			if !attention {
				// Template images are read for their alpha only.
				a := uint8(templateFill)
				if row[x] == 'K' {
					a = 0xff
				}
				col = color.NRGBA{A: a}
			}
			for dy := 0; dy < k; dy++ {
				for dx := 0; dx < k; dx++ {
					img.SetNRGBA(x*k+dx, y*k+dy, col)
				}
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic("app: encoding the status icon: " + err.Error()) // an in-memory NRGBA always encodes
	}
	return iconBitmap{PNG: buf.Bytes(), W: float64(w), H: float64(h), Template: !attention}
}

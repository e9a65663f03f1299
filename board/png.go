package board

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"

	"github.com/mew-dev/mew/assets"
)

// MaxScale bounds the PNG scale factor (a 20-session board at 16× is
// already ~4k×10k pixels).
const MaxScale = 16

// Image draws f at scale physical pixels per logical pixel, nearest
// neighbour: every logical pixel becomes a scale×scale block. Text is drawn
// with the board's bitmap font; characters it lacks are drawn as '?'.
// Colours are few, so the image is paletted (small files), with the palette
// in order of first use so the same frame always gives the same bytes.
func Image(f Frame, scale int) (*image.Paletted, error) {
	if scale < 1 || scale > MaxScale {
		return nil, fmt.Errorf("scale %d is out of range 1-%d", scale, MaxScale)
	}
	if f.W <= 0 || f.H <= 0 {
		return nil, fmt.Errorf("frame is %d×%d", f.W, f.H)
	}
	pal := palette{index: map[RGB]uint8{}}
	pal.add(f.Background)
	for _, r := range f.Rects {
		pal.add(r.Color)
	}
	for _, t := range f.Texts {
		pal.add(t.Color)
	}
	if pal.full {
		return nil, fmt.Errorf("frame uses more than 256 colours")
	}
	img := image.NewPaletted(image.Rect(0, 0, f.W*scale, f.H*scale), pal.colors)
	// Index 0 is the background, and NewPaletted zeroes Pix.
	fill := func(x, y, w, h int, c RGB) {
		r := image.Rect(x*scale, y*scale, (x+w)*scale, (y+h)*scale).Intersect(img.Rect)
		if r.Empty() {
			return
		}
		i := pal.index[c]
		for py := r.Min.Y; py < r.Max.Y; py++ {
			row := img.Pix[py*img.Stride+r.Min.X : py*img.Stride+r.Max.X]
			for px := range row {
				row[px] = i
			}
		}
	}
	for _, r := range f.Rects {
		fill(r.X, r.Y, r.W, r.H, r.Color)
	}
	glyphs := loadArt().glyphs
	for _, t := range f.Texts {
		k := t.Size / assets.GlyphH // glyph pixels per logical pixel
		if k < 1 {
			k = 1
		}
		x := t.X
		for _, ch := range t.S {
			g, ok := glyphs[ch]
			if !ok {
				g = glyphs['?']
			}
			for gy, bits := range g {
				for gx := 0; gx < assets.GlyphW; gx++ {
					if bits&(1<<gx) != 0 {
						fill(x+gx*k, t.Y+gy*k, k, k, t.Color)
					}
				}
			}
			x += assets.GlyphAdv * k
		}
	}
	return img, nil
}

// WritePNG encodes f as a PNG at scale.
func WritePNG(w io.Writer, f Frame, scale int) error {
	img, err := Image(f, scale)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	return enc.Encode(w, img)
}

type palette struct {
	colors color.Palette
	index  map[RGB]uint8
	full   bool
}

func (p *palette) add(c RGB) {
	if _, ok := p.index[c]; ok {
		return
	}
	if len(p.colors) == 256 {
		p.full = true
		return
	}
	p.index[c] = uint8(len(p.colors))
	p.colors = append(p.colors, color.RGBA{c.R, c.G, c.B, 0xff})
}

package board

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/mew-dev/mew/assets"
)

// run is a horizontal stretch of one paint character in a sprite: drawing
// whole runs keeps a frame to a few rectangles a sprite row.
type run struct {
	x, y, w int
	role    byte // 'F', 'S' or 'W' paint with the cat's coat; 0: ink
	ink     RGB
}

type sprite struct {
	w, h int
	runs []run
}

// glyph rows are bit masks, bit 0 the leftmost pixel.
type glyph []uint8

type art struct {
	sprites map[string]sprite
	glyphs  map[rune]glyph
}

// loadArt parses the asset data once. The data is compiled in, so a
// mistake in it is a programming error: tests parse it, and a broken
// build panics at start with the reason.
var loadArt = sync.OnceValue(func() art {
	a, err := parseArt()
	if err != nil {
		panic("board: " + err.Error())
	}
	return a
})

func parseArt() (art, error) {
	a := art{sprites: map[string]sprite{}}
	for _, name := range assets.SpriteNames {
		rows, ok := assets.Sprites[name]
		if !ok {
			return art{}, fmt.Errorf("sprite %q is missing", name)
		}
		s, err := parseSprite(rows)
		if err != nil {
			return art{}, fmt.Errorf("sprite %q: %v", name, err)
		}
		a.sprites[name] = s
	}
	g, err := parseFont(assets.FontData)
	if err != nil {
		return art{}, err
	}
	a.glyphs = g
	return a, nil
}

func parseSprite(rows []string) (sprite, error) {
	s := sprite{h: len(rows)}
	if s.h == 0 {
		return s, fmt.Errorf("no rows")
	}
	s.w = len(rows[0])
	for y, row := range rows {
		if len(row) != s.w {
			return s, fmt.Errorf("row %d is %d wide, want %d", y, len(row), s.w)
		}
		for x := 0; x < len(row); {
			c := row[x]
			end := x + 1
			for end < len(row) && row[end] == c {
				end++
			}
			if c != '.' {
				r := run{x: x, y: y, w: end - x}
				if isCoatPaint(c) {
					r.role = c
				} else if ink, ok := assets.Ink[c]; ok {
					r.ink = ink
				} else {
					return s, fmt.Errorf("row %d: %q is no colour", y, c)
				}
				s.runs = append(s.runs, r)
			}
			x = end
		}
	}
	return s, nil
}

func isCoatPaint(c byte) bool { return c == 'F' || c == 'S' || c == 'W' }

func parseFont(data string) (map[rune]glyph, error) {
	glyphs := map[rune]glyph{}
	var cur rune
	var rows glyph
	have := false
	flush := func() error {
		if !have {
			return nil
		}
		if len(rows) != 7 && len(rows) != assets.GlyphH {
			return fmt.Errorf("glyph %q has %d rows, want 7 or %d", cur, len(rows), assets.GlyphH)
		}
		if _, dup := glyphs[cur]; dup {
			return fmt.Errorf("glyph %q is defined twice", cur)
		}
		for len(rows) < assets.GlyphH {
			rows = append(rows, 0)
		}
		glyphs[cur] = rows
		return nil
	}
	for i, line := range strings.Split(data, "\n") {
		if line == "" {
			continue
		}
		if name, ok := strings.CutPrefix(line, "== "); ok {
			if err := flush(); err != nil {
				return nil, err
			}
			r, err := glyphName(name)
			if err != nil {
				return nil, fmt.Errorf("font line %d: %v", i+1, err)
			}
			cur, rows, have = r, nil, true
			continue
		}
		if !have || len(line) != assets.GlyphW {
			return nil, fmt.Errorf("font line %d: %q is not a %d-pixel glyph row", i+1, line, assets.GlyphW)
		}
		var bits uint8
		for x := 0; x < len(line); x++ {
			switch line[x] {
			case 'X':
				bits |= 1 << x
			case '.':
			default:
				return nil, fmt.Errorf("font line %d: %q", i+1, line)
			}
		}
		rows = append(rows, bits)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if _, ok := glyphs['?']; !ok {
		return nil, fmt.Errorf("font has no '?' (drawn for missing characters)")
	}
	return glyphs, nil
}

func glyphName(name string) (rune, error) {
	if hex, ok := strings.CutPrefix(name, "U+"); ok {
		n, err := strconv.ParseUint(hex, 16, 32)
		if err != nil {
			return 0, fmt.Errorf("bad code point %q", name)
		}
		return rune(n), nil
	}
	r := []rune(name)
	if len(r) != 1 {
		return 0, fmt.Errorf("glyph name %q is not one character", name)
	}
	return r[0], nil
}

// HasGlyph reports whether the font draws r (others are drawn as '?').
func HasGlyph(r rune) bool {
	_, ok := loadArt().glyphs[r]
	return ok
}

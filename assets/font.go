package assets

// The board's bitmap font: 5×7 capitals on a 6×10 cell, with two rows of
// descender below the baseline. A glyph is 7 rows (nothing below the
// baseline) or 9. Text that uses a character the font lacks is drawn with
// '?'.
const (
	GlyphW     = 5
	GlyphH     = 9 // cap height 7 + descender 2
	GlyphAdv   = 6 // horizontal advance
	LineHeight = 10
)

// FontData lists the glyphs: a line "== c" names the character (or
// "== U+XXXX" by code point), then one line a row, 'X' set, '.' clear.
const FontData = `
== U+0020
.....
.....
.....
.....
.....
.....
.....
== !
..X..
..X..
..X..
..X..
..X..
.....
..X..
== "
.X.X.
.X.X.
.....
.....
.....
.....
.....
== #
.X.X.
.X.X.
XXXXX
.X.X.
XXXXX
.X.X.
.X.X.
== $
..X..
.XXXX
X.X..
.XXX.
..X.X
XXXX.
..X..
== %
XX...
XX..X
...X.
..X..
.X...
X..XX
...XX
== &
.XX..
X..X.
X.X..
.X...
X.X.X
X..X.
.XX.X
== '
..X..
..X..
.....
.....
.....
.....
.....
== (
...X.
..X..
.X...
.X...
.X...
..X..
...X.
== )
.X...
..X..
...X.
...X.
...X.
..X..
.X...
== *
.....
..X..
X.X.X
.XXX.
X.X.X
..X..
.....
== +
.....
..X..
..X..
XXXXX
..X..
..X..
.....
== ,
.....
.....
.....
.....
.....
..X..
..X..
.X...
.....
== -
.....
.....
.....
XXXXX
.....
.....
.....
== .
.....
.....
.....
.....
.....
.....
..X..
== /
.....
....X
...X.
..X..
.X...
X....
.....
== 0
.XXX.
X...X
X..XX
X.X.X
XX..X
X...X
.XXX.
== 1
..X..
.XX..
..X..
..X..
..X..
..X..
.XXX.
== 2
.XXX.
X...X
....X
...X.
..X..
.X...
XXXXX
== 3
XXXXX
...X.
..X..
...X.
....X
X...X
.XXX.
== 4
...X.
..XX.
.X.X.
X..X.
XXXXX
...X.
...X.
== 5
XXXXX
X....
XXXX.
....X
....X
X...X
.XXX.
== 6
..XX.
.X...
X....
XXXX.
X...X
X...X
.XXX.
== 7
XXXXX
....X
...X.
..X..
.X...
.X...
.X...
== 8
.XXX.
X...X
X...X
.XXX.
X...X
X...X
.XXX.
== 9
.XXX.
X...X
X...X
.XXXX
....X
...X.
.XX..
== :
.....
.....
..X..
.....
.....
..X..
.....
== ;
.....
.....
..X..
.....
.....
..X..
..X..
.X...
.....
== <
...X.
..X..
.X...
X....
.X...
..X..
...X.
== =
.....
.....
XXXXX
.....
XXXXX
.....
.....
== >
.X...
..X..
...X.
....X
...X.
..X..
.X...
== ?
.XXX.
X...X
....X
...X.
..X..
.....
..X..
== @
.XXX.
X...X
....X
.XX.X
X.X.X
X.X.X
.XXX.
== A
.XXX.
X...X
X...X
XXXXX
X...X
X...X
X...X
== B
XXXX.
X...X
X...X
XXXX.
X...X
X...X
XXXX.
== C
.XXX.
X...X
X....
X....
X....
X...X
.XXX.
== D
XXX..
X..X.
X...X
X...X
X...X
X..X.
XXX..
== E
XXXXX
X....
X....
XXXX.
X....
X....
XXXXX
== F
XXXXX
X....
X....
XXXX.
X....
X....
X....
== G
.XXX.
X...X
X....
X.XXX
X...X
X...X
.XXXX
== H
X...X
X...X
X...X
XXXXX
X...X
X...X
X...X
== I
.XXX.
..X..
..X..
..X..
..X..
..X..
.XXX.
== J
..XXX
...X.
...X.
...X.
...X.
X..X.
.XX..
== K
X...X
X..X.
X.X..
XX...
X.X..
X..X.
X...X
== L
X....
X....
X....
X....
X....
X....
XXXXX
== M
X...X
XX.XX
X.X.X
X.X.X
X...X
X...X
X...X
== N
X...X
X...X
XX..X
X.X.X
X..XX
X...X
X...X
== O
.XXX.
X...X
X...X
X...X
X...X
X...X
.XXX.
== P
XXXX.
X...X
X...X
XXXX.
X....
X....
X....
== Q
.XXX.
X...X
X...X
X...X
X.X.X
X..X.
.XX.X
== R
XXXX.
X...X
X...X
XXXX.
X.X..
X..X.
X...X
== S
.XXXX
X....
X....
.XXX.
....X
....X
XXXX.
== T
XXXXX
..X..
..X..
..X..
..X..
..X..
..X..
== U
X...X
X...X
X...X
X...X
X...X
X...X
.XXX.
== V
X...X
X...X
X...X
X...X
X...X
.X.X.
..X..
== W
X...X
X...X
X...X
X.X.X
X.X.X
X.X.X
.X.X.
== X
X...X
X...X
.X.X.
..X..
.X.X.
X...X
X...X
== Y
X...X
X...X
X...X
.X.X.
..X..
..X..
..X..
== Z
XXXXX
....X
...X.
..X..
.X...
X....
XXXXX
== [
.XXX.
.X...
.X...
.X...
.X...
.X...
.XXX.
== \
.....
X....
.X...
..X..
...X.
....X
.....
== ]
.XXX.
...X.
...X.
...X.
...X.
...X.
.XXX.
== ^
..X..
.X.X.
X...X
.....
.....
.....
.....
== _
.....
.....
.....
.....
.....
.....
.....
XXXXX
.....
== U+0060
.X...
..X..
.....
.....
.....
.....
.....
== a
.....
.....
.XXX.
....X
.XXXX
X...X
.XXXX
== b
X....
X....
X.XX.
XX..X
X...X
X...X
XXXX.
== c
.....
.....
.XXX.
X....
X....
X...X
.XXX.
== d
....X
....X
.XX.X
X..XX
X...X
X...X
.XXXX
== e
.....
.....
.XXX.
X...X
XXXXX
X....
.XXX.
== f
..XX.
.X..X
.X...
XXX..
.X...
.X...
.X...
== g
.....
.....
.XXXX
X...X
X...X
.XXXX
....X
X...X
.XXX.
== h
X....
X....
X.XX.
XX..X
X...X
X...X
X...X
== i
..X..
.....
.XX..
..X..
..X..
..X..
.XXX.
== j
...X.
.....
..XX.
...X.
...X.
...X.
...X.
X..X.
.XX..
== k
X....
X....
X..X.
X.X..
XX...
X.X..
X..X.
== l
.XX..
..X..
..X..
..X..
..X..
..X..
.XXX.
== m
.....
.....
XX.X.
X.X.X
X.X.X
X...X
X...X
== n
.....
.....
X.XX.
XX..X
X...X
X...X
X...X
== o
.....
.....
.XXX.
X...X
X...X
X...X
.XXX.
== p
.....
.....
XXXX.
X...X
X...X
XXXX.
X....
X....
X....
== q
.....
.....
.XX.X
X..XX
X...X
.XXXX
....X
....X
....X
== r
.....
.....
X.XX.
XX..X
X....
X....
X....
== s
.....
.....
.XXX.
X....
.XXX.
....X
XXXX.
== t
.X...
.X...
XXX..
.X...
.X...
.X..X
..XX.
== u
.....
.....
X...X
X...X
X...X
X..XX
.XX.X
== v
.....
.....
X...X
X...X
X...X
.X.X.
..X..
== w
.....
.....
X...X
X...X
X.X.X
X.X.X
.X.X.
== x
.....
.....
X...X
.X.X.
..X..
.X.X.
X...X
== y
.....
.....
X...X
X...X
X...X
.XXXX
....X
X...X
.XXX.
== z
.....
.....
XXXXX
...X.
..X..
.X...
XXXXX
== {
...X.
..X..
..X..
.X...
..X..
..X..
...X.
== |
..X..
..X..
..X..
..X..
..X..
..X..
..X..
== }
.X...
..X..
..X..
...X.
..X..
..X..
.X...
== ~
.....
.....
.X...
X.X.X
...X.
.....
.....
== U+00B7
.....
.....
.....
..X..
.....
.....
.....
== U+2026
.....
.....
.....
.....
.....
.....
X.X.X
`

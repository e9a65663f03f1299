// Package assets holds the board's pixel-art data: the colours, the cat
// and room sprites, and a 5×7 bitmap font. It is data only; package board
// turns it into frames. Keeping the font here (not a system font) makes a
// PNG snapshot the same bytes on every machine, and lets the macOS view
// draw exactly the same text runs if it wants to.
package assets

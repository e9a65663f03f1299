package gnustep_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"testing"
)

// readXWD decodes what `xwd -root -silent` writes on a 24-bit Xvfb screen
// (ZPixmap, 24 or 32 bits per pixel, TrueColor masks): x11-apps has xwd, and
// this keeps ImageMagick out of the harness.
func readXWD(data []byte) (*image.RGBA, error) {
	if len(data) < 100 {
		return nil, fmt.Errorf("xwd: %d bytes, no header", len(data))
	}
	var order binary.ByteOrder = binary.BigEndian
	h := func(i int) uint32 { return order.Uint32(data[i*4:]) }
	headerSize, format, w, ht := h(0), h(2), h(4), h(5)
	byteOrder, bpp, bpl, ncolors := h(7), h(11), h(12), h(19)
	redMask, greenMask, blueMask := h(14), h(15), h(16)
	if format != 2 || (bpp != 32 && bpp != 24) {
		return nil, fmt.Errorf("xwd: format %d, %d bits per pixel; want ZPixmap, 24 or 32", format, bpp)
	}
	bytesPP := int(bpp / 8)
	off := int(headerSize) + int(ncolors)*12
	if len(data) < off+int(bpl)*int(ht) {
		return nil, fmt.Errorf("xwd: %d bytes, want %d", len(data), off+int(bpl)*int(ht))
	}
	pixel := func(b []byte) uint32 {
		var v uint32
		for i := 0; i < bytesPP; i++ {
			if byteOrder == 0 { // LSBFirst
				v |= uint32(b[i]) << (8 * i)
			} else {
				v = v<<8 | uint32(b[i])
			}
		}
		return v
	}
	shift := func(m uint32) uint {
		var s uint
		for m != 0 && m&1 == 0 {
			m >>= 1
			s++
		}
		return s
	}
	rs, gs, bs := shift(redMask), shift(greenMask), shift(blueMask)
	img := image.NewRGBA(image.Rect(0, 0, int(w), int(ht)))
	for y := 0; y < int(ht); y++ {
		row := data[off+y*int(bpl):]
		for x := 0; x < int(w); x++ {
			v := pixel(row[x*bytesPP:])
			img.SetRGBA(x, y, color.RGBA{uint8((v & redMask) >> rs), uint8((v & greenMask) >> gs), uint8((v & blueMask) >> bs), 255})
		}
	}
	return img, nil
}

// pixelDiff compares two images of the same size: the share of pixels
// whose colour differs by more than tol in any channel.
func pixelDiff(a, b image.Image) (share float64, err error) {
	if a.Bounds().Size() != b.Bounds().Size() {
		return 1, fmt.Errorf("sizes differ: %v and %v", a.Bounds().Size(), b.Bounds().Size())
	}
	const tol = 8 // cairo and Go's PNG encoder may round a channel by a step or two
	diff, n := 0, 0
	ab, bb := a.Bounds(), b.Bounds()
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, _ := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, _ := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			d := math.Max(math.Abs(float64(r1>>8)-float64(r2>>8)), math.Max(math.Abs(float64(g1>>8)-float64(g2>>8)), math.Abs(float64(b1>>8)-float64(b2>>8))))
			if d > tol {
				diff++
			}
			n++
		}
	}
	return float64(diff) / float64(n), nil
}

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadXWDRejectsGarbage(t *testing.T) {
	if _, err := readXWD([]byte("not an xwd")); err == nil {
		t.Error("a short file decoded")
	}
	hdr := make([]byte, 100)
	binary.BigEndian.PutUint32(hdr[0:], 100)
	binary.BigEndian.PutUint32(hdr[8:], 1) // XYPixmap
	if _, err := readXWD(hdr); err == nil {
		t.Error("an XYPixmap decoded")
	}
}

func TestPixelDiff(t *testing.T) {
	a := image.NewRGBA(image.Rect(0, 0, 10, 10))
	b := image.NewRGBA(image.Rect(0, 0, 10, 10))
	if s, err := pixelDiff(a, b); err != nil || s != 0 {
		t.Errorf("equal images: %v %v", s, err)
	}
	b.SetRGBA(0, 0, color.RGBA{R: 200, A: 255})
	b.SetRGBA(1, 0, color.RGBA{R: 5, A: 255}) // within the tolerance
	if s, _ := pixelDiff(a, b); s != 0.01 {
		t.Errorf("one pixel of 100 differs: got %v", s)
	}
	if _, err := pixelDiff(a, image.NewRGBA(image.Rect(0, 0, 9, 10))); err == nil {
		t.Error("different sizes compared")
	}
}

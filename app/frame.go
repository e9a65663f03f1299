package app

import (
	"bytes"
	"image/png"
	"sync"

	"github.com/mew-dev/mew/board"
)

// framePNG encodes a frame at one pixel per board pixel, for the panel
// view: it draws the picture as one image, scaled up without smoothing,
// instead of one Objective-C call per rectangle (each call into AppKit
// costs microseconds). Fast compression: a frame is encoded up to 8 times
// a second and only ever decoded in memory.
func framePNG(f board.Frame) ([]byte, error) {
	img, err := board.Image(f, 1)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := frameEncoder.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// frameEncoder reuses its compressor between frames (a new one is ~1 MB
// of allocations per frame).
var frameEncoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoderPool{}}

type encoderPool struct{ p sync.Pool }

func (e *encoderPool) Get() *png.EncoderBuffer {
	b, _ := e.p.Get().(*png.EncoderBuffer)
	return b
}

func (e *encoderPool) Put(b *png.EncoderBuffer) { e.p.Put(b) }

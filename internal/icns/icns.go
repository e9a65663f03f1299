// Package icns writes and reads Apple icon files (.icns): an 'icns' header
// and a list of typed entries, each here a PNG. The container is a dozen
// lines; the icon libraries around resample one image to every size, which
// blurs pixel art, so Mew renders each size itself and only packs them.
package icns

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
	"io"
)

// Entry is one image of an icon family: a four-character type and its data.
type Entry struct {
	Type string
	Data []byte
}

// PNGSizes are the entry types macOS reads as PNG data, with the pixel
// size each must have (the @2x types hold twice their point size).
var PNGSizes = map[string]int{
	"icp4": 16, "icp5": 32, "icp6": 64,
	"ic07": 128, "ic08": 256, "ic09": 512, "ic10": 1024,
	"ic11": 32, "ic12": 64, "ic13": 256, "ic14": 512,
}

const headerLen = 8 // four-character type + big-endian uint32 length

// Encode writes entries as one .icns file.
func Encode(w io.Writer, entries []Entry) error {
	total := headerLen
	for _, e := range entries {
		if len(e.Type) != 4 {
			return fmt.Errorf("icns: entry type %q is not four bytes", e.Type)
		}
		total += headerLen + len(e.Data)
	}
	var buf bytes.Buffer
	buf.Grow(total)
	writeHeader(&buf, "icns", total)
	for _, e := range entries {
		writeHeader(&buf, e.Type, headerLen+len(e.Data))
		buf.Write(e.Data)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func writeHeader(buf *bytes.Buffer, typ string, length int) {
	buf.WriteString(typ)
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(length))
	buf.Write(n[:])
}

// Decode splits an .icns file into its entries, checking every length.
func Decode(data []byte) ([]Entry, error) {
	if len(data) < headerLen || string(data[:4]) != "icns" {
		return nil, fmt.Errorf("icns: no 'icns' header")
	}
	if total := int(binary.BigEndian.Uint32(data[4:8])); total != len(data) {
		return nil, fmt.Errorf("icns: header says %d bytes, file has %d", total, len(data))
	}
	var entries []Entry
	for off := headerLen; off < len(data); {
		if len(data)-off < headerLen {
			return nil, fmt.Errorf("icns: truncated entry header at byte %d", off)
		}
		typ := string(data[off : off+4])
		n := int(binary.BigEndian.Uint32(data[off+4 : off+8]))
		if n < headerLen || n > len(data)-off {
			return nil, fmt.Errorf("icns: entry %q at byte %d has bad length %d", typ, off, n)
		}
		entries = append(entries, Entry{Type: typ, Data: data[off+headerLen : off+n]})
		off += n
	}
	return entries, nil
}

// CheckPNG decodes a PNG entry and checks it has the size its type requires.
func CheckPNG(e Entry) (image.Image, error) {
	want, ok := PNGSizes[e.Type]
	if !ok {
		return nil, fmt.Errorf("icns: %q is not a PNG entry type", e.Type)
	}
	img, err := png.Decode(bytes.NewReader(e.Data))
	if err != nil {
		return nil, fmt.Errorf("icns: entry %q: %v", e.Type, err)
	}
	if b := img.Bounds(); b.Dx() != want || b.Dy() != want {
		return nil, fmt.Errorf("icns: entry %q is %dx%d, want %dx%d", e.Type, b.Dx(), b.Dy(), want, want)
	}
	return img, nil
}

package icns

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"
)

func pngOf(t *testing.T, size int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewNRGBA(image.Rect(0, 0, size, size))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	in := []Entry{{"ic07", pngOf(t, 128)}, {"icp4", pngOf(t, 16)}}
	var buf bytes.Buffer
	if err := Encode(&buf, in); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if string(data[:4]) != "icns" || int(data[4])<<24|int(data[5])<<16|int(data[6])<<8|int(data[7]) != len(data) {
		t.Fatalf("bad header % x for %d bytes", data[:8], len(data))
	}
	out, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].Type != "ic07" || out[1].Type != "icp4" || !bytes.Equal(out[1].Data, in[1].Data) {
		t.Fatalf("decoded %d entries, types %v", len(out), out)
	}
	for _, e := range out {
		if _, err := CheckPNG(e); err != nil {
			t.Error(err)
		}
	}
}

func TestRejectsDamagedFiles(t *testing.T) {
	var buf bytes.Buffer
	if err := Encode(&buf, []Entry{{"ic07", pngOf(t, 128)}}); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	for name, data := range map[string][]byte{
		"not icns":  append([]byte("icnz"), good[4:]...),
		"truncated": good[:len(good)-1],
		"short":     good[:6],
		"bad entry length": func() []byte {
			d := bytes.Clone(good)
			d[12], d[13], d[14], d[15] = 0xff, 0, 0, 0
			return d
		}(),
	} {
		if _, err := Decode(data); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
	if err := Encode(&buf, []Entry{{"ic7", nil}}); err == nil {
		t.Error("a three-byte type was encoded")
	}
}

func TestCheckPNGWantsTheTypesSize(t *testing.T) {
	if _, err := CheckPNG(Entry{"ic08", pngOf(t, 128)}); err == nil || !strings.Contains(err.Error(), "want 256x256") {
		t.Errorf("a 128 px image as ic08: err = %v", err)
	}
	if _, err := CheckPNG(Entry{"ic08", []byte("not a png")}); err == nil {
		t.Error("garbage accepted as PNG")
	}
	if _, err := CheckPNG(Entry{"TOC ", nil}); err == nil {
		t.Error("a non-PNG type accepted")
	}
}

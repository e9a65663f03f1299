package hookbin

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/mew-dev/mew/reducer"
)

func TestReadPayloadLimit(t *testing.T) {
	for _, size := range []int{0, 1, 16 << 10, 16<<10 + 1, reducer.MaxPayload, reducer.MaxPayload + 1, reducer.MaxPayload + 5000} {
		in := bytes.Repeat([]byte("a"), size)
		for name, r := range map[string]io.Reader{"whole": bytes.NewReader(in), "halves": iotest.HalfReader(bytes.NewReader(in))} {
			got, err := readPayload(r)
			if err != nil {
				t.Fatalf("%d bytes, %s: %v", size, name, err)
			}
			want := min(size, reducer.MaxPayload+1)
			if len(got) != want || !bytes.Equal(got, in[:want]) {
				t.Fatalf("%d bytes, %s: read %d, want the first %d", size, name, len(got), want)
			}
		}
	}
	boom := errors.New("boom")
	if _, err := readPayload(iotest.ErrReader(boom)); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the reader's", err)
	}
}

package web

import (
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/session"
)

func twenty() []session.Shown {
	var out []session.Shown
	for i := range 20 {
		s := waiting("b"+strconv.Itoa(i), "/src/p"+strconv.Itoa(i))
		if i%2 == 0 {
			s.State, s.Reason, s.Choices = session.Working, "", nil
		}
		out = append(out, s)
	}
	return out
}

// BenchmarkRows is one fetch of the rows of a 20-session board, over HTTP
// (the device check included): what an open page costs per update.
func BenchmarkRows(b *testing.B) {
	r := newRig(b, Options{})
	r.s.Publish(twenty())
	_, token, _ := r.s.Devices().Add("bench", time.Now())
	req, _ := http.NewRequest("GET", r.ts.URL+"/rows", nil)
	req.Header.Set("Cookie", CookieName+"="+token)
	b.ReportAllocs()
	for b.Loop() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// BenchmarkCat is one cat picture drawn (then cached until its row's look
// changes).
func BenchmarkCat(b *testing.B) {
	now := time.Now()
	rows := board.Arrange(twenty(), now, boardConfig())
	for b.Loop() {
		if _, err := catPNG(rows[0], now, catScale); err != nil {
			b.Fatal(err)
		}
	}
}

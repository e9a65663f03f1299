package app

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/session"
)

// The menu's pairing starts the app's web board once, fed the latest
// update, and says the code and where to open it.
func TestWebBoardStartsOnceAndPairs(t *testing.T) {
	home := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sessions := &act.Sessions{}
	answers := &act.Answerer{Sessions: sessions, Local: func(context.Context, session.Record, session.Choice) answer.Result { return answer.Result{} }}
	var w webBoard
	w.publish([]*session.Shown{{ID: "s1", State: session.Working, Cwd: "/p/shop", Since: time.Now()}})
	srv, base, err := w.start(ctx, "127.0.0.1:0", home, sessions, answers, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	srv2, base2, err := w.start(ctx, "127.0.0.1:0", home, sessions, answers, t.Logf)
	if err != nil || srv2 != srv || base2 != base {
		t.Fatalf("a second start made another server: %v %s %s", err, base, base2)
	}
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unpaired GET /: %s", resp.Status)
	}
	code, exp, open := srv.PairCode()
	d := pairingDialog(base, "", code, exp, open, nil)
	if d.Failed || !strings.Contains(d.Text, base+"/pair") || !strings.Contains(d.Text, code) {
		t.Errorf("dialog %+v", d)
	}
	if d := pairingDialog(base, "https://desk.ts.net", code, exp, open, nil); !strings.Contains(d.Text, "https://desk.ts.net/pair") {
		t.Errorf("public dialog %+v", d)
	}
	if d := pairingDialog(base, "", "", exp, false, nil); !d.Failed {
		t.Errorf("shut pairing: %+v", d)
	}
	if d := pairingDialog("", "", "", exp, false, errors.New("port taken")); !d.Failed || d.Text != "port taken" {
		t.Errorf("error: %+v", d)
	}
}

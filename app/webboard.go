package app

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"sync"
	"time"

	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/internal/weblink"
	"github.com/mew-dev/mew/session"
	"github.com/mew-dev/mew/web"
)

// webListen is where the app serves the web board: this Mac only, as
// `mew serve` does by default (reach it from a phone with tailscale serve
// or ssh -L: README).
const webListen = "127.0.0.1:7733"

// webBoard is the web board inside the app (`mew serve`'s server), started
// the first time the person asks to pair a device from the menu. It is fed
// every monitor update (Publish) from then on. Safe for concurrent use.
type webBoard struct {
	mu   sync.Mutex
	srv  *web.Server
	base string
	last []*session.Shown // the latest update's (read-only), for a server started later
}

// publish hands the server an update (kept for a server not started yet).
func (w *webBoard) publish(shown []*session.Shown) {
	w.mu.Lock()
	w.last = shown
	s := w.srv
	w.mu.Unlock()
	if s != nil {
		s.PublishList(shown)
	}
}

// start starts the server on listen once; later calls return the running
// one. It answers through answers, as the panel does.
func (w *webBoard) start(ctx context.Context, listen, home string, sessions *act.Sessions, answers *act.Answerer, log func(string, ...any)) (*web.Server, string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.srv != nil {
		return w.srv, w.base, nil
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, "", fmt.Errorf("cannot serve the web board on %s (does `mew serve` run? pair there): %v", listen, err)
	}
	o := web.Options{
		Home: home, Prefs: &alertprefs.Store{Home: home}, Log: log,
		Prompt: web.PromptFrom(sessions, home), Submit: answers.Submit,
	}
	w.base = "http://" + ln.Addr().String()
	if pub := weblink.Load(home); pub != "" {
		if u, err := url.Parse(pub); err == nil {
			o.Hosts = append(o.Hosts, u.Hostname())
		}
	}
	w.srv = web.New(o)
	w.srv.PublishList(w.last)
	go func() {
		if err := w.srv.Serve(ctx, ln); err != nil {
			log("web board: %v", err)
		}
	}()
	return w.srv, w.base, nil
}

// pairingDialog is the message the menu's "Pair a Phone or Browser…"
// shows: the code, the link to open, and how a phone reaches this Mac.
func pairingDialog(base, public, code string, expires time.Time, open bool, err error) dialog {
	if err != nil {
		return dialog{Title: "Pair a Phone or Browser", Text: err.Error(), Failed: true}
	}
	if !open {
		return dialog{Title: "Pair a Phone or Browser", Failed: true,
			Text: fmt.Sprintf("Too many wrong codes: pairing opens again at %s with a new code. Choose the menu item again then.", expires.Local().Format("15:04"))}
	}
	link := base
	if public != "" {
		link = public
	}
	return dialog{Title: "Pair a Phone or Browser", Text: fmt.Sprintf(
		"Open %s/pair and enter the code %s (one device, until %s).\n"+
			"The web board runs on %s, on this Mac only: reach it from a phone with `tailscale serve --bg 7733` or `ssh -L 7733:127.0.0.1:7733` (see the README). "+
			"Paired devices: `mew serve devices`.",
		link, code, expires.Local().Format("15:04"), base)}
}

// Package web is Mew's web board (`mew serve`): what the panel shows, live,
// for a browser on this machine or on the person's phone, through a reach
// the person already trusts (ssh -L, tailscale serve). It shows the sessions
// and answers a waiting prompt's choices through the same path as the panel
// (board/act's answerer: the session looked up again, the label the person
// saw sent as the expected one, the screen re-read before typing), and mutes
// or snoozes a session's alerts. Nothing else: no jump, no other action.
//
// Every route but the pairing page and its stylesheet needs a paired
// device's cookie; every request's Host must be this machine's (DNS
// rebinding); a state-changing request must come from the page itself
// (Origin) and carry the device's CSRF token; an answer button's ticket is
// good once.
package web

import (
	"context"
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/session"
)

// CookieName is the device cookie's name.
const CookieName = "mew_device"

// Options wire a server to the watcher.
type Options struct {
	Home string
	// Prompt is a session as it is now (looked up again at the answer, the
	// way the panel does: act.Sessions.Get and act.Prompt).
	Prompt func(id string) (session.Shown, bool)
	// Submit types choice c into session id and calls done with the result
	// (act.Answerer.Submit: the panel's path).
	Submit func(id string, c session.Choice, done func(answer.Result))
	Prefs  *alertprefs.Store
	// TLS: the page is served over https (the cookie gets Secure).
	TLS bool
	// Hosts are host names besides the loopback ones that requests may
	// name in Host (the --listen address, the public URL's host).
	Hosts []string
	// Watched is the tmux server Mew reads (board.Where).
	Watched string
	// OnCode is told each new pairing code.
	OnCode func(code string, expires time.Time)
	Log    func(format string, args ...any)
	Now    func() time.Time
}

// Server is the web board. Publish feeds it the watcher's updates.
type Server struct {
	o       Options
	devices *Devices
	pairing *Pairing
	tickets tickets
	key     []byte // this run's CSRF key
	cats    catCache
	rowHTML rowCache

	mu      sync.Mutex
	shown   []*session.Shown // read-only: a monitor update's list (PublishList)
	version uint64
	subs    map[chan uint64]struct{}
}

// New makes a server.
func New(o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	s := &Server{o: o, devices: &Devices{Home: o.Home}, key: randomBytes(32), subs: map[chan uint64]struct{}{}}
	s.pairing = &Pairing{OnCode: o.OnCode}
	return s
}

// Devices is the server's store of paired devices.
func (s *Server) Devices() *Devices { return s.devices }

// PairCode is the pairing code in force (made now if there is none), and
// whether pairing is open.
func (s *Server) PairCode() (string, time.Time, bool) { return s.pairing.Code(s.o.Now()) }

// Publish takes the sessions of a monitor update and tells every open
// page (server-sent events; each page then fetches its rows).
func (s *Server) Publish(shown []session.Shown) {
	var list []*session.Shown
	if shown != nil {
		list = make([]*session.Shown, len(shown))
		for i := range shown {
			list[i] = &shown[i]
		}
	}
	s.PublishList(list)
}

// PublishList is Publish of a list shared read-only (monitor.Update's):
// it is copied only when a page fetches its rows.
func (s *Server) PublishList(shown []*session.Shown) {
	s.mu.Lock()
	s.shown = shown
	s.version++
	v := s.version
	for ch := range s.subs {
		select {
		case ch <- v:
		default:
			// The page has not read the last one: it will fetch the
			// newest rows anyway.
		}
	}
	s.mu.Unlock()
}

func (s *Server) snapshot() ([]session.Shown, uint64) {
	s.mu.Lock()
	shown, v := s.shown, s.version
	s.mu.Unlock()
	if shown == nil {
		return nil, v
	}
	out := make([]session.Shown, len(shown))
	for i, p := range shown {
		out[i] = *p
	}
	return out, v
}

// Handler is the server's HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	// Open: the pairing page and what it needs, nothing about a session.
	mux.HandleFunc("GET /pair", s.pairPage)
	mux.HandleFunc("POST /pair", s.pairPost)
	mux.HandleFunc("GET /static/style.css", serveStatic("style.css", "text/css; charset=utf-8"))
	// A paired device only.
	mux.Handle("GET /{$}", s.device(s.boardPage))
	mux.Handle("GET /s", s.device(s.boardPage))
	mux.Handle("GET /rows", s.device(s.rowsFragment))
	mux.Handle("GET /events", s.device(s.events))
	mux.Handle("GET /cat", s.device(s.catImage))
	mux.Handle("GET /static/app.js", s.device(asDevice(serveStatic("app.js", "text/javascript; charset=utf-8"))))
	mux.Handle("GET /manifest.webmanifest", s.device(asDevice(serveStatic("manifest.webmanifest", "application/manifest+json"))))
	mux.Handle("GET /icon.png", s.device(s.icon))
	mux.Handle("POST /answer", s.device(s.changing(s.answerPost)))
	mux.Handle("POST /mute", s.device(s.changing(s.mutePost)))
	mux.Handle("POST /snooze", s.device(s.changing(s.snoozePost)))
	return s.guard(mux)
}

type deviceHandler func(w http.ResponseWriter, r *http.Request, dev Device)

func asDevice(h http.HandlerFunc) deviceHandler {
	return func(w http.ResponseWriter, r *http.Request, _ Device) { h(w, r) }
}

// guard checks what every request must pass, paired or not: a Host of
// this machine (a DNS-rebinding page names its own), an Origin, when sent,
// of this page, and sets the headers of every answer.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		// same-origin, not no-referrer: under no-referrer a browser sends
		// "Origin: null" with a form, and the Origin check needs the real one.
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		if !s.hostAllowed(r.Host) {
			http.Error(w, "wrong host", http.StatusMisdirectedRequest)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
			http.Error(w, "cross-origin request refused", http.StatusForbidden)
			return
		}
		// Another site's page may link here (an alert in a chat's web
		// page): a GET navigation passes, without the device's cookie
		// (SameSite=Strict); anything else it sends is refused.
		if r.Header.Get("Sec-Fetch-Site") == "cross-site" && !(r.Method == http.MethodGet && r.Header.Get("Sec-Fetch-Mode") == "navigate") {
			http.Error(w, "cross-site request refused", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed: the loopback names, or a host name the server was given,
// on any port (ssh -L and tailscale serve forward from ports of their
// own).
func (s *Server) hostAllowed(host string) bool {
	name := hostName(host)
	if name == "" {
		return false
	}
	switch name {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	for _, h := range s.o.Hosts {
		if strings.EqualFold(hostName(h), name) || strings.EqualFold(h, name) {
			return true
		}
	}
	return false
}

func hostName(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.ToLower(h)
	}
	return strings.ToLower(strings.Trim(hostport, "[]"))
}

// sameOrigin: origin names the host the request was sent to (which
// guard has already checked is ours).
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return strings.EqualFold(u.Host, host)
}

// device lets a request through only with a paired device's cookie;
// anything else gets 401 and the pairing form, nothing about a session.
func (s *Server) device(next deviceHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(CookieName)
		var dev Device
		ok := false
		if err == nil {
			dev, ok = s.devices.Check(c.Value)
		}
		if !ok {
			s.unauthorized(w, r)
			return
		}
		next(w, r, dev)
	})
}

// changing guards a state-changing request: it must name its origin (the
// page itself: guard compared it) and carry the device's CSRF token.
func (s *Server) changing(next deviceHandler) deviceHandler {
	return func(w http.ResponseWriter, r *http.Request, dev Device) {
		if r.Header.Get("Origin") == "" {
			http.Error(w, "no Origin: refused", http.StatusForbidden)
			return
		}
		if !readForm(w, r, 8<<10) {
			return
		}
		got := r.PostForm.Get("csrf")
		if got == "" {
			got = r.Header.Get("X-Mew-CSRF")
		}
		if !constantEqual(got, csrfFor(s.key, dev)) {
			http.Error(w, "missing or wrong CSRF token", http.StatusForbidden)
			return
		}
		next(w, r, dev)
	}
}

// readForm parses a POST's form of at most limit bytes, or answers 400.
func readForm(w http.ResponseWriter, r *http.Request, limit int64) bool {
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return false
	}
	return true
}

func constantEqual(a, b string) bool {
	return len(a) == len(b) && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// setCookie gives a newly paired browser its token: Secure when the
// browser reached the page over https, directly or through a proxy
// (tailscale serve says so in X-Forwarded-Proto; a forged header only
// makes the cookie stricter).
func (s *Server) setCookie(w http.ResponseWriter, r *http.Request, token string) {
	secure := s.o.TLS || r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"
	http.SetCookie(w, &http.Cookie{
		Name: CookieName, Value: token, Path: "/",
		MaxAge: 400 * 24 * 3600, HttpOnly: true, Secure: secure, SameSite: http.SameSiteStrictMode,
	})
}

// events streams one event per update (its version) to an open page,
// and a comment every 25 s so proxies keep the stream.
func (s *Server) events(w http.ResponseWriter, r *http.Request, _ Device) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "no streaming", http.StatusInternalServerError)
		return
	}
	ch := make(chan uint64, 1)
	s.mu.Lock()
	s.subs[ch] = struct{}{}
	v := s.version
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.subs, ch)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	writeEvent(w, v)
	fl.Flush()
	beat := time.NewTicker(25 * time.Second)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case v := <-ch:
			writeEvent(w, v)
		case <-beat.C:
			w.Write([]byte(": beat\n\n"))
		}
		fl.Flush()
	}
}

func writeEvent(w http.ResponseWriter, v uint64) {
	w.Write([]byte("event: change\ndata: " + uitoa(v) + "\n\n"))
}

func uitoa(v uint64) string {
	if v == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return string(b[i:])
}

// Serve runs the server on l until ctx ends.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    32 << 10,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		srv.Close()
	}()
	err := srv.Serve(l)
	if err == http.ErrServerClosed {
		return nil
	}
	return err
}

// boardConfig is the board the page lists: every session, quiet ones too,
// settled as the panel settles them.
func boardConfig() board.Config {
	cfg := board.DefaultConfig()
	cfg.ShowQuiet = true
	return cfg
}

// PromptFrom is Options.Prompt over the boards' lookup: the session as it
// is now, looked up again the way the panel does before it answers.
func PromptFrom(sessions *act.Sessions, home string) func(id string) (session.Shown, bool) {
	return func(id string) (session.Shown, bool) {
		f, ok := sessions.Get(id)
		if !ok {
			return session.Shown{}, false
		}
		shown, _ := act.Prompt(f, home)
		return shown, true
	}
}

package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"image"
	"image/png"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/board"
	"github.com/mew-dev/mew/board/act"
	"github.com/mew-dev/mew/internal/text"
	"github.com/mew-dev/mew/session"
)

//go:embed static templates.html
var files embed.FS

var pages = template.Must(template.ParseFS(files, "templates.html"))

func serveStatic(name, ctype string) http.HandlerFunc {
	b, err := files.ReadFile("static/" + name)
	if err != nil {
		panic("web: missing static/" + name)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Cache-Control", "private, max-age=300")
		w.Write(b)
	}
}

// choiceView is one answer button: its label and its single-use ticket.
type choiceView struct {
	N      int
	Label  string
	Ticket string
}

// rowView is one session as the page lists it. Every string in it is one
// line of printable text (internal/text): html/template escapes it for
// HTML, and no terminal escape survives to reach a person's screen.
type rowView struct {
	ID, Project, Agent, Where string
	State, Reason             string
	// SinceMS is when the session entered its state (Unix ms, the
	// server's clock): the page's script shows the age from it, so a row
	// that did not change is the same HTML from one update to the next.
	SinceMS   int64
	Prompt    string
	Group     string
	CatKey    string
	Choices   []choiceView
	Elsewhere string
	Muted     bool
	Snoozed   string
}

// rowData is what the row template draws: the row and the device's CSRF
// token for its forms.
type rowData struct {
	rowView
	CSRF string
}

type pageView struct {
	Paired  bool
	CSRF    string
	Only    string          // the session page's session
	Rows    []template.HTML // each row drawn by the "row" template
	NowMS   int64           // the server's clock, for the ages
	Message string
	Code    string // the pairing form's code (from a QR code's link)
	Again   string // a same-origin link to the page asked for (after a cross-site link)
	Shut    bool
}

func groupClass(g board.Group) string {
	switch g {
	case board.GroupWaiting:
		return "waiting"
	case board.GroupDone:
		return "done"
	case board.GroupWorking:
		return "working"
	}
	return "quiet"
}

// promptText is what the session shows the person: the tool and its
// detail while it waits, else its last message.
func promptText(s session.Shown, st session.State) string {
	if st == session.Waiting && s.ToolDetail != "" {
		return s.Tool + ": " + s.ToolDetail
	}
	if st == session.Waiting && s.Tool != "" {
		return s.Tool
	}
	return s.LastMessage
}

// rows draws the sessions for device dev (only: one session), with a
// ticket for each answer button shown.
func (s *Server) rows(dev Device, only string) []template.HTML {
	var out []template.HTML
	csrf := csrfFor(s.key, dev)
	for _, v := range s.rowViews(dev, only) {
		h, err := s.rowHTML.draw(rowData{rowView: v, CSRF: csrf})
		if err != nil {
			s.o.Log("web: row: %v", err)
			continue
		}
		out = append(out, h)
	}
	return out
}

// rowViews lists the sessions for device dev (only: one session).
func (s *Server) rowViews(dev Device, only string) []rowView {
	shown, _ := s.snapshot()
	now := s.o.Now()
	var muted map[string]bool
	var snoozed map[string]time.Time
	if s.o.Prefs != nil {
		if p, err := s.o.Prefs.Load(); err == nil {
			muted, snoozed = p.Muted, p.Snoozed
		}
	}
	var out []rowView
	for _, r := range board.Arrange(shown, now, boardConfig()) {
		if only != "" && r.Session.ID != only {
			continue
		}
		v := rowView{
			ID:      r.Session.ID,
			Project: text.OneLine(r.Project, 80),
			Agent:   text.OneLine(r.Session.Agent, 24),
			Where:   text.OneLine(board.Where(r.Session, s.o.Watched), 60),
			State:   string(r.State),
			Reason:  text.OneLine(string(r.Reason), 40),
			SinceMS: now.Add(-r.Age).UnixMilli(),
			Prompt:  text.OneLine(promptText(r.Session, r.State), 400),
			Group:   groupClass(r.Group),
			CatKey:  catKey(r),
			Muted:   muted[r.Session.ID],
		}
		if r.Offline != "" {
			v.Where += " · " + text.OneLine(r.Offline, 60)
		}
		if t, ok := snoozed[r.Session.ID]; ok && t.After(now) {
			v.Snoozed = t.Local().Format("15:04")
		}
		if board.Answerable(r) {
			if r.Session.AnswerVia == "" || r.Session.Offline {
				v.Elsewhere = "Mew cannot type into this terminal: " + board.ElsewhereWhy
			} else {
				for _, c := range r.Session.Choices {
					label := text.OneLine(c.Label, 80)
					v.Choices = append(v.Choices, choiceView{N: c.N, Label: label, Ticket: s.tickets.issue(ticket{
						device: dev.Hash, id: r.Session.ID, n: c.N, label: c.Label, expires: now.Add(ticketLife),
					}, r.Session.Since, now)})
				}
			}
		}
		out = append(out, v)
	}
	return out
}

func (s *Server) render(w http.ResponseWriter, status int, name string, v pageView) {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, v); err != nil {
		s.o.Log("web: %s: %v", name, err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func onlyID(r *http.Request) string {
	id := r.URL.Query().Get("id")
	if !session.ValidID(id) {
		return ""
	}
	return id
}

func (s *Server) boardPage(w http.ResponseWriter, r *http.Request, dev Device) {
	only := ""
	if r.URL.Path == "/s" {
		if only = onlyID(r); only == "" {
			http.Error(w, "no such session", http.StatusNotFound)
			return
		}
	}
	s.render(w, http.StatusOK, "page", pageView{Paired: true, CSRF: csrfFor(s.key, dev), Only: only, Rows: s.rows(dev, only), NowMS: s.o.Now().UnixMilli()})
}

func (s *Server) rowsFragment(w http.ResponseWriter, r *http.Request, dev Device) {
	s.render(w, http.StatusOK, "rows", pageView{Paired: true, CSRF: csrfFor(s.key, dev), Rows: s.rows(dev, onlyID(r)), NowMS: s.o.Now().UnixMilli()})
}

// rowCache keeps each row's HTML by everything drawn in it: on an update
// only the rows that changed are drawn again (html/template was most of
// an open page's cost).
type rowCache struct {
	mu sync.Mutex
	m  map[string]template.HTML
}

// maxCachedRows bounds the cache; it starts over when full.
const maxCachedRows = 2048

func (c *rowCache) draw(d rowData) (template.HTML, error) {
	key := fmt.Sprintf("%#v", d)
	c.mu.Lock()
	h, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return h, nil
	}
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, "row", d); err != nil {
		return "", err
	}
	// Drawn by html/template, which escaped every field: safe as HTML.
	h = template.HTML(buf.String())
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCachedRows {
		c.m = map[string]template.HTML{}
	}
	c.m[key] = h
	c.mu.Unlock()
	return h, nil
}

func (s *Server) unauthorized(w http.ResponseWriter, r *http.Request) {
	_, _, open := s.pairing.Code(s.o.Now())
	v := pageView{Shut: !open, Message: "This browser is not paired with Mew yet."}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" && r.Method == http.MethodGet {
		// A link from another site (an alert): the browser held the
		// device's cookie back (SameSite=Strict). A link from this page
		// carries it.
		v.Message = "Opened from a link on another site, so your browser held back Mew's cookie. If this browser is paired, open the board from here:"
		v.Again = "/"
		if id := onlyID(r); r.URL.Path == "/s" && id != "" {
			v.Again = "/s?id=" + url.QueryEscape(id)
		}
	}
	s.render(w, http.StatusUnauthorized, "pair", v)
}

func (s *Server) pairPage(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("code")
	if len(code) > 16 || strings.Trim(strings.ToUpper(code), pairAlphabet) != "" {
		code = ""
	}
	_, _, open := s.pairing.Code(s.o.Now())
	s.render(w, http.StatusOK, "pair", pageView{Code: code, Shut: !open})
}

func (s *Server) pairPost(w http.ResponseWriter, r *http.Request) {
	// Pairing changes state: the form must come from this page (guard
	// compared a sent Origin; here one must be sent).
	if r.Header.Get("Origin") == "" {
		http.Error(w, "no Origin: refused", http.StatusForbidden)
		return
	}
	if !readForm(w, r, 4<<10) {
		return
	}
	now := s.o.Now()
	if err := s.pairing.Try(r.PostForm.Get("code"), now); err != nil {
		status := http.StatusForbidden
		if err == ErrPairingShut {
			status = http.StatusTooManyRequests
		}
		s.o.Log("web: pairing refused: %v", err)
		s.render(w, status, "pair", pageView{Message: err.Error(), Shut: err == ErrPairingShut})
		return
	}
	name := r.PostForm.Get("name")
	if name == "" {
		name = r.UserAgent()
	}
	dev, token, err := s.devices.Add(name, now)
	if err != nil {
		s.o.Log("web: pairing: %v", err)
		http.Error(w, "could not keep the device", http.StatusInternalServerError)
		return
	}
	s.o.Log("web: paired device %s (%s)", dev.ID, dev.Name)
	s.setCookie(w, r, token)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// reply answers a form: JSON for the page's script, a short page without
// it.
func (s *Server) reply(w http.ResponseWriter, r *http.Request, status int, message string) {
	message = text.OneLine(message, 300)
	if r.Header.Get("X-Mew-Fetch") == "1" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(struct {
			OK      bool   `json:"ok"`
			Message string `json:"message"`
		}{status == http.StatusOK, message})
		return
	}
	s.render(w, status, "result", pageView{Paired: true, Message: message})
}

// answerTimeout bounds the wait for the answerer (which confirms the
// prompt went away within answer.Confirm).
const answerTimeout = 30 * time.Second

func (s *Server) answerPost(w http.ResponseWriter, r *http.Request, dev Device) {
	tk, ok := s.tickets.take(r.PostForm.Get("t"), dev.Hash, s.o.Now())
	if !ok {
		s.reply(w, r, http.StatusConflict, "typed nothing: this button was used already or is too old; the page shows the prompt as it is now")
		return
	}
	if n := r.PostForm.Get("n"); n != "" && n != strconv.Itoa(tk.n) {
		s.reply(w, r, http.StatusBadRequest, "typed nothing: the choice does not match its button")
		return
	}
	cur, ok := s.o.Prompt(tk.id)
	if !ok {
		s.reply(w, r, http.StatusConflict, "typed nothing: the session is gone")
		return
	}
	if cur.State != session.Waiting {
		s.reply(w, r, http.StatusConflict, "typed nothing: the session is not waiting on you now (it is "+string(cur.State)+")")
		return
	}
	var choice session.Choice
	found := false
	for _, c := range cur.Choices {
		if c.N == tk.n {
			choice, found = c, true
		}
	}
	if !found {
		s.reply(w, r, http.StatusConflict, "typed nothing: the prompt changed (no choice "+strconv.Itoa(tk.n)+" now)")
		return
	}
	// The label the person saw is the expected one, as another machine's
	// answer is (`mew answer --expect`): a prompt that changed is never
	// answered.
	if res, refused := act.Unexpected(choice, tk.label); refused {
		s.reply(w, r, http.StatusConflict, res.Message)
		return
	}
	done := make(chan answer.Result, 1)
	s.o.Submit(tk.id, choice, func(res answer.Result) { done <- res })
	select {
	case res := <-done:
		s.o.Log("web: answer %s %d (%q) from device %s: %s", tk.id, choice.N, text.OneLine(choice.Label, 60), dev.ID, res.Message)
		status := http.StatusOK
		if res.Outcome != answer.Answered {
			status = http.StatusConflict
		}
		s.reply(w, r, status, res.Message)
	case <-time.After(answerTimeout):
		s.reply(w, r, http.StatusGatewayTimeout, "no result from the answer yet; the page shows what happened")
	}
}

// listedID is the form's session id, when the board lists it.
func (s *Server) listedID(r *http.Request) (string, bool) {
	id := r.PostForm.Get("id")
	if !session.ValidID(id) {
		return "", false
	}
	shown, _ := s.snapshot()
	for _, x := range shown {
		if x.ID == id {
			return id, true
		}
	}
	return "", false
}

// togglePref runs toggle on the form's session (one the board lists) and
// answers with what it says.
func (s *Server) togglePref(w http.ResponseWriter, r *http.Request, toggle func(id string) (string, error)) {
	id, ok := s.listedID(r)
	if !ok || s.o.Prefs == nil {
		s.reply(w, r, http.StatusNotFound, "no such session")
		return
	}
	said, err := toggle(id)
	if err != nil {
		s.reply(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	s.Publish(s.currentShown()) // every open page shows it
	s.reply(w, r, http.StatusOK, said)
}

func (s *Server) mutePost(w http.ResponseWriter, r *http.Request, dev Device) {
	s.togglePref(w, r, func(id string) (string, error) {
		muted, err := s.o.Prefs.ToggleMute(id)
		if muted {
			return "muted: its alerts stay silent", err
		}
		return "unmuted", err
	})
}

// SnoozeFor is how long the page's Snooze holds a session's alerts (the
// panel's menu snoozes for an hour too).
const SnoozeFor = time.Hour

func (s *Server) snoozePost(w http.ResponseWriter, r *http.Request, dev Device) {
	s.togglePref(w, r, func(id string) (string, error) {
		until, err := s.o.Prefs.ToggleSnooze(id, s.o.Now(), SnoozeFor)
		if until.IsZero() {
			return "snooze ended", err
		}
		return "snoozed until " + until.Local().Format("15:04"), err
	})
}

func (s *Server) currentShown() []session.Shown {
	shown, _ := s.snapshot()
	return shown
}

// catKey names what a row's cat looks like, for the browser's cache.
func catKey(r board.Row) string {
	return string(r.State) + "-" + strconv.Itoa(int(r.Group)) + "-" + strconv.Itoa(len(r.Session.Choices))
}

// catScale is the cat pictures' pixels per logical pixel: 1, since the
// page scales them up with image-rendering: pixelated, which draws the
// same whole pixels as a bigger picture would, at a quarter of the cost.
const catScale = 1

type catCache struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (c *catCache) get(key string, make func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	b, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := make()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= 512 {
		c.m = map[string][]byte{}
	}
	c.m[key] = b
	c.mu.Unlock()
	return b, nil
}

// roomW is the width of a row's room (where its cat lives) in the board's
// frame, in logical pixels: the left of the row, before its text.
const roomW = 82

// catPNG draws row r as the board draws it and keeps its room: the cat.
func catPNG(r board.Row, now time.Time, scale int) ([]byte, error) {
	return roomPNG(r, now, scale, 0, roomW)
}

// roomPNG draws row r and keeps the logical columns [x0, x1) of its row.
func roomPNG(r board.Row, now time.Time, scale, x0, x1 int) ([]byte, error) {
	f := board.Draw([]board.Row{r}, now, 0)
	img, err := board.Image(f, scale)
	if err != nil {
		return nil, err
	}
	rect := image.Rect(x0, 0, x1, f.H)
	for _, h := range f.Hits {
		if h.Choice == 0 && h.ID == r.Session.ID {
			rect = image.Rect(h.X+x0, h.Y, h.X+x1, h.Y+min(h.H, 28))
		}
	}
	rect = image.Rect(rect.Min.X*scale, rect.Min.Y*scale, rect.Max.X*scale, rect.Max.Y*scale).Intersect(img.Bounds())
	var buf bytes.Buffer
	// The fastest deflate: a cat is a few hundred bytes either way, and
	// encoding was most of its cost.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img.SubImage(rect)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (s *Server) catImage(w http.ResponseWriter, r *http.Request, _ Device) {
	id := onlyID(r)
	shown, _ := s.snapshot()
	now := s.o.Now()
	for _, row := range board.Arrange(shown, now, boardConfig()) {
		if row.Session.ID != id {
			continue
		}
		b, err := s.cats.get(id+"\x00"+catKey(row), func() ([]byte, error) { return catPNG(row, now, catScale) })
		writePNG(w, b, err, "3600")
		return
	}
	http.Error(w, "no such session", http.StatusNotFound)
}

// icon is the home-screen icon: a waiting cat, as the board draws it.
func (s *Server) icon(w http.ResponseWriter, r *http.Request, _ Device) {
	b, err := s.cats.get("\x00icon", func() ([]byte, error) {
		now := time.Unix(1_700_000_000, 0)
		rows := board.Arrange([]session.Shown{{ID: "mew", Agent: "claude", State: session.Waiting, Since: now.Add(-time.Hour)}}, now, boardConfig())
		if len(rows) == 0 {
			return nil, errNoIcon
		}
		// The square at the front of the room, where the waiting cat
		// sits: a home-screen icon is square.
		return roomPNG(rows[0], now, 6, roomW-2-28, roomW-2)
	})
	writePNG(w, b, err, "86400")
}

// writePNG answers with picture b, kept by the browser for maxAge seconds.
func writePNG(w http.ResponseWriter, b []byte, err error, maxAge string) {
	if err != nil {
		http.Error(w, "no picture", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, max-age="+maxAge)
	w.Write(b)
}

type iconError struct{}

func (iconError) Error() string { return "no icon row" }

var errNoIcon error = iconError{}

package web

import (
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mew-dev/mew/answer"
	"github.com/mew-dev/mew/internal/alertprefs"
	"github.com/mew-dev/mew/session"
)

// rig is a server with a fake answerer, over real HTTP on loopback.
type rig struct {
	t   testing.TB
	s   *Server
	ts  *httptest.Server
	now time.Time

	mu      sync.Mutex
	prompt  session.Shown // what Prompt returns (the session as it is now)
	answers []session.Choice
}

func waiting(id, cwd string) session.Shown {
	return session.Shown{
		ID: id, Agent: "claude", State: session.Waiting, Reason: session.ReasonPermission,
		Since: time.Now().Add(-time.Minute), Cwd: cwd, Tool: "Bash", ToolDetail: "touch made-by-claude",
		Tmux: "%1", AnswerVia: "tmux",
		Choices: []session.Choice{{N: 1, Label: "Yes"}, {N: 2, Label: "No"}},
	}
}

func newRig(t testing.TB, o Options) *rig {
	t.Helper()
	r := &rig{t: t, now: time.Now()}
	home := t.TempDir()
	o.Home = home
	o.Prefs = &alertprefs.Store{Home: home}
	o.Now = func() time.Time { r.mu.Lock(); defer r.mu.Unlock(); return r.now }
	o.Prompt = func(id string) (session.Shown, bool) {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.prompt, r.prompt.ID == id
	}
	o.Submit = func(id string, c session.Choice, done func(answer.Result)) {
		r.mu.Lock()
		r.answers = append(r.answers, c)
		r.mu.Unlock()
		done(answer.Result{Outcome: answer.Answered, Message: "typed " + c.Label})
	}
	r.s = New(o)
	r.ts = httptest.NewServer(r.s.Handler())
	t.Cleanup(r.ts.Close)
	r.prompt = waiting("s1", "/home/p/secret-project")
	r.s.Publish([]session.Shown{r.prompt})
	return r
}

func (r *rig) answered() []session.Choice {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]session.Choice(nil), r.answers...)
}

// client is a browser: a cookie jar, no redirects followed.
func (r *rig) client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// do sends a request as the page would (its own Origin on a POST).
func (r *rig) do(c *http.Client, method, path string, form url.Values, hdr map[string]string) (*http.Response, string) {
	r.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, r.ts.URL+path, body)
	if err != nil {
		r.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if method == http.MethodPost {
		req.Header.Set("Origin", r.ts.URL)
	}
	for k, v := range hdr {
		if k == "Host" {
			// The client's jar follows Host: the browser's cookie is
			// the one it has for the address it connects to.
			req.Host = v
			if c.Jar != nil {
				for _, ck := range c.Jar.Cookies(req.URL) {
					req.AddCookie(ck)
				}
			}
			continue
		}
		if v == "" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp, string(b)
}

// pair pairs a new browser with the code in force.
func (r *rig) pair() *http.Client {
	r.t.Helper()
	c := r.client()
	code, _, ok := r.s.PairCode()
	if !ok {
		r.t.Fatal("pairing is shut")
	}
	resp, body := r.do(c, http.MethodPost, "/pair", url.Values{"code": {code}, "name": {"test phone"}}, nil)
	if resp.StatusCode != http.StatusSeeOther {
		r.t.Fatalf("pairing: %s\n%s", resp.Status, body)
	}
	return c
}

var (
	csrfRe   = regexp.MustCompile(`data-csrf="([^"]+)"`)
	ticketRe = regexp.MustCompile(`name="t" value="([^"]+)"><button type="submit" class="choice" name="n" value="(\d)">([^<]*)</button>`)
)

// page loads the board and returns its CSRF token and its buttons' tickets
// by label.
func (r *rig) page(c *http.Client) (csrf string, tickets map[string]string, body string) {
	r.t.Helper()
	resp, body := r.do(c, http.MethodGet, "/", nil, nil)
	if resp.StatusCode != http.StatusOK {
		r.t.Fatalf("GET /: %s", resp.Status)
	}
	m := csrfRe.FindStringSubmatch(body)
	if m == nil {
		r.t.Fatalf("no CSRF token on the page:\n%s", body)
	}
	tickets = map[string]string{}
	for _, t := range ticketRe.FindAllStringSubmatch(body, -1) {
		tickets[t[3]] = t[1]
	}
	return m[1], tickets, body
}

var routes = []struct{ method, path string }{
	{"GET", "/"}, {"GET", "/s?id=s1"}, {"GET", "/rows"}, {"GET", "/events"}, {"GET", "/cat?id=s1"},
	{"GET", "/static/app.js"}, {"GET", "/manifest.webmanifest"}, {"GET", "/icon.png"},
	{"POST", "/answer"}, {"POST", "/mute"}, {"POST", "/snooze"},
}

// No device cookie (or a made-up one): 401 on every route, and nothing of
// any session in the answer.
func TestNoTokenIs401EverywhereAndShowsNothing(t *testing.T) {
	r := newRig(t, Options{})
	for _, cookie := range []string{"", CookieName + "=made-up-token"} {
		for _, rt := range routes {
			resp, body := r.do(r.client(), rt.method, rt.path, url.Values{"id": {"s1"}}, map[string]string{"Cookie": cookie})
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s %s (cookie %q): %s, want 401", rt.method, rt.path, cookie, resp.Status)
			}
			for _, secret := range []string{"secret-project", "made-by-claude", "s1", "Yes"} {
				if strings.Contains(body, secret) {
					t.Errorf("%s %s without a device shows %q:\n%s", rt.method, rt.path, secret, body)
				}
			}
		}
	}
	if len(r.answered()) != 0 {
		t.Errorf("answers typed without a device: %v", r.answered())
	}
}

// A paired device sees the session and its choices as buttons, with a
// strict CSP and no inline script.
func TestPairedDeviceSeesTheBoard(t *testing.T) {
	r := newRig(t, Options{})
	c := r.pair()
	_, tickets, body := r.page(c)
	for _, want := range []string{"secret-project", "waiting", "permission", "Bash: touch made-by-claude", "claude", "tmux %1"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q:\n%s", want, body)
		}
	}
	if tickets["Yes"] == "" || tickets["No"] == "" {
		t.Fatalf("no Yes/No buttons: %v\n%s", tickets, body)
	}
	resp, _ := r.do(c, "GET", "/", nil, nil)
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
		t.Errorf("CSP %q", csp)
	}
	if regexp.MustCompile(`<script(?:\s[^>]*)?>[^<]`).MatchString(body) || strings.Contains(body, " on") && regexp.MustCompile(`\son[a-z]+=`).MatchString(body) {
		t.Errorf("inline script on the page:\n%s", body)
	}
	for _, p := range []string{"/static/app.js", "/manifest.webmanifest", "/icon.png", "/cat?id=s1", "/rows"} {
		if resp, _ := r.do(c, "GET", p, nil, nil); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %s", p, resp.Status)
		}
	}
}

// The cookie is HttpOnly and SameSite=Strict, and Secure over TLS; the
// token is stored only as its hash, 0600; a revoked device is out.
func TestCookieFlagsAndHashedTokens(t *testing.T) {
	for _, tls := range []bool{false, true} {
		r := newRig(t, Options{TLS: tls})
		code, _, _ := r.s.PairCode()
		resp, _ := r.do(r.client(), "POST", "/pair", url.Values{"code": {code}}, nil)
		sc := resp.Header.Get("Set-Cookie")
		if !strings.Contains(sc, "HttpOnly") || !strings.Contains(sc, "SameSite=Strict") || strings.Contains(sc, "Secure") != tls {
			t.Errorf("TLS %v: Set-Cookie %q", tls, sc)
		}
		token := strings.TrimPrefix(strings.SplitN(sc, ";", 2)[0], CookieName+"=")
		path := filepath.Join(r.s.o.Home, DevicesName)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), token) || !strings.Contains(string(b), hashToken(token)) {
			t.Errorf("the devices file keeps the token, or not its hash:\n%s", b)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
			t.Errorf("devices file mode %v", st.Mode().Perm())
		}
		devs, _ := r.s.Devices().List()
		if len(devs) != 1 {
			t.Fatalf("devices %v", devs)
		}
		if err := r.s.Devices().Revoke(devs[0].ID); err != nil {
			t.Fatal(err)
		}
		if resp, _ := r.do(r.client(), "GET", "/", nil, map[string]string{"Cookie": CookieName + "=" + token}); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("a revoked device: %s", resp.Status)
		}
	}
}

// A page elsewhere (a forged Origin) cannot answer, mute or read, even
// with the device's cookie.
func TestForgedOriginRefused(t *testing.T) {
	r := newRig(t, Options{})
	c := r.pair()
	csrf, tickets, _ := r.page(c)
	for _, origin := range []string{"http://evil.example", "null", "http://127.0.0.1:1"} {
		resp, _ := r.do(c, "POST", "/answer", url.Values{"csrf": {csrf}, "t": {tickets["Yes"]}, "n": {"1"}}, map[string]string{"Origin": origin})
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("answer from Origin %s: %s", origin, resp.Status)
		}
		resp, body := r.do(c, "GET", "/rows", nil, map[string]string{"Origin": origin})
		if resp.StatusCode != http.StatusForbidden || strings.Contains(body, "secret-project") {
			t.Errorf("rows read from Origin %s: %s", origin, resp.Status)
		}
	}
	// No Origin at all on a change: refused too.
	resp, _ := r.do(c, "POST", "/mute", url.Values{"csrf": {csrf}, "id": {"s1"}}, map[string]string{"Origin": ""})
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("mute without Origin: %s", resp.Status)
	}
	// A cross-site fetch the browser marks as such.
	resp, _ = r.do(c, "GET", "/rows", nil, map[string]string{"Sec-Fetch-Site": "cross-site"})
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site fetch: %s", resp.Status)
	}
	if len(r.answered()) != 0 {
		t.Errorf("typed from another origin: %v", r.answered())
	}
	if p, _ := r.s.o.Prefs.Load(); p.Muted["s1"] {
		t.Error("muted without an Origin")
	}
}

// DNS rebinding: a name that resolves to 127.0.0.1 is still not this
// server's name.
func TestWrongHostRefused(t *testing.T) {
	r := newRig(t, Options{Hosts: []string{"box.tail1234.ts.net"}})
	c := r.pair()
	port := r.ts.Listener.Addr().(*net.TCPAddr).Port
	for _, host := range []string{"evil.example", "evil.example:" + strconv.Itoa(port), "127.0.0.1.evil.example"} {
		resp, body := r.do(c, "GET", "/", nil, map[string]string{"Host": host})
		if resp.StatusCode != http.StatusMisdirectedRequest || strings.Contains(body, "secret-project") {
			t.Errorf("Host %q: %s", host, resp.Status)
		}
		resp, _ = r.do(r.client(), "POST", "/pair", url.Values{"code": {"X"}}, map[string]string{"Host": host, "Origin": "http://" + host})
		if resp.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("pair with Host %q: %s", host, resp.Status)
		}
	}
	for _, host := range []string{"localhost:8080", "box.tail1234.ts.net", "[::1]:9"} {
		if resp, _ := r.do(c, "GET", "/", nil, map[string]string{"Host": host}); resp.StatusCode != http.StatusOK {
			t.Errorf("Host %q: %s, want 200", host, resp.Status)
		}
	}
}

// Every change needs the device's own CSRF token.
func TestMissingCSRFRefused(t *testing.T) {
	r := newRig(t, Options{})
	c := r.pair()
	other := r.pair()
	csrf, tickets, _ := r.page(c)
	otherCSRF, _, _ := r.page(other)
	if otherCSRF == csrf {
		t.Fatal("two devices share a CSRF token")
	}
	for _, bad := range []string{"", "x", otherCSRF} {
		for _, p := range []string{"/mute", "/snooze", "/answer"} {
			resp, _ := r.do(c, "POST", p, url.Values{"csrf": {bad}, "id": {"s1"}, "t": {tickets["Yes"]}}, nil)
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("%s with CSRF %q: %s", p, bad, resp.Status)
			}
		}
	}
	if len(r.answered()) != 0 {
		t.Errorf("typed without the CSRF token: %v", r.answered())
	}
	if p, _ := r.s.o.Prefs.Load(); p.Muted["s1"] || !p.Snoozed["s1"].IsZero() {
		t.Errorf("changed without the CSRF token: %+v", p)
	}
	// With it, mute works.
	if resp, body := r.do(c, "POST", "/mute", url.Values{"csrf": {csrf}, "id": {"s1"}}, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("mute: %s %s", resp.Status, body)
	}
	if p, _ := r.s.o.Prefs.Load(); !p.Muted["s1"] {
		t.Error("not muted")
	}
	if resp, _ := r.do(c, "POST", "/snooze", url.Values{"csrf": {csrf}, "id": {"s1"}}, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("snooze: %s", resp.Status)
	}
	if p, _ := r.s.o.Prefs.Load(); !p.Snoozed["s1"].After(r.now) {
		t.Error("not snoozed")
	}
}

// An answer button's request is good once, for the device it was shown
// to; the label shown is the one expected.
func TestAnswerIsSingleUse(t *testing.T) {
	r := newRig(t, Options{})
	c := r.pair()
	other := r.pair()
	csrf, tickets, _ := r.page(c)
	form := url.Values{"csrf": {csrf}, "t": {tickets["Yes"]}, "n": {"1"}}
	resp, body := r.do(c, "POST", "/answer", form, map[string]string{"X-Mew-Fetch": "1"})
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "typed Yes") {
		t.Fatalf("answer: %s %s", resp.Status, body)
	}
	// Replayed: refused, nothing typed again.
	if resp, body := r.do(c, "POST", "/answer", form, nil); resp.StatusCode != http.StatusConflict {
		t.Errorf("replayed answer: %s %s", resp.Status, body)
	}
	// Another device's ticket is not this one's.
	oc, otickets, _ := r.page(other)
	_ = oc
	if resp, _ := r.do(c, "POST", "/answer", url.Values{"csrf": {csrf}, "t": {otickets["No"]}}, nil); resp.StatusCode != http.StatusConflict {
		t.Errorf("another device's ticket: %s", resp.Status)
	}
	if got := r.answered(); len(got) != 1 || got[0].Label != "Yes" {
		t.Errorf("typed %v, want Yes once", got)
	}
}

// A prompt that changed between the page and the press is never
// answered: the label the person saw is expected.
func TestAnswerRefusedWhenThePromptChanged(t *testing.T) {
	r := newRig(t, Options{})
	c := r.pair()
	csrf, tickets, _ := r.page(c)
	r.mu.Lock()
	r.prompt.Choices = []session.Choice{{N: 1, Label: "Yes, and delete the repository"}, {N: 2, Label: "No"}}
	r.mu.Unlock()
	resp, body := r.do(c, "POST", "/answer", url.Values{"csrf": {csrf}, "t": {tickets["Yes"]}}, map[string]string{"X-Mew-Fetch": "1"})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "prompt changed") {
		t.Errorf("changed prompt: %s %s", resp.Status, body)
	}
	_, tickets, _ = r.page(c)
	r.mu.Lock()
	r.prompt.State = session.Working
	r.mu.Unlock()
	resp, body = r.do(c, "POST", "/answer", url.Values{"csrf": {csrf}, "t": {tickets["No"]}}, map[string]string{"X-Mew-Fetch": "1"})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(body, "not waiting") {
		t.Errorf("no longer waiting: %s %s", resp.Status, body)
	}
	if len(r.answered()) != 0 {
		t.Errorf("typed into a changed prompt: %v", r.answered())
	}
}

// Guessing the pairing code stops after MaxPairTries: even the right code
// is refused then, until the cooldown gives a new one.
func TestPairingBruteForceStopped(t *testing.T) {
	r := newRig(t, Options{})
	code, _, _ := r.s.PairCode()
	for i := 0; i < MaxPairTries; i++ {
		resp, _ := r.do(r.client(), "POST", "/pair", url.Values{"code": {"AAAAAAAA"}}, nil)
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("wrong code %d: %s", i, resp.Status)
		}
	}
	c := r.client()
	resp, _ := r.do(c, "POST", "/pair", url.Values{"code": {code}}, nil)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Set-Cookie") != "" {
		t.Fatalf("the right code after %d wrong ones: %s, cookie %q", MaxPairTries, resp.Status, resp.Header.Get("Set-Cookie"))
	}
	if devs, _ := r.s.Devices().List(); len(devs) != 0 {
		t.Fatalf("paired: %v", devs)
	}
	r.mu.Lock()
	r.now = r.now.Add(PairCooldown + time.Second)
	r.mu.Unlock()
	fresh, _, ok := r.s.PairCode()
	if !ok || fresh == code {
		t.Fatalf("after the cooldown: code %q open %v (old %q)", fresh, ok, code)
	}
	if resp, _ := r.do(c, "POST", "/pair", url.Values{"code": {code}}, nil); resp.StatusCode != http.StatusForbidden {
		t.Errorf("the burned code after the cooldown: %s", resp.Status)
	}
	r.pair()
}

// A pairing code pairs one device.
func TestPairingCodeUsedOnce(t *testing.T) {
	r := newRig(t, Options{})
	code, _, _ := r.s.PairCode()
	r.pair()
	if resp, _ := r.do(r.client(), "POST", "/pair", url.Values{"code": {code}}, nil); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a used code: %s", resp.Status)
	}
}

// Hostile text from a session (its folder, title, prompt, labels) is shown
// as text: no markup, no terminal escape.
func TestHostileTextRenderedInert(t *testing.T) {
	r := newRig(t, Options{})
	s := waiting("s1", "/tmp/<script>alert(1)\x1b[31mred\x1b]52;c;aGk=\x07")
	s.ToolDetail = "<img src=x onerror=alert(2)>\x1b[2J\x9b31m"
	s.Agent = "<b>claude</b>"
	s.Choices = []session.Choice{{N: 1, Label: "<script>alert(3)</script>"}, {N: 2, Label: "No\x1b[0m"}}
	r.prompt = s
	r.s.Publish([]session.Shown{s})
	c := r.pair()
	_, _, body := r.page(c)
	resp, rows := r.do(c, "GET", "/rows", nil, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatal(resp.Status)
	}
	for _, b := range []string{body, rows} {
		for _, bad := range []string{"<script>alert", "<img src=x", "<b>claude", "\x1b", "\x07", "\u009b"} {
			if strings.Contains(b, bad) {
				t.Errorf("the page carries %q:\n%q", bad, b)
			}
		}
		for _, want := range []string{"&lt;script&gt;alert(1)", "&lt;img src=x onerror=alert(2)&gt;", "&lt;script&gt;alert(3)&lt;/script&gt;"} {
			if !strings.Contains(b, want) {
				t.Errorf("the page lacks the escaped %q:\n%s", want, b)
			}
		}
	}
}

// The page hears of an update at once (server-sent events).
func TestEventsFollowUpdates(t *testing.T) {
	r := newRig(t, Options{})
	c := r.pair()
	req, _ := http.NewRequest("GET", r.ts.URL+"/events", nil)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	read := func() string {
		buf := make([]byte, 256)
		n, err := resp.Body.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		return string(buf[:n])
	}
	if got := read(); !strings.Contains(got, "event: change\ndata: 1\n") {
		t.Fatalf("first event %q", got)
	}
	r.s.Publish(nil)
	if got := read(); !strings.Contains(got, "data: 2\n") {
		t.Fatalf("after an update %q", got)
	}
}

// A link from another site (an alert in a chat's web page) opens without
// the cookie (SameSite=Strict): the page says so and links to itself; no
// data. A cross-site request that is not a navigation is refused.
func TestCrossSiteLinkShowsNothingAndLinksBack(t *testing.T) {
	r := newRig(t, Options{})
	c := r.pair()
	resp, body := r.do(r.client(), "GET", "/s?id=s1", nil, map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, `href="/s?id=s1"`) || strings.Contains(body, "secret-project") {
		t.Errorf("cross-site link: %s\n%s", resp.Status, body)
	}
	resp, _ = r.do(c, "GET", "/rows", nil, map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"})
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site fetch: %s", resp.Status)
	}
}

// A row that did not change is the same HTML on the next update (its
// tickets stay until used), so it is drawn once; a used ticket is
// replaced.
func TestUnchangedRowsAreTheSameHTML(t *testing.T) {
	r := newRig(t, Options{})
	c := r.pair()
	_, a := r.do(c, "GET", "/rows", nil, nil)
	r.s.Publish([]session.Shown{r.prompt})
	_, b := r.do(c, "GET", "/rows", nil, nil)
	strip := regexp.MustCompile(`data-now="\d+"`)
	if strip.ReplaceAllString(a, "") != strip.ReplaceAllString(b, "") {
		t.Fatalf("the same row drew differently:\n%s\n%s", a, b)
	}
	csrf, tickets, _ := r.page(c)
	if resp, _ := r.do(c, "POST", "/answer", url.Values{"csrf": {csrf}, "t": {tickets["No"]}}, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("answer: %s", resp.Status)
	}
	_, again, _ := r.page(c)
	if again["No"] == tickets["No"] || again["Yes"] != tickets["Yes"] {
		t.Errorf("tickets after No was used: %v, before %v", again, tickets)
	}
}

// A FIFO (or anything but a file) in the devices file's place lets
// nobody in and hangs nothing.
func TestDevicesFileFIFO(t *testing.T) {
	r := newRig(t, Options{})
	if err := syscall.Mkfifo(filepath.Join(r.s.o.Home, DevicesName), 0o600); err != nil {
		t.Skip(err)
	}
	done := make(chan int)
	go func() {
		resp, _ := r.do(r.client(), "GET", "/", nil, map[string]string{"Cookie": CookieName + "=x"})
		done <- resp.StatusCode
	}()
	select {
	case code := <-done:
		if code != http.StatusUnauthorized {
			t.Errorf("status %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a FIFO as the devices file hung the request")
	}
	if _, _, err := r.s.Devices().Add("x", time.Now()); err == nil {
		t.Error("paired over a FIFO")
	}
}

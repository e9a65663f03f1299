// Package browsertest drives Debian's headless Chromium from tests through
// the DevTools protocol (chromedp), as a person uses the web board: it
// pairs with the code `mew serve` shows, reads the page's visible text,
// presses buttons with the mouse, and saves screenshots. A test that needs
// it skips, saying why, only when no chromium is installed.
package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Find is the Chromium to run: $MEW_CHROMIUM, else chromium or
// chromium-browser on the PATH; "" when there is none.
func Find() string {
	if p := os.Getenv("MEW_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Need skips t when no Chromium is installed.
func Need(t testing.TB) string {
	t.Helper()
	p := Find()
	if p == "" {
		t.Skip("no chromium on the PATH (apt-get install chromium; .ci/run installs it): the real-browser test is skipped")
	}
	return p
}

// Viewport is the window the page is seen in.
type Viewport struct {
	W, H   int64
	Scale  float64
	Mobile bool
}

var (
	Desktop = Viewport{W: 1100, H: 900, Scale: 1}
	// Phone is a phone held upright (a 390×844 pt screen at 3×).
	Phone = Viewport{W: 390, H: 844, Scale: 3, Mobile: true}
)

// Browser is one Chromium with one tab.
type Browser struct {
	t   testing.TB
	Ctx context.Context
}

// Start runs a fresh Chromium (its own profile) for t, closed when t ends.
func Start(t testing.TB, vp Viewport) *Browser {
	t.Helper()
	path := Need(t)
	// As root on a CI machine: no sandbox; nothing reaches the network
	// besides the test's own server.
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("mute-audio", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(int(vp.W), int(vp.H)),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	vopts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(vp.Scale)}
	if vp.Mobile {
		vopts = append(vopts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(vp.W, vp.H, vopts...)); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return &Browser{t: t, Ctx: ctx}
}

// Go opens url in the tab.
func (b *Browser) Go(url string) {
	b.t.Helper()
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(url)); err != nil {
		b.t.Fatalf("navigate %s: %v", url, err)
	}
}

// Eval evaluates a JavaScript expression in the page (DevTools evaluation,
// which the page's CSP does not govern).
func Eval[T any](b *Browser, expr string) (T, error) {
	return chromedp.Run(b.Ctx, chromedp.Evaluate[T](expr))
}

// Text is the page's visible text, as a person reads it.
func (b *Browser) Text() string {
	s, err := Eval[string](b, `document.body ? document.body.innerText : ""`)
	if err != nil {
		return ""
	}
	return s
}

// WaitText waits until the visible text contains every one of want.
func (b *Browser) WaitText(timeout time.Duration, want ...string) string {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		txt := b.Text()
		missing := ""
		for _, w := range want {
			if !strings.Contains(txt, w) {
				missing = w
				break
			}
		}
		if missing == "" {
			return txt
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("the page never showed %q within %v; it shows:\n%s", missing, timeout, txt)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// WaitMatch waits until the visible text matches re: for what the page's
// own script writes after the HTML is drawn (a busy machine can run the
// script well after the text first shows).
func (b *Browser) WaitMatch(timeout time.Duration, re *regexp.Regexp) string {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		txt := b.Text()
		if re.MatchString(txt) {
			return txt
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("the page never matched %q within %v; it shows:\n%s", re, timeout, txt)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func buttonExpr(label string) string {
	q, _ := json.Marshal(label)
	return fmt.Sprintf(`[...document.querySelectorAll("button")].find(b => b.innerText.trim() === %s)`, q)
}

// Button is where the button labelled label is on the screen, and whether
// a person can see and press it: inside the viewport's width, not
// disabled, not hidden.
type Button struct {
	X, Y, W, H    float64
	Visible, Live bool
}

// FindButton looks for the button labelled label.
func (b *Browser) FindButton(label string) (Button, bool) {
	v, err := Eval[*Button](b, fmt.Sprintf(`(() => { const e = %s; if (!e) return null;
		const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
		return {X: r.x, Y: r.y, W: r.width, H: r.height,
			Visible: r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none" && r.right <= window.innerWidth + 1,
			Live: !e.disabled}; })()`, buttonExpr(label)))
	if err != nil || v == nil {
		return Button{}, false
	}
	return *v, true
}

// WaitButton waits for a visible button labelled label.
func (b *Browser) WaitButton(label string, timeout time.Duration) Button {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if btn, ok := b.FindButton(label); ok && btn.Visible && btn.Live {
			return btn
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("no button %q within %v; the page shows:\n%s", label, timeout, b.Text())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Press clicks the button labelled label with the mouse (scrolled into
// view first, as a person would), and returns when it was pressed.
func (b *Browser) Press(label string) time.Time {
	b.t.Helper()
	for tries := 1; ; tries++ {
		at := time.Now()
		err := chromedp.Do(b.Ctx, chromedp.Click(chromedp.JSPath(buttonExpr(label))))
		if err == nil {
			return at
		}
		// The board redraws its rows as the list changes: a button found
		// and then replaced before the mouse reached it was not pressed
		// (the node is looked up before any mouse event is sent). A
		// person's finger lands on the new one; the test looks again.
		redrawn := strings.Contains(err.Error(), "Could not find node with given id") || errors.Is(err, chromedp.ErrInvalidDimensions)
		if !redrawn || tries == 5 {
			b.t.Fatalf("press %q: %v", label, err)
		}
		b.t.Logf("press %q: the button was redrawn before the click (%v): pressing the new one", label, err)
	}
}

// Type types s into the input named name.
func (b *Browser) Type(name, s string) {
	b.t.Helper()
	if err := chromedp.Do(b.Ctx, chromedp.SendKeys(chromedp.CSS(`input[name="`+name+`"]`), s)); err != nil {
		b.t.Fatalf("type into %s: %v", name, err)
	}
}

// Pair opens the pairing link `mew serve` shows (the code in it), names the
// device and presses "Pair this device"; it returns once the board shows.
func (b *Browser) Pair(link, name string) {
	b.t.Helper()
	b.Go(link)
	b.WaitButton("Pair this device", 10*time.Second)
	b.Type("name", name)
	b.Press("Pair this device")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if ok, _ := Eval[bool](b, `!!document.getElementById("rows")`); ok {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("pairing did not reach the board; the page shows:\n%s", b.Text())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Screenshot saves the whole page as dir/name.png and fails the test when
// it is blank (one colour: nothing drawn). It returns the file's path.
func (b *Browser) Screenshot(dir, name string) string {
	b.t.Helper()
	buf, err := chromedp.Run(b.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	if colours(img, 8) < 8 {
		b.t.Errorf("the screenshot %s is nearly blank", name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s (%dx%d)", path, img.Bounds().Dx(), img.Bounds().Dy())
	return path
}

// colours counts distinct colours in img, up to max.
func colours(img image.Image, max int) int {
	seen := map[[3]uint32]bool{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y += 3 {
		for x := r.Min.X; x < r.Max.X; x += 3 {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			seen[[3]uint32{cr >> 8, cg >> 8, cb >> 8}] = true
			if len(seen) >= max {
				return len(seen)
			}
		}
	}
	return len(seen)
}

// ScreenshotDir is where the browser tests keep their screenshots:
// $MEW_SCREENSHOTS, else a folder in the system's temporary directory that
// outlives the test (a person looks at them after the run).
func ScreenshotDir() string {
	if d := os.Getenv("MEW_SCREENSHOTS"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "mew-screenshots")
}

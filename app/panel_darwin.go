//go:build darwin && cgo

package app

import (
	"sync"
	"time"
	"unsafe"

	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"
)

// The panel and its view live for the whole app (darwinkit rule "retained
// globals"): created once, retained, hidden with orderOut and never
// closed or released. Main thread only.
var (
	panel     appkit.Panel
	panelView appkit.View
	// panelDelegate: darwinkit keeps the wrapper alive once set; the global
	// keeps the Go value reachable too.
	panelDelegate *appkit.WindowDelegate
)

// The view's state (darwinkit rule "no Go fields on a subclassed view"):
// package variables, main thread only, since there is one panel view.
var (
	// pointsPerPixel is the size of a board pixel on the panel's screen.
	pointsPerPixel = pointsPerPixelFor(2)
	// frameImage is the current frame as an image, retained while it is
	// current (replaced on every redraw, so retained by hand).
	frameImage    appkit.Image
	hasFrameImage bool
	frameW        float64 // the frame's size in points
	frameH        float64
)

// mewPanelView is the panel's content: it draws the board's frame and
// turns clicks into board pixels. It has no Go fields (darwinkit rule):
// darwinkit rebuilds this struct from the object pointer on every call
// into Go, so it must be exactly the embedded wrapper. The Go type name is
// the Objective-C class name: keep it unique.
type mewPanelView struct {
	appkit.View `objc:"NSView"`
}

// A Go field added to mewPanelView makes this index non-zero, and the
// package (make check-darwin, for both arches) stops compiling.
var _ = [1]struct{}{}[unsafe.Sizeof(mewPanelView{})-unsafe.Sizeof(unsafe.Pointer(nil))]

// DrawRect draws the current frame as one image, scaled by whole physical
// pixels with no smoothing and no antialiasing.
func (v mewPanelView) DrawRect(dirty foundation.Rect) {
	ctx := appkit.GraphicsContext_CurrentContext()
	ctx.SetShouldAntialias(false)
	ctx.SetImageInterpolation(appkit.ImageInterpolationNone)
	if !hasFrameImage {
		return
	}
	// The view is flipped: (0, 0) is the top left, like the frame's; a
	// frame taller than the panel loses its bottom.
	dst := foundation.Rect{Size: foundation.Size{Width: frameW, Height: frameH}}
	frameImage.DrawInRectFromRectOperationFractionRespectFlippedHints(
		dst, foundation.Rect{}, appkit.CompositingOperationCopy, 1, true, nil)
}

// IsFlipped puts the origin at the top left, as in the board's frames.
func (v mewPanelView) IsFlipped() bool { return true }

// AcceptsFirstMouse: Mew is never the active app, and the first click on
// its panel must act, not just activate.
func (v mewPanelView) AcceptsFirstMouse(event appkit.Event) bool { return true }

// MouseDown hands the click to the controller, which decides (a row
// jumps, a choice button answers); main thread.
func (v mewPanelView) MouseDown(event appkit.Event) {
	p := v.ConvertPointFromView(event.LocationInWindow(), nil) // view points, flipped
	x, y := toLogical(p.X, p.Y, pointsPerPixel)
	switch act := ctrl.ClickAt(x, y); act.Kind {
	case clickJump:
		jumpTo(act.ID)
	case clickAnswer:
		answerTo(act.ID, act.Choice)
	}
}

var registerView = sync.OnceValue(func() objc.UserClass[mewPanelView] {
	// A second class of the same name fails: register once.
	cls := objc.NewClass[mewPanelView](
		objc.Sel("drawRect:"),
		objc.Sel("isFlipped"),
		objc.Sel("acceptsFirstMouse:"),
		objc.Sel("mouseDown:"),
	)
	objc.RegisterClass(cls)
	return cls
})

func setupPanel() {
	start := foundation.Rect{Size: foundation.Size{Width: 1, Height: 1}}
	// Non-activating from the start: changing the style later is unreliable.
	panel = appkit.NewPanelWithContentRectStyleMaskBackingDefer(start,
		appkit.WindowStyleMaskBorderless|appkit.WindowStyleMaskNonactivatingPanel,
		appkit.BackingStoreBuffered, false)
	objc.Retain(&panel)
	panel.SetReleasedWhenClosed(false) // never released, even if something closes it
	panel.SetLevel(appkit.FloatingWindowLevel)
	panel.SetCollectionBehavior(appkit.WindowCollectionBehaviorCanJoinAllSpaces |
		appkit.WindowCollectionBehaviorFullScreenAuxiliary |
		appkit.WindowCollectionBehaviorStationary |
		appkit.WindowCollectionBehaviorIgnoresCycle)
	panel.SetHidesOnDeactivate(false) // an accessory app is never active: stay up
	panel.SetFloatingPanel(true)
	panel.SetBecomesKeyOnlyIfNeeded(true)
	panel.SetOpaque(true)
	panel.SetHasShadow(true)

	// alloc + initWithFrame: one init, owned by us (+1) for the app's life.
	alloc := objc.Call[objc.Object](registerView().Class, objc.Sel("alloc")) // objc:+mewPanelView
	panelView = appkit.ViewFrom(alloc.Ptr()).InitWithFrame(start)
	panel.SetContentView(panelView)

	panelDelegate = &appkit.WindowDelegate{}
	panelDelegate.SetWindowDidChangeOcclusionState(func(foundation.Notification) {
		occluded := panel.OcclusionState()&appkit.WindowOcclusionStateVisible == 0
		apply(ctrl.SetOccluded(occluded, time.Now()))
	})
	panel.SetDelegate(panelDelegate)
}

// placePanel sizes the panel for the current frame at the top right of
// the visible area of the screen with Mew's menu-bar item (panelScreen),
// below where Mew's own banners show (belowBanners, panelRect).
func placePanel() {
	f, ok := ctrl.Frame()
	if !ok {
		return
	}
	screen := panelScreen()
	if screen.IsNil() {
		return // no screen (display asleep, being reconfigured): keep where it is
	}
	pointsPerPixel = pointsPerPixelFor(screen.BackingScaleFactor())
	vf := screen.VisibleFrame()
	visible := belowBanners(rect{X: vf.Origin.X, Y: vf.Origin.Y, W: vf.Size.Width, H: vf.Size.Height}, notifyState().Post)
	r := panelRect(visible, f.W, f.H, pointsPerPixel)
	frameW, frameH = float64(f.W)*pointsPerPixel, float64(f.H)*pointsPerPixel
	panel.SetFrameDisplay(foundation.Rect{
		Origin: foundation.Point{X: r.X, Y: r.Y},
		Size:   foundation.Size{Width: r.W, Height: r.H},
	}, true)
}

// panelScreen is the screen the panel goes on: the one whose menu bar
// shows Mew's item (its button's window), else the primary screen (the
// first, with the menu bar). Not mainScreen: that is the screen of the
// key window, which follows whatever app the person uses.
func panelScreen() appkit.Screen {
	if !statusItem.IsNil() {
		if w := statusItem.Button().Window(); !w.IsNil() {
			if s := w.Screen(); !s.IsNil() {
				return s
			}
		}
	}
	if all := appkit.Screen_Screens(); len(all) > 0 {
		return all[0]
	}
	return appkit.Screen{}
}

// showPanel puts the panel in front without activating Mew (the point of
// a non-activating panel): the person's terminal keeps the keyboard.
func showPanel() { panel.OrderFrontRegardless() }

// hidePanel hides the panel; it is never closed or released.
func hidePanel() { panel.OrderOut(nil) }

// redrawPanel turns the current frame into the view's image and asks
// AppKit to draw it.
func redrawPanel() {
	f, ok := ctrl.Frame()
	if !ok {
		return
	}
	data, err := framePNG(f)
	if err != nil {
		logger.Printf("frame: %v", err)
		return
	}
	img := appkit.NewImageWithData(data)
	if img.IsNil() {
		logger.Print("frame: AppKit could not read the frame image")
		return
	}
	// Retained while current: the old one is released as the new one
	// takes its place.
	img.Retain()
	if hasFrameImage {
		frameImage.Release()
	}
	frameImage, hasFrameImage = img, true
	panelView.SetNeedsDisplay(true)
}

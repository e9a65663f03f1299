package app

// The redraw timer's decisions (timer_darwin.go carries them out; the run
// policy, shouldTick, is the controller's).

// timerModes are the run loop modes the 8 Hz timer is added to, by name.
// Not kCFRunLoopCommonModes: darwinkit's RunLoopCommonModes is a Go string,
// so every call sends a new NSString, and CFRunLoopAddTimer recognises the
// common modes by pointer identity (CFRunLoop.c): the timer would land in
// a mode of that name that never runs, and the panel would freeze on its
// first frame. A named mode is found by value, so these three work: the
// default mode, menu tracking (the status menu is open) and modal panels
// (Mew shows none, but a system sheet such as the Automation prompt may
// run one).
var timerModes = []string{
	"kCFRunLoopDefaultMode",      // NSDefaultRunLoopMode
	"NSEventTrackingRunLoopMode", // NSEventTrackingRunLoopMode (AppKit)
	"NSModalPanelRunLoopMode",    // NSModalPanelRunLoopMode (AppKit)
}

//go:build !gnustep

package app

// harnessBanners is, in the GNUstep harness only (banners_gnustep.go),
// an authorization for banners that GNUstep cannot give (it has no
// UserNotifications): never in the app.
func harnessBanners() (notifyAnswer, bool) { return notifyAnswer{}, false }

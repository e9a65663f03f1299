//go:build gnustep

package app

import "os"

// harnessBanners, in the GNUstep harness (tools/gnustep): with
// MEW_GNUSTEP_BANNERS set, banners count as available and authorized, so
// the panel is placed below them (belowBanners) as on a Mac that allows
// them. GNUstep has no UserNotifications classes: nothing is posted (the
// center is not found).
func harnessBanners() (notifyAnswer, bool) {
	if os.Getenv("MEW_GNUSTEP_BANNERS") == "" {
		return notifyAnswer{}, false
	}
	return notifyAnswer{Known: true, Status: unStatusAuthorized}, true
}

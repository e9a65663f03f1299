// Copied into the scratch cmd/mew by build.sh (project file, GNUstep
// harness only).
#import <AppKit/AppKit.h>
#import <GNUstepGUI/GSDisplayServer.h>

// GNUstep follows OpenStep: the command's arguments that are not options
// are files for the app to open at launch, and `mew app`'s "app" would be
// opened as a document (a modal "cannot open" panel, and
// applicationDidFinishLaunching: never comes). macOS hands a command-line
// argument to no one. No files, then.
@interface NSApplication (MewGSNoOpenFiles)
@end

@implementation NSApplication (MewGSNoOpenFiles)
- (NSArray *)_openFiles {
	return nil;
}
@end

// primeMouse has the X back end read its mouse settings now, before
// anything can be clicked. gnustep-back reads them lazily, at the first
// button press of the process (XGServerEvent.m, -initializeMouse), and
// there also registers for their changes with the distributed
// notification center: a round trip to gdnc (launched if not running)
// during which the run loop runs nested and queues the X events that came
// in. The first click's release was queued before its press, so the
// stand-in's NSButton got mouseDown: after its mouseUp and tracked until
// the next click's release: the first click never opened the menu, the
// second did (seen with a trace of the events the app dequeued). The
// method is the back end's, not public API.
static void primeMouse(void) {
	GSDisplayServer *server = GSCurrentServer();
	if ([server respondsToSelector:@selector(initializeMouse)]) {
		[server performSelector:@selector(initializeMouse)];
	}
}

// GNUstep has no status bar here (+systemStatusBar is nil without a
// menu-bar host) and its NSStatusItem predates -button (macOS 10.10).
// The harness's stand-ins keep the item's real parts: a real NSButton
// for the image, title and tooltip, and the real NSMenu Mew sets.
@interface MewGSStatusItem : NSObject {
	NSButton *_button;
	NSMenu *_menu;
}
- (NSButton *)button;
- (void)setMenu:(NSMenu *)menu;
- (NSMenu *)menu;
@end

@implementation MewGSStatusItem
- (id)init {
	self = [super init];
	primeMouse();
	_button = [[NSButton alloc] initWithFrame:NSMakeRect(0, 0, 40, 22)];
	// Where a menu bar would show it: a small window at the top edge,
	// whose click opens the menu as macOS does (menuNeedsUpdate: first).
	// Not at the left: GNUstep's main menu (app/mainmenu_darwin.go) is a
	// window there, and which of the two is on top would decide where a
	// click goes. The title names the X window for the tests (xdotool
	// search --name).
	NSRect screen = [[NSScreen mainScreen] frame];
	NSWindow *w = [[NSWindow alloc] initWithContentRect:NSMakeRect(200, NSMaxY(screen) - 22, 40, 22)
	                                          styleMask:NSBorderlessWindowMask
	                                            backing:NSBackingStoreBuffered
	                                              defer:NO];
	[w setTitle:@"Mew status item"];
	[w setContentView:_button];
	[_button setTarget:self];
	[_button setAction:@selector(openMenu:)];
	[w orderFrontRegardless];
	return self;
}
- (void)openMenu:(id)sender {
	id d = [_menu delegate];
	if ([d respondsToSelector:@selector(menuNeedsUpdate:)]) {
		[d menuNeedsUpdate:_menu];
	}
	[NSMenu popUpContextMenu:_menu withEvent:[NSApp currentEvent] forView:_button];
}
- (NSButton *)button {
	return _button;
}
- (void)setMenu:(NSMenu *)menu {
	[menu retain];
	[_menu release];
	_menu = menu;
}
- (NSMenu *)menu {
	return _menu;
}
@end

@interface MewGSStatusBar : NSObject {
	NSMutableArray *_items;
}
- (id)statusItemWithLength:(CGFloat)length;
@end

@implementation MewGSStatusBar
- (id)statusItemWithLength:(CGFloat)length {
	if (_items == nil) {
		_items = [NSMutableArray new];
	}
	MewGSStatusItem *it = [[MewGSStatusItem new] autorelease];
	[_items addObject:it];
	return it;
}
@end

@implementation NSStatusBar (MewGSStatusBar)
+ (NSStatusBar *)systemStatusBar {
	static MewGSStatusBar *bar;
	if (bar == nil) {
		bar = [MewGSStatusBar new];
	}
	return (NSStatusBar *)bar;
}
@end

// +[NSDate now] is macOS 10.15; GNUstep 0.29 has +date. The 8 Hz timer
// starts by setting its fire date to now: without this it never fires.
@implementation NSDate (MewGSNow)
+ (id)now {
	return [self date];
}
@end

// Apple's NSDefaultRunLoopMode is the string "kCFRunLoopDefaultMode"
// (Mew adds its timer by that name, app/timer.go); GNUstep's is
// "NSDefaultRunLoopMode". The timer is added under GNUstep's name, or it
// would sit in a mode GNUstep's run loop never runs.
@implementation NSRunLoop (MewGSModes)
- (void)mewgs_addTimer:(NSTimer *)timer forMode:(NSString *)mode {
	if ([mode isEqual:@"kCFRunLoopDefaultMode"]) {
		mode = NSDefaultRunLoopMode;
	}
	[self mewgs_addTimer:timer forMode:mode]; // the original, exchanged in +load
}
+ (void)load {
	method_exchangeImplementations(class_getInstanceMethod(self, @selector(addTimer:forMode:)),
		class_getInstanceMethod(self, @selector(mewgs_addTimer:forMode:)));
}
@end

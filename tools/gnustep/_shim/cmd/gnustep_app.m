// Copied into the scratch cmd/mew by build.sh (project file, GNUstep
// harness only).
#import <AppKit/AppKit.h>

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
	_button = [[NSButton alloc] initWithFrame:NSMakeRect(0, 0, 40, 22)];
	// Where a menu bar would show it: a small window at the top left,
	// whose click opens the menu as macOS does (menuNeedsUpdate: first).
	NSRect screen = [[NSScreen mainScreen] frame];
	NSWindow *w = [[NSWindow alloc] initWithContentRect:NSMakeRect(0, NSMaxY(screen) - 22, 40, 22)
	                                          styleMask:NSBorderlessWindowMask
	                                            backing:NSBackingStoreBuffered
	                                              defer:NO];
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

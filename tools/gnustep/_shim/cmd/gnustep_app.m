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
	return self;
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

// GNUstep 0.29's block timers do not fire here (its base library is
// built by GCC, without blocks): the block becomes the target of an
// ordinary target/selector timer, called the way a block is called.
struct MewGSBlockLiteral {
	void *isa;
	int flags;
	int reserved;
	void (*invoke)(void *, id);
};

@interface MewGSTimerBlockTarget : NSObject {
	struct MewGSBlockLiteral *_block;
}
- (id)initWithBlock:(void *)block;
- (void)fire:(NSTimer *)timer;
@end

@implementation MewGSTimerBlockTarget
- (id)initWithBlock:(void *)block {
	self = [super init];
	_block = (struct MewGSBlockLiteral *)[(id)block retain];
	return self;
}
- (void)fire:(NSTimer *)timer {
	_block->invoke(_block, timer);
}
@end

@implementation NSTimer (MewGSBlockTimer)
+ (NSTimer *)timerWithTimeInterval:(NSTimeInterval)ti repeats:(BOOL)repeats block:(id)block {
	MewGSTimerBlockTarget *t = [[[MewGSTimerBlockTarget alloc] initWithBlock:block] autorelease];
	return [self timerWithTimeInterval:ti target:t selector:@selector(fire:) userInfo:nil repeats:repeats];
}
@end

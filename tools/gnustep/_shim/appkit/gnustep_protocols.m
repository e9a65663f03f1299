// GNUstep's side of darwinkit's delegate adaptors (project file; the
// build script copies it into the scratch darwinkit's appkit package).
//
// 1. libobjc4 knows a protocol only once a class adopting it is loaded:
//    MewGSProtocols adopts the three delegate protocols Mew sets, or
//    objc_getProtocol returns NULL and class_addProtocol crashes.
// 2. libobjc4 keeps no @optional protocol methods
//    (protocol_copyMethodDescriptionList(p, NO, …) is always empty, see
//    its runtime.h), and every AppKit delegate method is optional: the
//    adaptor class darwinkit builds would have no methods, and
//    applicationDidFinishLaunching: would never reach Go. The MewGS_
//    protocols declare the delegate methods Mew uses as required, so the
//    runtime keeps them with their types; the patched objc/protocol.go
//    reads them (all as optional) when the real protocol lists nothing.
#import <AppKit/AppKit.h>

@protocol MewGS_NSApplicationDelegate
- (void)applicationDidFinishLaunching:(NSNotification *)n;
- (void)applicationDidChangeScreenParameters:(NSNotification *)n;
- (BOOL)applicationShouldHandleReopen:(NSApplication *)app hasVisibleWindows:(BOOL)flag;
@end

@protocol MewGS_NSWindowDelegate
- (void)windowDidChangeOcclusionState:(NSNotification *)n;
- (void)windowWillClose:(NSNotification *)n;
@end

@protocol MewGS_NSMenuDelegate
- (void)menuNeedsUpdate:(NSMenu *)menu;
@end

@interface MewGSProtocols : NSObject <NSApplicationDelegate, NSWindowDelegate, NSMenuDelegate,
	MewGS_NSApplicationDelegate, MewGS_NSWindowDelegate, MewGS_NSMenuDelegate>
@end

@implementation MewGSProtocols
- (void)applicationDidFinishLaunching:(NSNotification *)n {}
- (void)applicationDidChangeScreenParameters:(NSNotification *)n {}
- (BOOL)applicationShouldHandleReopen:(NSApplication *)app hasVisibleWindows:(BOOL)flag { return NO; }
- (void)windowDidChangeOcclusionState:(NSNotification *)n {}
- (void)windowWillClose:(NSNotification *)n {}
- (void)menuNeedsUpdate:(NSMenu *)menu {}
@end

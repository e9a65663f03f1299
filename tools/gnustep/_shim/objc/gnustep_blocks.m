// The block classes darwinkit's blocks name (objc_lookUpClass of
// "__NSMallocBlock__" and "__NSGlobalBlock__" in block.m); project file.
// libBlocksRuntime's own isa symbols are not Objective-C classes under
// libobjc4, and darwinkit sends -autorelease to a new block: these
// classes answer retain, release and autorelease with the blocks
// runtime's reference count (the block is malloc'd, not an NSObject
// allocation, so NSObject's own counting must never run on it).
#import <Foundation/Foundation.h>
#import <Block.h>

@interface __NSMallocBlock__ : NSObject
@end

@implementation __NSMallocBlock__
- (id)retain {
	return Block_copy(self);
}
- (id)copy {
	return Block_copy(self);
}
- (id)copyWithZone:(NSZone *)zone {
	return Block_copy(self);
}
- (oneway void)release {
	Block_release(self);
}
- (id)autorelease {
	[NSAutoreleasePool addObject:self];
	return self;
}
- (NSUInteger)retainCount {
	return 1;
}
@end

@interface __NSGlobalBlock__ : __NSMallocBlock__
@end

@implementation __NSGlobalBlock__
@end

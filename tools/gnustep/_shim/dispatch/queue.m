// darwinkit's dispatch package on GNUstep (project file; replaces the
// scratch copy's queue.m). No libdispatch here: the main queue is
// performSelectorOnMainThread: in the modes the app's run loop runs
// (default, modal, event tracking: a menu open), a global queue is a new
// thread per task.
#import <stdlib.h>
#import <stdint.h>
#import <Foundation/Foundation.h>
#include "_cgo_export.h"

static char mainQueue, globalQueue;

@interface MewGSQueueTask : NSObject
+ (void)runTask:(NSNumber *)task;
@end

@implementation MewGSQueueTask
+ (void)runTask:(NSNumber *)task {
	runQueueTask((uintptr_t)[task unsignedLongValue]);
}
@end

void* Dispatch_Get_Main_Queue() {
	return &mainQueue;
}

void* Dispatch_Get_Global_Queue(intptr_t identifier, uintptr_t flags) {
	return &globalQueue;
}

void Dispatch_Retain(void* queue) {}

void Dispatch_Release(void* queue) {}

static void submit(void* queue, uintptr_t task, BOOL wait) {
	NSAutoreleasePool *pool = [NSAutoreleasePool new];
	NSNumber *n = [NSNumber numberWithUnsignedLong:task];
	if (queue == &mainQueue) {
		NSArray *modes = [NSArray arrayWithObjects:NSDefaultRunLoopMode, @"NSModalPanelRunLoopMode",
			@"NSEventTrackingRunLoopMode", nil]; // AppKit's mode names: this package links no AppKit
		[MewGSQueueTask performSelectorOnMainThread:@selector(runTask:) withObject:n waitUntilDone:wait modes:modes];
	} else if (wait) {
		runQueueTask(task);
	} else {
		[NSThread detachNewThreadSelector:@selector(runTask:) toTarget:[MewGSQueueTask class] withObject:n];
	}
	[pool drain];
}

void Dispatch_Async(void* queue, uintptr_t task) {
	submit(queue, task, NO);
}

void Dispatch_Sync(void* queue, uintptr_t task) {
	submit(queue, task, YES);
}

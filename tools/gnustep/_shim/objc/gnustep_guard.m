// C side of the objc.Call guard (gnustep_guard.go): the main thread, the
// class names, and an uncaught-exception handler that ends the process
// instead of GNUstep's modal exception panel (which would wait forever on
// Xvfb). Project file, not darwinkit's.
#import <pthread.h>
#import <stdio.h>
#import <unistd.h>
#import <Foundation/Foundation.h>

static pthread_t mewgsMainThread;

// Runs at load, on the process's first thread: the thread AppKit must use
// (cmd/mew locks the main goroutine to it).
__attribute__((constructor)) static void mewgsRecordMainThread(void) {
	mewgsMainThread = pthread_self();
}

int MewGS_IsMainThread(void) {
	return pthread_equal(pthread_self(), mewgsMainThread);
}

const char *MewGS_ClassName(void *cls) {
	return class_getName((Class)cls);
}

int MewGS_IsMetaClass(void *cls) {
	return class_isMetaClass((Class)cls);
}

void *MewGS_SuperClass(void *cls) {
	return class_getSuperclass((Class)cls);
}

int MewGS_Responds(void *cls, void *sel) {
	return class_respondsToSelector((Class)cls, (SEL)sel);
}

static void mewgsUncaught(NSException *e) {
	fprintf(stderr, "mew-gnustep: uncaught exception %s: %s\n",
		[[e name] UTF8String], [[e reason] UTF8String]);
	fflush(stderr);
	_exit(71);
}

void MewGS_InstallExceptionHandler(void) {
	if (NSGetUncaughtExceptionHandler() != mewgsUncaught) {
		NSSetUncaughtExceptionHandler(mewgsUncaught);
	}
}

// The GNUstep defaults a harness needs: no app icon window (it would be a
// second window on the screenshot) and no exception panel.
void MewGS_RegisterDefaults(void) {
	NSAutoreleasePool *pool = [NSAutoreleasePool new];
	[[NSUserDefaults standardUserDefaults] registerDefaults:
		[NSDictionary dictionaryWithObjectsAndKeys:
			@"YES", @"GSSuppressAppIcon",
			nil]];
	[pool drain];
}

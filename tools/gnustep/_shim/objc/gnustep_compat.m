// Stand-ins for the Apple runtime calls libobjc4 lacks (gnustep_compat.h).
// Associated objects are real (darwinkit keeps delegates and action
// handlers alive through them); the rest log once and return zero: Mew
// never uses block IMPs, properties or new protocols.
#import <stdio.h>
#import <stdlib.h>
#import <pthread.h>
#import <Foundation/Foundation.h>
#import "gnustep_compat.h"

static void compatMissing(const char *fn) {
	fprintf(stderr, "mew-gnustep: runtime call not in libobjc4: %s\n", fn);
}

// One table for every object: object pointer -> (key -> value). Values
// are retained unless the policy is assign (0); entries are dropped by
// objc_removeAssociatedObjects only (darwinkit's wrappers live for the
// app's life).
static NSMapTable *assocTable;
static pthread_mutex_t assocLock = PTHREAD_MUTEX_INITIALIZER;

static NSMapTable *assocFor(id object, BOOL create) {
	if (assocTable == nil) {
		assocTable = [[NSMapTable alloc] initWithKeyOptions:NSPointerFunctionsOpaqueMemory | NSPointerFunctionsOpaquePersonality
		                                       valueOptions:NSPointerFunctionsStrongMemory
		                                           capacity:64];
	}
	NSMapTable *m = [assocTable objectForKey:(id)object];
	if (m == nil && create) {
		m = [[NSMapTable alloc] initWithKeyOptions:NSPointerFunctionsOpaqueMemory | NSPointerFunctionsOpaquePersonality
		                              valueOptions:NSPointerFunctionsOpaqueMemory | NSPointerFunctionsOpaquePersonality
		                                  capacity:4];
		[assocTable setObject:m forKey:(id)object];
		[m release];
	}
	return m;
}

void objc_setAssociatedObject(id object, const void *key, id value, uintptr_t policy) {
	pthread_mutex_lock(&assocLock);
	NSMapTable *m = assocFor(object, YES);
	id old = (id)NSMapGet(m, key);
	if (policy != 0 && value != nil) {
		[value retain];
	}
	if (value == nil) {
		NSMapRemove(m, key);
	} else {
		NSMapInsert(m, key, value);
	}
	pthread_mutex_unlock(&assocLock);
	// The old value is not released: its policy is not kept, and a leak
	// in a test harness is better than an over-release.
	(void)old;
}

id objc_getAssociatedObject(id object, const void *key) {
	pthread_mutex_lock(&assocLock);
	NSMapTable *m = assocFor(object, NO);
	id v = m == nil ? nil : (id)NSMapGet(m, key);
	pthread_mutex_unlock(&assocLock);
	return v;
}

void objc_removeAssociatedObjects(id object) {
	pthread_mutex_lock(&assocLock);
	if (assocTable != nil) {
		[assocTable removeObjectForKey:(id)object];
	}
	pthread_mutex_unlock(&assocLock);
}

IMP imp_implementationWithBlock(id block) {
	compatMissing("imp_implementationWithBlock");
	return NULL;
}

id imp_getBlock(IMP imp) {
	compatMissing("imp_getBlock");
	return nil;
}

BOOL imp_removeBlock(IMP imp) {
	compatMissing("imp_removeBlock");
	return NO;
}

// The GNU runtime returns struct values through the ordinary IMP.
IMP class_getMethodImplementation_stret(Class cls, SEL sel) {
	return class_getMethodImplementation(cls, sel);
}

char *property_copyAttributeValue(objc_property_t property, const char *name) {
	compatMissing("property_copyAttributeValue");
	return NULL;
}

objc_property_attribute_t *property_copyAttributeList(objc_property_t property, unsigned int *outCount) {
	compatMissing("property_copyAttributeList");
	if (outCount) {
		*outCount = 0;
	}
	return NULL;
}

BOOL class_addProperty(Class cls, const char *name, const objc_property_attribute_t *attributes, unsigned int count) {
	compatMissing("class_addProperty");
	return NO;
}

void class_replaceProperty(Class cls, const char *name, const objc_property_attribute_t *attributes, unsigned int count) {
	compatMissing("class_replaceProperty");
}

Protocol *objc_allocateProtocol(const char *name) {
	compatMissing("objc_allocateProtocol");
	return NULL;
}

// The parts of Apple's Objective-C runtime API that GCC's libobjc4 lacks,
// as darwinkit v0.5.0 calls them (tools/gnustep/build.sh imports this into
// darwinkit's .m files in the scratch copy). Project file, not darwinkit's.
#ifndef MEW_GNUSTEP_COMPAT_H
#define MEW_GNUSTEP_COMPAT_H
#import <stdint.h>
#import <objc/runtime.h>

typedef struct {
	const char *name;
	const char *value;
} objc_property_attribute_t;

void objc_setAssociatedObject(id object, const void *key, id value, uintptr_t policy);
id objc_getAssociatedObject(id object, const void *key);
void objc_removeAssociatedObjects(id object);
IMP imp_implementationWithBlock(id block);
id imp_getBlock(IMP imp);
BOOL imp_removeBlock(IMP imp);
IMP class_getMethodImplementation_stret(Class cls, SEL sel);
char *property_copyAttributeValue(objc_property_t property, const char *name);
objc_property_attribute_t *property_copyAttributeList(objc_property_t property, unsigned int *outCount);
BOOL class_addProperty(Class cls, const char *name, const objc_property_attribute_t *attributes, unsigned int count);
void class_replaceProperty(Class cls, const char *name, const objc_property_attribute_t *attributes, unsigned int count);
Protocol *objc_allocateProtocol(const char *name);
#endif

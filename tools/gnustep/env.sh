# The compiler and linker settings for cgo against GNUstep (build.sh).
gcc_inc=$(dirname "$(gcc -print-file-name=include/objc/runtime.h)")/..
gcc_lib=$(dirname "$(gcc -print-file-name=libobjc.so)")
export CC=clang CGO_ENABLED=1
export CGO_CFLAGS="-w -fobjc-runtime=gcc -fblocks -fconstant-string-class=NSConstantString -fexceptions -fobjc-exceptions \
-DGNUSTEP -DGNUSTEP_BASE_LIBRARY=1 -DGNU_GUI_LIBRARY=1 -DGNU_RUNTIME=1 -D_NATIVE_OBJC_EXCEPTIONS \
-I$here/include -I$(gnustep-config --variable=GNUSTEP_SYSTEM_HEADERS) -I$gcc_inc"
export CGO_LDFLAGS="-L$gcc_lib -lgnustep-gui -lgnustep-base -lobjc -lBlocksRuntime -lffi"

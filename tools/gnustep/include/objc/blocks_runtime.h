/* GNUstep's headers include this when the compiler has blocks (clang
   -fblocks); on Debian, with GCC's libobjc4, the blocks runtime is
   libBlocksRuntime's. Project file (tools/gnustep). */
#include <Block.h>

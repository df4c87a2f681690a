// shardkit's version. CMake reads the three numbers from this file (the one
// place they are written); shardkitConfigVersion.cmake and shardkit.pc carry
// the same.
#ifndef SHARDKIT_VERSION_H_
#define SHARDKIT_VERSION_H_

#define SHARDKIT_VERSION_MAJOR 0
#define SHARDKIT_VERSION_MINOR 1
#define SHARDKIT_VERSION_PATCH 0

// MAJOR * 10000 + MINOR * 100 + PATCH, for `#if SHARDKIT_VERSION >= ...`.
#define SHARDKIT_VERSION                                           \
  (SHARDKIT_VERSION_MAJOR * 10000 + SHARDKIT_VERSION_MINOR * 100 + \
   SHARDKIT_VERSION_PATCH)

#define SHARDKIT_VERSION_STRINGIZE_(x) #x
#define SHARDKIT_VERSION_STRINGIZE(x) SHARDKIT_VERSION_STRINGIZE_(x)
// "MAJOR.MINOR.PATCH".
#define SHARDKIT_VERSION_STRING                      \
  SHARDKIT_VERSION_STRINGIZE(SHARDKIT_VERSION_MAJOR) \
  "." SHARDKIT_VERSION_STRINGIZE(                    \
      SHARDKIT_VERSION_MINOR) "." SHARDKIT_VERSION_STRINGIZE(SHARDKIT_VERSION_PATCH)

#ifdef __cplusplus
namespace shardkit {

// "MAJOR.MINOR.PATCH" of the headers compiled against.
constexpr const char* version() { return SHARDKIT_VERSION_STRING; }

}  // namespace shardkit
#endif

#endif  // SHARDKIT_VERSION_H_

// Symbol visibility. shardkit's compiled layers are built with hidden
// visibility (-fvisibility=hidden); what their public headers declare is
// exported by wrapping the declarations in SHARDKIT_EXPORT_BEGIN/END, and a
// single declaration is exported with SHARDKIT_EXPORT. Internal headers
// (src/) stay hidden, so a shared build (SHARDKIT_BUILD_SHARED) exports the
// public API only. In a static build the attributes change nothing.
#ifndef SHARDKIT_EXPORT_H_
#define SHARDKIT_EXPORT_H_

#if defined(__GNUC__) || defined(__clang__)
#define SHARDKIT_EXPORT __attribute__((visibility("default")))
#define SHARDKIT_EXPORT_BEGIN _Pragma("GCC visibility push(default)")
#define SHARDKIT_EXPORT_END _Pragma("GCC visibility pop")
#else
#define SHARDKIT_EXPORT
#define SHARDKIT_EXPORT_BEGIN
#define SHARDKIT_EXPORT_END
#endif

#endif  // SHARDKIT_EXPORT_H_

// The mpmd dialect as a whole (docs/mpmd.md): registering it makes
// shardkit read, verify and print mpmd programs, fold mpmd ops in
// -canonicalize, inline mpmd code in -inline, and run the mpmd passes
// (`-mpmd-import-pipeline`, ...) by their mpmd_opt names.
#ifndef SHARDKIT_MPMD_DIALECT_H_
#define SHARDKIT_MPMD_DIALECT_H_

#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// Registers the mpmd ops, syntaxes, canonicalization patterns and passes.
// Idempotent and thread-safe.
void registerMpmdDialect();

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_MPMD_DIALECT_H_

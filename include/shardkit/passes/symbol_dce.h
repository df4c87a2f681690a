// MLIR's -symbol-dce on the module's top level: a private function that
// nothing live refers to is erased. Public symbols and every op that is not
// a symbol are live; whatever a live op refers to (`@name`, or the root of
// `@a::@b`, in any of its attributes or those of the ops nested in it) is
// live too. The import, propagation and export pipelines run it after the
// passes that make functions unused.
#ifndef SHARDKIT_PASSES_SYMBOL_DCE_H_
#define SHARDKIT_PASSES_SYMBOL_DCE_H_

#include "absl/status/status.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

absl::Status symbolDce(Module& module);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PASSES_SYMBOL_DCE_H_

// The mpmd dialect's text: the pretty forms of its ops (the reference's
// docs/mpmd_dialect.md), and its attribute (`#mpmd.topology<...>`, ...) and
// type (`!mpmd.mesh_tensor<...>`) syntaxes, which check and re-spell the
// text the reader keeps for them (attrs.h, mesh_tensor.h). Ops keep their
// inherent attributes as MLIR names them, so the generic form matches the
// reference's: a fragment's `mesh_name`, `origin` (an array of
// `#mpmd.user_origin<"name"(N)>`), `stage_id`, `in_shardings`,
// `out_shardings`; a reduce's `reduction` (`#mpmd.reduction<add>`).
#ifndef SHARDKIT_DIALECT_MPMD_MPMD_SYNTAX_H_
#define SHARDKIT_DIALECT_MPMD_MPMD_SYNTAX_H_

#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// Registers the op kinds and the syntaxes. Idempotent and thread-safe; call it
// before reading mpmd text.
void registerMpmdSyntax();

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_MPMD_MPMD_SYNTAX_H_

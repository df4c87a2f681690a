// The pretty forms of the mpmd dialect's ops (the reference's
// docs/mpmd_dialect.md): mpmd.fragment,
// mpmd.transfer, mpmd.return, mpmd.call, mpmd.broadcast, mpmd.reduce,
// mpmd.assign, mpmd.unassign and mpmd.named_tensor.
//
// mpmd types (`!mpmd.mesh_tensor<...>`) and attributes (`#mpmd.topology<...>`)
// are kept as text by the reader; these syntaxes only add the op forms, with
// the ops' inherent attributes as MLIR names them (so the generic form
// matches the reference's): a fragment's `mesh_name`, `origin` (an array of
// `#mpmd.user_origin<"name"(N)>`), `stage_id`, `in_shardings`,
// `out_shardings`; a reduce's `reduction` (`#mpmd.reduction<add>`).
#ifndef SHARDKIT_MPMD_SYNTAX_H_
#define SHARDKIT_MPMD_SYNTAX_H_

#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// Registers the op kinds and their syntaxes. Idempotent and thread-safe;
// call it before reading mpmd text.
void registerMpmdSyntax();

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_MPMD_SYNTAX_H_

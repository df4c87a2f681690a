// GSPMD interop passes (docs/gspmd.md): XLA's `mhlo.sharding` attributes
// (HloSharding text, text/hlo_sharding.h) to and from sdy shardings.
//
//   -sdy-import-gspmd-shardings   importGspmdShardings
//   -sdy-export-gspmd-shardings   exportGspmdShardings
#ifndef SHARDKIT_PASSES_GSPMD_PASSES_H_
#define SHARDKIT_PASSES_GSPMD_PASSES_H_

#include <string_view>

#include "absl/status/status.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// The discardable attribute GSPMD shardings live in (a string).
inline constexpr std::string_view kMhloShardingAttr = "mhlo.sharding";

// Every `mhlo.sharding` of a function argument, function result or op
// (a tuple sharding for an op with several results) becomes the value's
// `sdy.sharding` on mesh `mesh_name` (empty: the module's only mesh that is
// not maximal), and the attribute is removed. `{maximal device=D}` gives a
// sharding on an inline maximal mesh (the import pipeline lifts it). An
// unexpressible or malformed sharding is an error at its op.
absl::Status importGspmdShardings(Module& module, std::string_view mesh_name);

// The inverse: every `sdy.sharding` of a function argument, function result
// or op becomes `mhlo.sharding` text and is removed; inside
// sdy.manual_computation bodies the computations' manual axes become manual
// subgroups. The sdy ops and meshes stay.
absl::Status exportGspmdShardings(Module& module);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PASSES_GSPMD_PASSES_H_

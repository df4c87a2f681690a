// Internal to the mpmd layer: what the export passes (docs/mpmd.md, "Export")
// share: the per-operand and per-result attribute lists of fragments, memory
// kinds, donation marks, last uses and buffer sizes.
#ifndef SHARDKIT_SRC_MPMD_EXPORT_UTILS_H_
#define SHARDKIT_SRC_MPMD_EXPORT_UTILS_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/ir/attribute.h"
#include "shardkit/ir/dict_list_attr.h"
#include "shardkit/ir/graph.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {

// Attribute names the export passes read and write.
inline constexpr std::string_view kArgAttrsName = "arg_attrs";
inline constexpr std::string_view kResAttrsName = "res_attrs";
inline constexpr std::string_view kAliasingAttr = "tf.aliasing_output";
inline constexpr std::string_view kBufferDonorAttr = "jax.buffer_donor";
inline constexpr std::string_view kLayoutModeAttr = "mhlo.layout_mode";
inline constexpr std::string_view kReservedHbmBytesAttr = "reserved_hbm_bytes";
inline constexpr std::string_view kResultInfoAttr = "jax.result_info";

// One attribute dictionary per operand (or result) of an op, as kept in its
// `arg_attrs` (`res_attrs`) array; each dictionary sorted by name.
using DictList = std::vector<std::vector<NamedAttribute>>;

// The list `name` of `op` with `count` entries: the stored dictionaries, and
// empty ones where the list is absent or short.
DictList dictListOrDefault(Op op, std::string_view name, unsigned count);
// Stores `list` as `op`'s `name`, even when every dictionary is empty (the
// reference's SetArgAttrs / SetResAttrs).
void setDictList(Op op, std::string_view name, const DictList& list);
// Adds or replaces `key` in `dict`, keeping it sorted.
void setEntry(std::vector<NamedAttribute>& dict, std::string_view key,
              Attribute value);

// Entry `key` of argument (result) dictionary `i` of `op`, or the null
// attribute.
inline const Attribute& argEntry(Op op, unsigned i, std::string_view key) {
  return DictListAttr::entryOf(op, kArgAttrsName, i, key);
}
inline const Attribute& resEntry(Op op, unsigned i, std::string_view key) {
  return DictListAttr::entryOf(op, kResAttrsName, i, key);
}

// True for `pinned_host` and `unpinned_host`.
bool isHostMemoryKind(const Attribute& memory_kind);
// Operand `i` of `op` (a fragment) is marked as living in host memory.
bool isArgOnHost(Op op, unsigned i);
// `value` is a fragment result marked as living in host memory.
bool isResultOnHost(Value value);
// Argument `i` of `func` is marked `jax.buffer_donor = true`.
bool isArgBufferDonor(FuncOp func, unsigned i);

// For each op of `block`, the operand indices at which a value is used for
// the last time in the block (one index per value: the last one).
absl::flat_hash_map<Op, std::vector<unsigned>> lastUseOperands(Block block);
// The first op of `op`'s block (in program order) that uses a result of
// `op`, directly or nested; null when none does.
Op firstUserInBlock(Op op);
// True if `value` has no use after `op` (an op of the block that holds the
// uses of `value`), counting uses nested in later ops.
bool isDeadAfter(Value value, Op op);

// Replaces `fragment` by a fragment with the same attributes and body that
// keeps only the operands and results marked in `keep_operands` /
// `keep_results` (the body's dropped arguments must be unused, its return's
// dropped operands are removed; dropped results must be unused). Entries of
// arg_attrs/res_attrs follow. Returns the new fragment.
Op rebuildFragment(Op fragment, const std::vector<bool>& keep_operands,
                   const std::vector<bool>& keep_results);

// Runs the pass `name` when some layer registered it (the pipelines' steps
// that belong to the common mpmd passes); OK when none did.
absl::Status runPassIfRegistered(Module& module, std::string_view name);

// Reports `message` at `op`: an error added to `errors` when `fail`, else a
// warning that does not fail the pass.
void reportAt(Op op, std::string_view message, bool fail,
              ErrorCollector& errors);

// The bytes one device of `mesh` holds of a tensor of `type` (its local
// shape under the sharding), or nullopt if the element type has no known
// width.
std::optional<double> localTensorBytes(const MeshTensorType& type,
                                       const Mesh& mesh);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_EXPORT_UTILS_H_

// Internal to the mpmd layer: building fragments around meshless ops.
#ifndef SHARDKIT_SRC_MPMD_FRAGMENT_UTILS_H_
#define SHARDKIT_SRC_MPMD_FRAGMENT_UTILS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/ir/graph.h"
#include "shardkit/passes/canonicalize.h"

namespace shardkit::mpmd::mpmd_internal {

// What kInferredByAttr (ops.h) says of fragments mesh inference creates.
inline constexpr std::string_view kWrapMeshlessOps =
    "infer_mesh_wrap_meshless_ops";
inline constexpr std::string_view kWrapResultlessOps =
    "infer_mesh_wrap_resultless_ops";
inline constexpr std::string_view kConvertReduceOps =
    "infer_mesh_convert_reduce_ops";

// The `call_counter` of a fragment, if it has one.
std::optional<int64_t> callCounterOf(Op fragment);

// The transpose count all origins of a fragment share, or nullopt (no
// origins, or different counts).
std::optional<int64_t> singleTransposeCount(Op fragment);

// Creates, right before `op`, a fragment on `mesh` computing a copy of `op`:
// its operands and the values its regions use from outside are assigned to
// the mesh (fully replicated) and passed in, and the fragment's results are
// unassigned. The uses of `op`'s results for which `replace_use` is true (all
// when it is empty) use the unassigned results instead; `op` itself stays.
// `inferred_by`, when not empty, labels the fragment. Every op created is
// reported to `rewriter` when given.
Op wrapOpWithFragment(
    Op op, std::string_view mesh, std::string_view inferred_by = "",
    const std::function<bool(const Value::Use&)>& replace_use = {},
    PatternRewriter* rewriter = nullptr);

// Creates, right before `anchor`, a fragment on `mesh` with `operands` whose
// body `populate` fills: it gets the block arguments (the operands' global
// tensors) and returns the values to return. The fragment's results have
// `result_types`.
Op createFragment(Op anchor, std::string_view mesh,
                  const std::vector<Value>& operands,
                  const std::vector<Type>& result_types,
                  const std::function<std::vector<Value>(
                      Block body, const std::vector<Value>& args)>& populate);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_FRAGMENT_UTILS_H_

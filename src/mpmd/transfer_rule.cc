// The sharding rule of mpmd.transfer for sdy propagation: pointwise over the
// global tensor, so that a transfer passes shardings between meshes, unless
// it moves the tensor between meshes of different shapes (a heterogeneous
// topology), where a sharding of one mesh means nothing on the other.
#include <optional>

#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/factor_propagation/rule_builder.h"
#include "shardkit/ir/tensor_view.h"
#include "shardkit/rules/registry.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/registration.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

absl::StatusOr<std::optional<OpShardingRule>> transferRule(Op op,
                                                           const RuleOptions&) {
  if (op.numOperands() != 1 || op.numResults() != 1) return std::nullopt;
  Type in = op.operand(0).type();
  Type out = op.result(0).type();
  if (!tensorViewOf(in) || !tensorViewOf(out) || !in.hasStaticShape() ||
      !(tensorViewOf(in) == tensorViewOf(out))) {
    return std::nullopt;
  }
  std::string src = meshNameOf(in);
  std::string dst = meshNameOf(out);
  if (src != dst) {
    absl::StatusOr<Mesh> src_mesh = meshOf(op, src);
    absl::StatusOr<Mesh> dst_mesh = meshOf(op, dst);
    if (!src_mesh.ok() || !dst_mesh.ok() || !(*src_mesh == *dst_mesh)) {
      return std::nullopt;
    }
  }
  Shape shape(in.shape().begin(), in.shape().end());
  SK_ASSIGN_OR_RETURN(OpShardingRule rule,
                      OpShardingRuleBuilder::buildPointwise({shape}, {shape}));
  return rule;
}

}  // namespace

void registerTransferRule() { registerOpRule(TransferOp::kName, transferRule); }

}  // namespace shardkit::mpmd::mpmd_internal

// Dropping results and operands of a fragment.
#include "src/mpmd/fragment_signature_edits.h"

#include "shardkit/core/tensor_sharding.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// Filters the per-value shardings `name` of `op` by `keep`, when present and
// of the same length.
void filterShardings(Op op, std::string_view name,
                     const std::vector<bool>& keep) {
  const TensorShardingPerValue* list =
      op.attr(name).as<TensorShardingPerValue>();
  if (!list || list->size() != keep.size()) return;
  TensorShardingPerValue kept;
  for (size_t i = 0; i < keep.size(); ++i)
    if (keep[i]) kept.items.push_back((*list)[i]);
  op.setAttr(name, Attribute::of(std::move(kept)));
}

}  // namespace

Op keepFragmentResults(Op fragment, const std::vector<bool>& keep) {
  bool all = true;
  for (bool k : keep) all = all && k;
  if (all) return fragment;
  Op ret = fragment.region(0).front().back();
  for (size_t i = keep.size(); i-- > 0;)
    if (!keep[i]) ret.eraseOperand(static_cast<unsigned>(i));
  OperationState state(fragment.opName());
  state.operands = fragment.operands();
  for (unsigned i = 0; i < fragment.numResults(); ++i)
    if (keep[i]) state.result_types.push_back(fragment.result(i).type());
  state.inherent_attrs = fragment.inherentAttrs();
  state.discardable_attrs = fragment.discardableAttrs();
  state.num_regions = 1;
  Op copy = createBefore(fragment, state);
  filterShardings(copy, "out_shardings", keep);
  moveBody(fragment, copy);
  unsigned next = 0;
  for (unsigned i = 0; i < fragment.numResults(); ++i)
    if (keep[i]) fragment.result(i).replaceAllUsesWith(copy.result(next++));
  fragment.erase();
  return copy;
}

void keepFragmentOperands(Op fragment, const std::vector<bool>& keep) {
  Block body = fragment.region(0).front();
  filterShardings(fragment, "in_shardings", keep);
  for (size_t i = keep.size(); i-- > 0;) {
    if (keep[i]) continue;
    body.eraseArgument(static_cast<unsigned>(i));
    fragment.eraseOperand(static_cast<unsigned>(i));
  }
}

}  // namespace shardkit::mpmd::mpmd_internal

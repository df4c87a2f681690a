// -mpmd-merge-transfers: small values (at most one element, replicated, not
// pinned to host) that one fragment produces and another consumes through
// several transfers travel as one: the producer also returns their
// concatenation (each reshaped to a leading dim of 1), one transfer marked
// concat_transfer carries it, and the consumer reads each value back as a
// slice of it. The original transfers stay (fragment-dce drops what is no
// longer used). Values are grouped per consumer and global type; users are
// taken latest first, as MLIR lists them after parsing.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

constexpr int64_t kMaxElements = 1;
constexpr std::string_view kConcatTransferAttr = "concat_transfer";

// The users of `v`'s uses, each once, latest in the block first.
std::vector<Op> usersLatestFirst(Value v) {
  std::vector<Op> users;
  for (const Value::Use& use : v.uses())
    if (std::find(users.begin(), users.end(), use.user()) == users.end())
      users.push_back(use.user());
  std::sort(users.begin(), users.end(),
            [](Op a, Op b) { return isBeforeInBlock(b, a) && !(a == b); });
  return users;
}

std::vector<Op> originalTransfersOf(Value v) {
  std::vector<Op> transfers;
  for (Op user : usersLatestFirst(v))
    if (isa<TransferOp>(user) && !user.hasAttr(kConcatTransferAttr))
      transfers.push_back(user);
  return transfers;
}

bool isSmallReplicated(Value v) {
  std::optional<MeshTensorType> type = MeshTensorType::of(v.type());
  if (!type || !type->isFullyReplicated()) return false;
  if (type->memory_kind && *type->memory_kind == kMemoryKindPinnedHost)
    return false;
  int64_t elements = 1;
  for (int64_t d : type->dims) elements *= d;
  return elements <= kMaxElements;
}

// A group: results of one global type transferred to one consumer.
struct Group {
  Type global_type;
  Op consumer;
  std::vector<unsigned> results;
};

std::vector<Group> findGroups(Op producer) {
  std::vector<Group> groups;
  TypeContext& types = producer.module()->types();
  for (unsigned r = 0; r < producer.numResults(); ++r) {
    Value result = producer.result(r);
    if (!isSmallReplicated(result)) continue;
    Type global = MeshTensorType::of(result.type())->globalType(types);
    for (Op transfer : originalTransfersOf(result)) {
      for (Op consumer : usersLatestFirst(transfer.result(0))) {
        if (!isa<FragmentOp>(consumer)) continue;
        auto it = std::find_if(groups.begin(), groups.end(), [&](Group& g) {
          return g.global_type == global && g.consumer == consumer;
        });
        if (it == groups.end()) {
          groups.push_back({global, consumer, {}});
          it = groups.end() - 1;
        }
        it->results.push_back(r);
      }
    }
  }
  return groups;
}

Op createIn(Op before, OpName name, std::vector<Value> operands, Type result) {
  OperationState state(name);
  state.operands = std::move(operands);
  state.result_types = {result};
  return createBefore(before, state);
}

// Replaces `producer` by a copy that also returns the concatenation of the
// results `group` lists; returns the copy.
Op addConcatResult(Op producer, const Group& group) {
  TypeContext& types = producer.module()->types();
  Op ret = producer.region(0).front().back();
  std::vector<int64_t> dims = {1};
  for (int64_t d : group.global_type.shape()) dims.push_back(d);
  Type piece = types.rankedTensor(dims, group.global_type.elementType());
  std::vector<Value> pieces;
  for (unsigned r : group.results) {
    pieces.push_back(
        createIn(ret, stablehlo::ReshapeOp::opName(), {ret.operand(r)}, piece)
            .result(0));
  }
  dims[0] = static_cast<int64_t>(pieces.size());
  Type whole = types.rankedTensor(dims, group.global_type.elementType());
  OperationState concat(stablehlo::ConcatenateOp::opName());
  concat.operands = pieces;
  concat.result_types = {whole};
  concat.addAttr("dimension", Attribute::integer(0));
  Value joined = createBefore(ret, concat).result(0);
  ret.insertOperand(ret.numOperands(), joined);

  std::string mesh(FragmentOp(producer).meshName());
  OperationState state(producer.opName());
  state.operands = producer.operands();
  state.result_types = producer.resultTypes();
  state.result_types.push_back(
      MeshTensorType::fullyReplicated(mesh, whole).toType(types));
  state.inherent_attrs = producer.inherentAttrs();
  state.discardable_attrs = producer.discardableAttrs();
  state.num_regions = 1;
  Op copy = createBefore(producer, state);
  copy.removeAttr("out_shardings");
  moveBody(producer, copy);
  for (unsigned i = 0; i < producer.numResults(); ++i)
    producer.result(i).replaceAllUsesWith(copy.result(i));
  producer.erase();
  return copy;
}

// Makes the consumer of `group` read each of its values as a slice of
// `joined` (the transferred concatenation).
void sliceOnConsumer(Op producer, const Group& group, Value joined) {
  Op consumer = group.consumer;
  Block body = consumer.region(0).front();
  std::vector<std::pair<unsigned, int64_t>> args;  // block arg, slice
  for (size_t slice = 0; slice < group.results.size(); ++slice) {
    for (Op transfer :
         originalTransfersOf(producer.result(group.results[slice])))
      for (const Value::Use& use : transfer.result(0).uses()) {
        if (!(use.user() == consumer)) continue;
        auto it = std::find_if(args.begin(), args.end(), [&](auto& a) {
          return a.first == use.operandIndex();
        });
        if (it == args.end()) {
          args.emplace_back(use.operandIndex(), slice);
        } else {
          it->second = static_cast<int64_t>(slice);
        }
      }
  }
  TypeContext& types = consumer.module()->types();
  consumer.insertOperand(consumer.numOperands(), joined);
  Value whole =
      body.addArgument(MeshTensorType::of(joined.type())->globalType(types));
  Op anchor = body.front();
  for (auto [index, slice] : args) {
    Value arg = body.argument(index);
    std::vector<int64_t> start = {slice}, limit = {slice + 1}, strides = {1};
    std::vector<int64_t> dims = {1};
    for (int64_t d : arg.type().shape()) {
      start.push_back(0);
      limit.push_back(d);
      strides.push_back(1);
      dims.push_back(d);
    }
    OperationState state(stablehlo::SliceOp::opName());
    state.operands = {whole};
    state.result_types = {types.rankedTensor(dims, arg.type().elementType())};
    state.addAttr("start_indices", Attribute::i64Array(start));
    state.addAttr("limit_indices", Attribute::i64Array(limit));
    state.addAttr("strides", Attribute::i64Array(strides));
    Op sliced = createBefore(anchor, state);
    Op reshaped = createIn(anchor, stablehlo::ReshapeOp::opName(),
                           {sliced.result(0)}, arg.type());
    arg.replaceUsesWithIf(reshaped.result(0), [&](const Value::Use& use) {
      return !(use.user() == reshaped);
    });
  }
}

void mergeTransfersFrom(Op producer) {
  TypeContext& types = producer.module()->types();
  for (const Group& group : findGroups(producer)) {
    if (group.results.size() < 2) continue;
    producer = addConcatResult(producer, group);
    Value joined = producer.result(producer.numResults() - 1);
    std::optional<MeshTensorType> type = MeshTensorType::of(joined.type());
    type->mesh_name = std::string(FragmentOp(group.consumer).meshName());
    OperationState state = TransferOp::build(joined, type->toType(types));
    state.addAttr(kConcatTransferAttr, Attribute::unit());
    Op transfer = createAfter(producer, state);
    sliceOnConsumer(producer, group, transfer.result(0));
  }
}

}  // namespace

absl::Status mergeTransfers(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    for (Op op : func.body().ops())
      if (isa<FragmentOp>(op)) mergeTransfersFrom(op);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal

// Merging two fragments into one.
#include "src/mpmd/merge_fragment_ops.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "src/mpmd/fragment_utils.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// Where each block argument of the producer and the consumer goes in the
// merged fragment: an index into `operands`, or (for a consumer argument fed
// by a producer result) that result's number.
struct OperandPlan {
  std::vector<Value> operands;
  std::vector<size_t> producer_arg;
  std::vector<size_t> consumer_arg;
  std::vector<int> consumer_from_result;  // -1 when not a producer result
};

OperandPlan planOperands(Op producer, Op consumer) {
  OperandPlan plan;
  auto resultOf = [&](Value v) -> int {
    return v.definingOp() == producer ? static_cast<int>(v.index()) : -1;
  };
  bool simple = producer.numOperands() == 1 && producer.numResults() == 1 &&
                producer.result(0).hasOneUse() &&
                producer.result(0).soleUser() == consumer;
  if (simple) {
    plan.operands = consumer.operands();
    for (unsigned j = 0; j < consumer.numOperands(); ++j) {
      plan.consumer_arg.push_back(j);
      int r = resultOf(consumer.operand(j));
      plan.consumer_from_result.push_back(r);
      if (r >= 0) {
        plan.operands[j] = producer.operand(0);
        plan.producer_arg = {j};
      }
    }
    return plan;
  }
  absl::flat_hash_map<Value, size_t> index;
  auto add = [&](Value v) {
    auto [it, inserted] = index.try_emplace(v, plan.operands.size());
    if (inserted) plan.operands.push_back(v);
    return it->second;
  };
  for (Value v : producer.operands()) plan.producer_arg.push_back(add(v));
  for (Value v : consumer.operands()) {
    int r = resultOf(v);
    plan.consumer_from_result.push_back(r);
    plan.consumer_arg.push_back(r >= 0 ? 0 : add(v));
  }
  return plan;
}

// Moves the ops of `from` except its terminator to the end of `to`.
void moveOps(Block from, Block to) {
  Op terminator = from.back();
  for (Op op : from.ops()) {
    if (op == terminator) break;
    to.pushBack(op);
  }
}

}  // namespace

std::vector<Attribute> originUnion(FragmentOp a, FragmentOp b) {
  std::vector<Attribute> result;
  for (FragmentOp f : {a, b}) {
    const std::vector<Attribute>* origins = f->attr(kOriginAttr).asArray();
    if (!origins) continue;
    for (const Attribute& origin : *origins) {
      if (std::find(result.begin(), result.end(), origin) == result.end())
        result.push_back(origin);
    }
  }
  return result;
}

Op mergeFragmentOps(Op producer, Op consumer) {
  FragmentOp p(producer), c(consumer);
  OperandPlan plan = planOperands(producer, consumer);
  Block pblock = producer.region(0).front();
  Block cblock = consumer.region(0).front();
  Op pret = pblock.back();
  std::vector<unsigned> kept_results;
  for (unsigned r = 0; r < producer.numResults(); ++r) {
    bool other_use = false;
    for (const Value::Use& use : producer.result(r).uses())
      other_use = other_use || use.user() != consumer;
    if (other_use) kept_results.push_back(r);
  }
  std::vector<Type> result_types;
  result_types.reserve(kept_results.size() + consumer.numResults());
  for (unsigned r : kept_results)
    result_types.push_back(producer.result(r).type());
  for (Type t : consumer.resultTypes()) result_types.push_back(t);

  auto populate = [&](Block body, const std::vector<Value>& args) {
    for (unsigned i = 0; i < pblock.numArguments(); ++i)
      pblock.argument(i).replaceAllUsesWith(args[plan.producer_arg[i]]);
    moveOps(pblock, body);
    for (unsigned j = 0; j < cblock.numArguments(); ++j) {
      int r = plan.consumer_from_result[j];
      cblock.argument(j).replaceAllUsesWith(
          r >= 0 ? pret.operand(r) : args[plan.consumer_arg[j]]);
    }
    moveOps(cblock, body);
    std::vector<Value> returned;
    returned.reserve(kept_results.size() + cblock.back().numOperands());
    for (unsigned r : kept_results) returned.push_back(pret.operand(r));
    for (Value v : cblock.back().operands()) returned.push_back(v);
    return returned;
  };
  Op merged = createFragment(consumer, p.meshName(), plan.operands,
                             result_types, populate);
  merged.setAttr(kOriginAttr, Attribute::array(originUnion(p, c)));
  std::optional<int64_t> stage = p.stageId() ? p.stageId() : c.stageId();
  if (stage) merged.setAttr("stage_id", Attribute::integer(*stage));

  for (size_t k = 0; k < kept_results.size(); ++k) {
    producer.result(kept_results[k])
        .replaceUsesWithIf(merged.result(k), [&](const Value::Use& use) {
          return use.user() != consumer;
        });
  }
  for (unsigned j = 0; j < consumer.numResults(); ++j)
    consumer.result(j).replaceAllUsesWith(
        merged.result(kept_results.size() + j));
  consumer.erase();
  producer.erase();
  return merged;
}

std::optional<int64_t> maxTransposeCount(FragmentOp fragment) {
  std::optional<int64_t> count;
  for (const UserOrigin& origin : fragment.origins())
    count = std::max(count.value_or(origin.transpose_count),
                     origin.transpose_count);
  return count;
}

namespace {

std::optional<int64_t> mergeCallCounters(FragmentOp producer,
                                         FragmentOp consumer) {
  std::optional<int64_t> a = callCounterOf(producer);
  std::optional<int64_t> b = callCounterOf(consumer);
  if (!a || !b || *a == *b) return a ? a : b;
  if (producer.isUserFragment() == consumer.isUserFragment())
    return std::nullopt;
  return producer.isUserFragment() ? a : b;
}

}  // namespace

SavedMergeAttrs mergedFragmentAttrs(FragmentOp producer, FragmentOp consumer) {
  SavedMergeAttrs saved;
  saved.call_counter = mergeCallCounters(producer, consumer);
  for (FragmentOp f : {producer, consumer}) {
    const std::vector<Attribute>* passes = f->attr(kInferredByAttr).asArray();
    if (!passes) continue;
    for (const Attribute& pass : *passes) {
      if (std::find(saved.inferred_by.begin(), saved.inferred_by.end(), pass) ==
          saved.inferred_by.end())
        saved.inferred_by.push_back(pass);
    }
  }
  return saved;
}

void applyMergedAttrs(Op merged, const SavedMergeAttrs& attrs) {
  if (attrs.call_counter)
    merged.setAttr(kCallCounterAttr,
                   Attribute::integer(*attrs.call_counter, "ui32"));
  if (!attrs.inferred_by.empty() && !FragmentOp(merged).isUserFragment())
    merged.setAttr(kInferredByAttr, Attribute::array(attrs.inferred_by));
}

Op mergeFragmentsKeepingAttrs(Op producer, Op consumer) {
  SavedMergeAttrs saved =
      mergedFragmentAttrs(FragmentOp(producer), FragmentOp(consumer));
  Op merged = mergeFragmentOps(producer, consumer);
  applyMergedAttrs(merged, saved);
  return merged;
}

}  // namespace shardkit::mpmd::mpmd_internal

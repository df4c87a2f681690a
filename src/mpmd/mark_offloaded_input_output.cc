// -mpmd-mark-offloaded-input-output: in each entry point, marks the fragment
// operands and results that live in host memory with
// `mhlo.memory_kind = "pinned_host"` (in the fragment's arg_attrs/res_attrs),
// then checks that the entry point's argument and result memory kinds agree
// with their users and producers.
//
// A fragment operand is on the host when it is an entry argument marked so or
// a fragment result marked so. A fragment result is on the host when the
// value returned was computed on the host (`_xla_compute_type = "host"`) or
// moved there by `annotate_device_placement`, looking back through ops that
// keep a value where it is: optimization barriers, while loops (through the
// body's yielded value), the update of a dynamic_update_slice, reshapes and
// broadcasts that only add or drop dimensions of size 1, the sharding custom
// calls and func.call (through the callee's returned value). Host memory is
// not followed across transfers, nor from fragment operands to results.
#include <algorithm>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "src/mpmd/export_utils.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::DictList;

constexpr std::string_view kPlacementCall = "annotate_device_placement";
constexpr std::string_view kFrontendAttrs = "mhlo.frontend_attributes";
constexpr std::string_view kBufferPlacement = "_xla_buffer_placement";
constexpr std::string_view kComputeType = "_xla_compute_type";

// Entry `key` of the op's frontend attributes, if it is a string.
const std::string* frontendAttr(Op op, std::string_view key) {
  const std::vector<NamedAttribute>* dict = op.attr(kFrontendAttrs).asDict();
  if (dict == nullptr) return nullptr;
  for (const NamedAttribute& entry : *dict) {
    if (entry.name == key) return entry.value.asString();
  }
  return nullptr;
}

// The dims of `type` other than those of size 1.
std::vector<int64_t> nonUnitDims(Type type) {
  std::vector<int64_t> dims;
  for (int64_t d : type.shape()) {
    if (d != 1) dims.push_back(d);
  }
  return dims;
}

// A reshape or broadcast_in_dim that only adds or removes unit dims.
bool isUnitDimReshape(Op op) {
  if (!isa<stablehlo::ReshapeOp, stablehlo::BroadcastInDimOp>(op)) {
    return false;
  }
  if (op.numOperands() != 1 || op.numResults() != 1) return false;
  return nonUnitDims(op.operand(0).type()) == nonUnitDims(op.result(0).type());
}

// Custom calls that only annotate shardings and keep the value in place.
bool isPlacementKeepingCustomCall(Op op) {
  auto call = dynCast<stablehlo::CustomCallOp>(op);
  if (!call) return false;
  std::string_view target = call.callTargetName();
  return target == "Sharding" || target == "SPMDShardToFullShape" ||
         target == "SPMDFullToShardShape";
}

// The value `result` is the same buffer as (looking one op back), or null.
Value placementSource(Value result) {
  Op op = result.definingOp();
  unsigned index = result.index();
  if (isa<stablehlo::OptimizationBarrierOp>(op)) return op.operand(index);
  if (auto loop = dynCast<stablehlo::WhileOp>(op)) {
    Block body = loop.body().front();
    return body.back().operand(index);
  }
  if (isa<stablehlo::DynamicUpdateSliceOp>(op)) return op.operand(1);
  if (isUnitDimReshape(op) || isPlacementKeepingCustomCall(op)) {
    return op.operand(0);
  }
  if (isa<func::CallOp>(op)) {
    FuncOp callee = calleeOf(op);
    if (callee && callee.returnOp()) return callee.returnOp().operand(index);
  }
  return Value();
}

// True if `value` (returned by a fragment body) ends up in host memory.
bool isComputedOrPlacedOnHost(Value value) {
  while (value && !value.isBlockArgument()) {
    Op op = value.definingOp();
    if (op.attr(kFrontendAttrs).asDict() != nullptr) {
      if (const std::string* compute = frontendAttr(op, kComputeType)) {
        return *compute == "host";
      }
    }
    Value source = placementSource(value);
    if (!source) {
      auto call = dynCast<stablehlo::CustomCallOp>(op);
      if (!call || call.callTargetName() != kPlacementCall) return false;
      const std::string* placement = frontendAttr(op, kBufferPlacement);
      return placement != nullptr && *placement == kMemoryKindPinnedHost;
    }
    value = source;
  }
  return false;
}

Attribute pinnedHost() {
  return Attribute::string(std::string(kMemoryKindPinnedHost));
}

void markFragment(Op fragment, FuncOp func) {
  DictList args = mpmd_internal::dictListOrDefault(
      fragment, mpmd_internal::kArgAttrsName, fragment.numOperands());
  for (unsigned i = 0; i < fragment.numOperands(); ++i) {
    Value operand = fragment.operand(i);
    bool on_host = operand.isBlockArgument()
                       ? mpmd_internal::isHostMemoryKind(
                             func.argAttr(operand.index(), kMemoryKindAttr))
                       : mpmd_internal::isResultOnHost(operand);
    if (on_host) {
      mpmd_internal::setEntry(args[i], kMemoryKindAttr, pinnedHost());
    }
  }
  mpmd_internal::setDictList(fragment, mpmd_internal::kArgAttrsName, args);

  Op terminator = fragment.region(0).front().back();
  DictList results = mpmd_internal::dictListOrDefault(
      fragment, mpmd_internal::kResAttrsName, fragment.numResults());
  for (unsigned i = 0; i < terminator.numOperands(); ++i) {
    if (isComputedOrPlacedOnHost(terminator.operand(i))) {
      mpmd_internal::setEntry(results[i], kMemoryKindAttr, pinnedHost());
    }
  }
  mpmd_internal::setDictList(fragment, mpmd_internal::kResAttrsName, results);
}

// MLIR's printing of a string attribute or of a missing one.
std::string attrText(const Attribute& attr) {
  const std::string* s = attr.asString();
  return s == nullptr ? "<<NULL ATTRIBUTE>>" : "\"" + *s + "\"";
}

bool isOnDevice(const Attribute& kind) {
  const std::string* s = kind.asString();
  return s == nullptr || *s == kMemoryKindDevice;
}

// The memory kind a use of an entry argument asks for (null when none).
Attribute userMemoryKind(const Value::Use& use, FuncOp func) {
  if (isa<FragmentOp>(use.user())) {
    return mpmd_internal::argEntry(use.user(), use.operandIndex(),
                                   kMemoryKindAttr);
  }
  if (isa<func::ReturnOp>(use.user())) {
    return func.resultAttr(use.operandIndex(), kMemoryKindAttr);
  }
  return Attribute();
}

// The uses of entry argument `value` latest first, as MLIR lists them
// (users compared by their ancestors in the function body).
std::vector<Value::Use> usesLatestFirst(Value value) {
  Block block = value.ownerBlock();
  std::vector<Value::Use> uses = value.uses();
  auto top = [&](const Value::Use& use) {
    Op op = mpmd_internal::ancestorInBlock(block, use.user());
    return op ? op : use.user();
  };
  std::sort(uses.begin(), uses.end(),
            [&](const Value::Use& a, const Value::Use& b) {
              Op x = top(a), y = top(b);
              if (x != y) return mpmd_internal::isBeforeInBlock(y, x);
              return a.operandIndex() > b.operandIndex();
            });
  return uses;
}

void checkArgument(FuncOp func, unsigned arg,
                   mpmd_internal::ErrorCollector& errors) {
  Value value = func.argument(arg);
  std::vector<Value::Use> uses = usesLatestFirst(value);
  if (uses.empty()) return;
  Attribute first = userMemoryKind(uses.front(), func);
  for (size_t i = 1; i < uses.size(); ++i) {
    Attribute other = userMemoryKind(uses[i], func);
    if (!(first == other)) {
      errors.add(func, "Memory kind mismatch between users of arg " +
                           std::to_string(arg) + ": " + attrText(first) +
                           " vs " + attrText(other));
    }
  }
  const Attribute& declared = func.argAttr(arg, kMemoryKindAttr);
  if (isOnDevice(declared) != isOnDevice(first)) {
    errors.add(func, "Memory kind mismatch between arg " + std::to_string(arg) +
                         " and users: " + attrText(declared) + " vs " +
                         attrText(first));
  }
}

void checkResults(FuncOp func, mpmd_internal::ErrorCollector& errors) {
  Op ret = func.returnOp();
  for (unsigned i = 0; i < ret.numOperands(); ++i) {
    Value value = ret.operand(i);
    Attribute produced;
    if (value.isBlockArgument()) {
      produced = func.argAttr(value.index(), kMemoryKindAttr);
    } else if (isa<FragmentOp>(value.definingOp())) {
      produced = mpmd_internal::resEntry(value.definingOp(), value.index(),
                                         kMemoryKindAttr);
    }
    const Attribute& declared = func.resultAttr(i, kMemoryKindAttr);
    if (isOnDevice(declared) != isOnDevice(produced)) {
      errors.add(ret, "Memory kind mismatch between result " +
                          std::to_string(i) + " and defining op: " +
                          attrText(declared) + " vs " + attrText(produced));
    }
  }
}

}  // namespace

absl::Status markOffloadedInputOutput(Module& module) {
  mpmd_internal::ErrorCollector errors;
  for (FuncOp func : entryPointFunctions(module)) {
    if (!func.body()) continue;
    for (Op op : func.body()) {
      if (isa<FragmentOp>(op)) markFragment(op, func);
    }
    for (unsigned i = 0; i < func.numArguments(); ++i) {
      checkArgument(func, i, errors);
    }
    if (func.returnOp()) checkResults(func, errors);
  }
  return errors.status();
}

}  // namespace shardkit::mpmd

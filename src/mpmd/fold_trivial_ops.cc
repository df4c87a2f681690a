// The folds of StableHLO's target-independent optimization that the mpmd
// sharding pipeline relies on to pass fewer tensors between fragments:
//   select(splat constant predicate, a, b)  ->  a or b
//   add(x, splat zero), add(splat zero, x)   ->  x
// (an add of +0.0 may turn -0.0 into +0.0; the reference folds it all the
// same). Unused side-effect-free ops left behind are erased.
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/ir/walk.h"
#include "shardkit/mpmd/passes.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {
namespace {

// The one value of a splat `dense<V>` literal of a stablehlo.constant
// defining `value`, as text; nullopt otherwise.
std::optional<std::string_view> splatOf(Value value) {
  auto constant = dynCast<stablehlo::ConstantOp>(value.definingOp());
  if (!constant) return std::nullopt;
  const ElementsValue* elements = constant.value().asElements();
  if (!elements) return std::nullopt;
  std::string_view text = elements->literal;
  constexpr std::string_view kDense = "dense<";
  if (!text.starts_with(kDense) || !text.ends_with(">")) return std::nullopt;
  text = text.substr(kDense.size(), text.size() - kDense.size() - 1);
  if (text.empty() || text.front() == '[' || text.front() == '"') {
    return std::nullopt;
  }
  return text;
}

std::optional<bool> splatBool(Value value) {
  std::optional<std::string_view> text = splatOf(value);
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  return std::nullopt;
}

bool isSplatZero(Value value) {
  std::optional<std::string_view> text = splatOf(value);
  if (!text) return false;
  std::string copy(*text);
  char* end = nullptr;
  double number = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size() && number == 0.0;
}

// The value `op` folds to, or null.
Value foldOf(Op op) {
  if (isa<stablehlo::SelectOp>(op) && op.numOperands() == 3) {
    std::optional<bool> pred = splatBool(op.operand(0));
    if (!pred) return Value();
    Value chosen = op.operand(*pred ? 1 : 2);
    return chosen.type() == op.result(0).type() ? chosen : Value();
  }
  if (isa<stablehlo::AddOp>(op) && op.numOperands() == 2) {
    for (unsigned i = 0; i < 2; ++i) {
      Value other = op.operand(1 - i);
      if (isSplatZero(op.operand(i)) && other.type() == op.result(0).type()) {
        return other;
      }
    }
  }
  return Value();
}

}  // namespace

absl::Status foldTrivialOps(Module& module) {
  for (FuncOp func : functionDefinitions(module)) {
    std::vector<Op> ops;
    ir_internal::collectPreOrder(func.body(), ops);
    bool changed = false;
    for (Op op : ops) {
      if (Value folded = foldOf(op)) {
        op.result(0).replaceAllUsesWith(folded);
        changed = true;
      }
    }
    if (changed) mpmd_internal::eraseDeadOps(func.body());
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd

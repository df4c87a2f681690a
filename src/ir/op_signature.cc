// The check of an op against its kind's signature (OpInfo::signature,
// include/shardkit/ir/op_signature.h): its operand, result and region counts,
// then what its operand and result types must agree on.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/ir/graph.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/dialect/verify_util.h"

namespace shardkit::ir_internal {
namespace {

using Arity = OpSignature::Arity;
using TypeRule = OpSignature::TypeRule;

// Checks `count` of `what` ("operand", "result", "region") against `arity`;
// the per-operand kinds depend on the op's number of `operands`.
absl::Status checkCount(Arity arity, size_t count, size_t operands,
                        std::string_view what) {
  switch (arity.kind) {
    case Arity::kAny:
      return absl::OkStatus();
    case Arity::kAtLeast:
      if (count >= arity.n) return absl::OkStatus();
      return verifyError(strCat("expected ", arity.n, " or more ", what,
                                "s, but found ", count));
    case Arity::kAtMost:
      if (count <= arity.n) return absl::OkStatus();
      return verifyError(strCat("expected at most ", arity.n, " ", what,
                                arity.n == 1 ? "" : "s", ", but found ",
                                count));
    case Arity::kPerOperand:
      if (count == operands) return absl::OkStatus();
      return verifyError(strCat("expected one ", what, " per operand (",
                                operands, "), but found ", count));
    case Arity::kHalfOfOperands:
    case Arity::kScatterResults: {
      bool scatter = arity.kind == Arity::kScatterResults;
      size_t inputs = scatter ? (operands - 1) / 2 : operands / 2;
      if (operands != (scatter ? 2 * inputs + 1 : 2 * inputs)) {
        return verifyError(strCat(
            "expected ",
            scatter ? "an odd number of operands (inputs, indices and one "
                      "update per input)"
                    : "an even number of operands (inputs and one init "
                      "value per input)",
            ", but found ", operands));
      }
      if (count == inputs) return absl::OkStatus();
      return verifyError(strCat("expected ", inputs, " ", what,
                                "s (one per input), but found ", count));
    }
    case Arity::kExactly:
      break;
  }
  if (count == arity.n) return absl::OkStatus();
  if (arity.n == 0) return verifyError(strCat("requires zero ", what, "s"));
  return verifyError(strCat("expected ", arity.n, " ", what,
                            arity.n == 1 ? "" : "s", ", but found ", count));
}

// Whether two ranked shapes agree, a dynamic size agreeing with any size.
bool compatibleShapes(Type a, Type b) {
  if (a.rank() != b.rank()) return false;
  for (int64_t d = 0; d < a.rank(); ++d) {
    int64_t x = a.shape()[d], y = b.shape()[d];
    if (x != y && x != kDynamicSize && y != kDynamicSize) return false;
  }
  return true;
}

absl::Status checkTypes(Op op, TypeRule rule) {
  if (rule == TypeRule::kResultsMatchOperands) {
    // A registered signature may leave the counts open: a result past the
    // operands has no type to match.
    if (op.numResults() > op.numOperands()) {
      return verifyError(strCat(
          "requires result ", op.numOperands(), " to have the type of operand ",
          op.numOperands(), ", but found ", op.numOperands(), " operand",
          op.numOperands() == 1 ? "" : "s"));
    }
    for (unsigned i = 0; i < op.numResults(); ++i) {
      if (op.result(i).type() != op.operand(i).type()) {
        return verifyError(strCat("requires result ", i, " ('",
                                  op.result(i).type().str(),
                                  "') to have the type of operand ", i, " ('",
                                  op.operand(i).type().str(), "')"));
      }
    }
    return absl::OkStatus();
  }
  if (rule == TypeRule::kNone) return absl::OkStatus();
  // The shapes of the ranked tensors agree, the result's first.
  Type first;
  auto agrees = [&](Type t) {
    if (!t.isRankedTensor()) return true;
    if (!first) {
      first = t;
      return true;
    }
    return t == first || compatibleShapes(first, t);
  };
  bool ok = true;
  for (unsigned i = 0; ok && i < op.numResults(); ++i) {
    ok = agrees(op.result(i).type());
  }
  for (unsigned i = 0; ok && i < op.numOperands(); ++i) {
    Type t = op.operand(i).type();
    if (rule == TypeRule::kSameShapeOrScalarOperands && t.isRankedTensor() &&
        t.rank() == 0) {
      continue;
    }
    ok = agrees(t);
  }
  if (ok) return absl::OkStatus();
  return verifyError("requires the same shape for all operands and results");
}

}  // namespace

absl::Status verifyOpSignature(Op op) {
  const OpInfo* info = op.opName().info();
  if (info == nullptr) return absl::OkStatus();
  const OpSignature* signature = &info->signature;
  size_t operands = op.numOperands();
  size_t results = op.numResults();
  size_t regions = op.numRegions();
  // Most ops have exactly the counts they declare: no Status to make.
  auto exact = [](Arity arity, size_t count) {
    return arity.kind == Arity::kExactly && count == arity.n;
  };
  if (!exact(signature->operands, operands)) {
    SK_RETURN_IF_ERROR(
        checkCount(signature->operands, operands, operands, "operand"));
  }
  if (!exact(signature->results, results)) {
    SK_RETURN_IF_ERROR(
        checkCount(signature->results, results, operands, "result"));
  }
  if (!exact(signature->regions, regions)) {
    SK_RETURN_IF_ERROR(
        checkCount(signature->regions, regions, operands, "region"));
  }
  return checkTypes(op, signature->types);
}

}  // namespace shardkit::ir_internal

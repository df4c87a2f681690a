// Typed op handles. A typed handle (sdy::ReshardOp, FuncOp,
// stablehlo::WhileOp, ...) is an Op known to be of one registered kind, with
// accessors for that kind's operands, attributes and regions. Like MLIR's:
//
//   if (auto reshard = dynCast<sdy::ReshardOp>(op)) use(reshard.sharding());
//   if (isa<sdy::ManualComputationOp, sdy::NamedComputationOp>(op)) ...
//
// Identity is a pointer compare on the interned name, never a string compare.
// A handle converts to Op implicitly and forwards Op's methods through `->`.
#ifndef SHARDKIT_IR_OP_BASE_H_
#define SHARDKIT_IR_OP_BASE_H_

#include <cstddef>
#include <string_view>

#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

namespace ir_internal {
// The global entry of a registered op name (registering shardkit's own ops
// first if needed); created if the name is not registered (then typed
// handles of it match no op).
const OpNameEntry* internBuiltinOpName(std::string_view name);
}  // namespace ir_internal

// The base of a typed handle. `ConcreteOp` defines
// `static constexpr std::string_view kName` (its registered name).
template <typename ConcreteOp>
class OpBase {
 public:
  OpBase() = default;
  // `op` must be of this kind (check with isa) or null.
  explicit OpBase(Op op) : op_(op) {}

  // The registered name of this kind, e.g. for OperationState.
  static OpName opName() { return OpName(nameEntry()); }
  // True if `op` (possibly null) is of this kind.
  static bool classof(Op op) { return op && classof(op.opName()); }
  // True if `name` names this kind.
  static bool classof(OpName name) { return name.entry() == nameEntry(); }

  Op op() const { return op_; }
  operator Op() const { return op_; }  // NOLINT: a handle is an Op
  const Op* operator->() const { return &op_; }
  explicit operator bool() const { return bool(op_); }

 protected:
  static const OpNameEntry* nameEntry() {
    static const OpNameEntry* const entry =
        ir_internal::internBuiltinOpName(ConcreteOp::kName);
    return entry;
  }

  Op op_;
};

namespace ir_internal {
// An op name as a template argument of PlainOp.
template <size_t N>
struct OpNameLiteral {
  constexpr OpNameLiteral(const char (&text)[N]) {  // NOLINT: implicit
    for (size_t i = 0; i < N; ++i) chars[i] = text[i];
  }
  constexpr std::string_view view() const {
    return std::string_view(chars, N - 1);
  }
  char chars[N];
};
}  // namespace ir_internal

// The typed handle of an op kind that code singles out only by kind (no
// accessors beyond Op's), named by its registered name (see
// stablehlo_ops.h).
template <ir_internal::OpNameLiteral Name>
class PlainOp : public OpBase<PlainOp<Name>> {
 public:
  static constexpr std::string_view kName = Name.view();
  using OpBase<PlainOp>::OpBase;
};

// True if `op` (an Op, possibly null, or an OpName) is of one of the kinds
// `Ts`.
template <typename... Ts, typename OpOrName>
bool isa(OpOrName op) {
  return (Ts::classof(op) || ...);
}

// `op` as a `T`, or a null `T` if it is of another kind (or null).
template <typename T>
T dynCast(Op op) {
  return T::classof(op) ? T(op) : T();
}

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_OP_BASE_H_

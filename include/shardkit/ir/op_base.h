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
#include <string>
#include <string_view>
#include <type_traits>

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

namespace ir_internal {
// An op or attribute name as a template argument (of OpBase, ...).
template <size_t N>
struct NameLiteral {
  constexpr NameLiteral(const char (&text)[N]) {  // NOLINT: implicit
    for (size_t i = 0; i < N; ++i) chars[i] = text[i];
  }
  constexpr std::string_view view() const {
    return std::string_view(chars, N - 1);
  }
  char chars[N];
};
}  // namespace ir_internal

// The typed handle of the op kind registered as `Name`: the base of the
// handles with accessors (e.g. ReshardOp in sdy_ops.h), and the handle of a
// kind that code singles out only by kind (PlainOp).
template <ir_internal::NameLiteral Name>
class OpBase {
 public:
  static constexpr std::string_view kName = Name.view();

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
        ir_internal::internBuiltinOpName(kName);
    return entry;
  }

  Op op_;
};

// The typed handle of an op kind that code singles out only by kind (no
// accessors beyond Op's), e.g. AddOp in stablehlo_ops.h.
template <ir_internal::NameLiteral Name>
using PlainOp = OpBase<Name>;

// The base of the handles of op kinds with one operand, `tensor`, and one
// result.
template <ir_internal::NameLiteral Name>
class TensorOp : public OpBase<Name> {
 public:
  using OpBase<Name>::OpBase;
  Value tensor() const { return this->op_.operand(0); }
  Value result() const { return this->op_.result(0); }
};

// The base of the handles of op kinds with one region of one block (whose
// terminator mirrors the results).
template <ir_internal::NameLiteral Name>
class SingleBlockOp : public OpBase<Name> {
 public:
  using OpBase<Name>::OpBase;
  // The entry block of the body (null if the body is empty).
  Block body() const {
    return this->op_.numRegions() ? this->op_.region(0).front() : Block();
  }
  // The terminator of the body, or null.
  Op returnOp() const {
    Block b = body();
    return b && !b.empty() ? b.back() : Op();
  }
};

// The base of the handles of call ops (`func.call @f(...)`, `mpmd.call`,
// `mpmd.fragment_call`), whose callee is the symbol attribute `callee`.
template <ir_internal::NameLiteral Name>
class CallLikeOp : public OpBase<Name> {
 public:
  using OpBase<Name>::OpBase;
  // The callee's symbol name; empty when the attribute is missing.
  std::string_view callee() const {
    const std::string* s = this->op_.attr("callee").asSymbolRef();
    return s ? std::string_view(*s) : std::string_view();
  }
};

// The attribute `name` of `op` as a `T`, or an empty `T` when `op` does not
// have one (an op that failed verification): what the accessors of required
// attributes return.
template <SdyPayload T>
const T& attrOrEmpty(Op op, std::string_view name) {
  static const T* const kEmpty = new T();
  const T* value = op.attr(name).as<T>();
  return value ? *value : *kEmpty;
}
// The string attribute `name` of `op`, or empty.
inline std::string_view stringAttrOrEmpty(Op op, std::string_view name) {
  const std::string* s = op.attr(name).asString();
  return s ? std::string_view(*s) : std::string_view();
}

// True if `op` (an Op, possibly null, or an OpName) is of one of the kinds
// `Ts`.
template <typename... Ts, typename OpOrName>
bool isa(OpOrName op) {
  if constexpr (sizeof...(Ts) > 1 && std::is_same_v<OpOrName, Op>) {
    // The op's name is read once, not once a kind.
    return op && isa<Ts...>(op.opName());
  } else {
    return (Ts::classof(op) || ...);
  }
}

// `op` as a `T`, or a null `T` if it is of another kind (or null).
template <typename T>
T dynCast(Op op) {
  return T::classof(op) ? T(op) : T();
}

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_OP_BASE_H_

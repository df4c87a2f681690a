// OpName: an interned op name (e.g. stablehlo.add), and OpInfo, what shardkit
// knows about an op kind: its inherent attributes, its traits and its
// verifier.
//
// Registered op kinds (sdy, func, stablehlo, ...) are interned in a
// process-wide registry; names of unknown ops are interned by the Module that
// holds them (Module::opName), so arbitrary input never grows global state.
// Passes ask an op's traits (Op::hasTrait) or its typed handle
// (`isa<sdy::ReshardOp>(op)`, see op_base.h) instead of comparing names.
#ifndef SHARDKIT_IR_OP_NAME_H_
#define SHARDKIT_IR_OP_NAME_H_

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "shardkit/export.h"
#include "shardkit/ir/op_signature.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

class Op;
class VerifyContext;

// Facts about an op kind that passes ask about. The set of an op kind is
// fixed at its registration (OpInfo::traits).
enum class OpTrait : uint32_t {
  // Ends its block (func.return, sdy.return, stablehlo.return).
  kTerminator = 1u << 0,
  // Its regions cannot use values defined outside (func.func,
  // sdy.manual_computation, sdy.named_computation).
  kIsolatedFromAbove = 1u << 1,
  // Defines a symbol of the module, named by `sym_name` (func.func,
  // sdy.mesh); such ops are not part of the data flow.
  kSymbol = 1u << 2,
  // Every result element depends on the operand elements at the same index
  // (StableHLO's Elementwise and BroadcastingElementwise traits), or the op
  // is an identity on its input (sdy.sharding_constraint, sdy.reshard,
  // sdy.propagation_barrier).
  kElementwise = 1u << 3,
  // Has data-flow edges (docs/propagation.md; see sharding_site.h):
  // stablehlo.while, case, optimization_barrier, sdy.named_computation,
  // sdy.manual_computation.
  kDataFlowEdges = 1u << 4,
  // An sdy collective: one operand, one result whose sharding is the
  // `out_sharding` attribute.
  kCollective = 1u << 5,
  // An identity on its one operand whose result's sharding is the
  // `sharding` attribute (sdy.sharding_constraint, sdy.reshard).
  kReshardLike = 1u << 6,
  // How the op takes part in the first op-priority rounds of propagation
  // (elementwise ops pass through implicitly): in both directions
  // (reshape, transpose, sdy.data_flow_edge), forward only (dynamic_slice,
  // dynamic_update_slice), or as a broadcast (broadcast_in_dim).
  kPriorityPassThrough = 1u << 7,
  kPriorityForwardPassThrough = 1u << 8,
  kPriorityBroadcast = 1u << 9,
  // Has no side effects (MLIR's Pure): unused, it can be erased.
  kPure = 1u << 10,
  // A function of the module (func.func): a symbol whose region, when it has
  // one, is the function's body (Module::functions() lists them).
  kFunction = 1u << 11,
  // Inside its regions an op name without a dialect prefix names an op of
  // this op's dialect (MLIR's default dialect: `return` in a func.func).
  kDefaultDialectScope = 1u << 12,
};

// A set of OpTraits.
class OpTraits {
 public:
  constexpr OpTraits() = default;
  constexpr OpTraits(OpTrait trait)  // NOLINT: a trait is a one-trait set
      : bits_(static_cast<uint32_t>(trait)) {}

  constexpr bool has(OpTrait trait) const {
    return (bits_ & static_cast<uint32_t>(trait)) != 0;
  }
  constexpr bool empty() const { return bits_ == 0; }
  friend constexpr OpTraits operator|(OpTraits a, OpTraits b) {
    OpTraits result;
    result.bits_ = a.bits_ | b.bits_;
    return result;
  }
  friend constexpr bool operator==(OpTraits a, OpTraits b) = default;

 private:
  uint32_t bits_ = 0;
};

constexpr OpTraits operator|(OpTrait a, OpTrait b) {
  return OpTraits(a) | OpTraits(b);
}

// Static facts about a registered op kind.
struct OpInfo {
  // Checks the constraints of one op of this kind (not the ops in its
  // regions). Returns OK or InvalidArgument with the bare message: the
  // verifier puts the location and `'op.name' op ` in front. May run on
  // several threads at once, for different ops (VerifyOptions::threads): it
  // reads the module and may create types (TypeContext and
  // Module::lookupSymbol are safe to call from several threads), but must
  // not create, change or erase ops or attributes.
  using VerifyFn = absl::Status (*)(Op op, const VerifyContext& context);

  // Attributes that are part of the op's definition (MLIR "properties"),
  // printed in `<{...}>` in the generic form.
  std::vector<std::string> inherent_attrs;
  OpTraits traits;
  VerifyFn verify = nullptr;
  // The inherent attribute that holds the shardings of the op's results
  // when it is not `sdy.sharding` (`sharding` of sdy.reshard, `out_sharding`
  // of a collective, `out_shardings` of a computation); empty otherwise.
  std::string_view result_sharding_attr;
  // Its operand, result and region counts and what their types agree on,
  // checked before `verify` (op_signature.h); by default nothing.
  OpSignature signature;

  // The facts of an op kind from its inherent attribute names, traits,
  // verifier and signature (what every op table writes).
  static OpInfo of(std::initializer_list<std::string_view> inherent,
                   OpTraits traits, VerifyFn verify,
                   OpSignature signature = {});

  bool hasTrait(OpTrait trait) const { return traits.has(trait); }
  bool isInherent(std::string_view attr) const;
};

// The interned storage of a name; see OpName. `name` points at storage that
// lives as long as the entry.
struct OpNameEntry {
  std::string_view name;
  std::atomic<const OpInfo*> info{nullptr};
  // Dense within its space, in the order names are interned: an index for
  // side tables by op name (Module::mayHaveOpsNamed). The process-wide
  // registry's names are one space; the unknown op names each module
  // interns (`module_local`) are one space per module.
  uint32_t index = 0;
  bool module_local = false;
};

class OpName {
 public:
  OpName() = default;
  explicit OpName(const OpNameEntry* entry) : entry_(entry) {}

  // The registered op kind called `name`; a null OpName when not registered.
  static OpName registered(std::string_view name);

  explicit operator bool() const { return entry_ != nullptr; }
  std::string_view str() const {
    return entry_ ? entry_->name : std::string_view();
  }
  // The part before the first '.', e.g. "stablehlo".
  std::string_view dialect() const;
  // Registered facts, or null for an unknown op.
  const OpInfo* info() const {
    return entry_ ? entry_->info.load(std::memory_order_acquire) : nullptr;
  }
  bool isRegistered() const { return info() != nullptr; }
  bool isInherentAttr(std::string_view attr) const {
    const OpInfo* i = info();
    return i && i->isInherent(attr);
  }
  bool hasTrait(OpTrait trait) const {
    const OpInfo* i = info();
    return i && i->hasTrait(trait);
  }
  // The interned storage: two OpNames of one registered kind share it.
  const OpNameEntry* entry() const { return entry_; }

  friend bool operator==(OpName a, OpName b) {
    return a.entry_ == b.entry_ || a.str() == b.str();
  }
  friend bool operator==(OpName a, std::string_view b) { return a.str() == b; }
  template <typename H>
  friend H AbslHashValue(H h, OpName n) {
    return H::combine(std::move(h), n.str());
  }

 private:
  const OpNameEntry* entry_ = nullptr;
};

// Registers (or replaces) the facts of an op kind and returns its name.
// Thread-safe. shardkit registers the sdy, func and stablehlo ops it knows on
// first use of the registry.
OpName registerOpInfo(std::string_view name, OpInfo info);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_OP_NAME_H_

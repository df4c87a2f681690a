// Where a value's sharding lives, and the data-flow edges that decide it for
// values that are copies of other values. Every layer (import, propagation,
// export, explain) reads and writes shardings through these functions.
//
// Data-flow edges (docs/propagation.md): stablehlo.while, stablehlo.case,
// stablehlo.optimization_barrier, sdy.named_computation and
// sdy.manual_computation pass values through rather than compute them. Each
// edge links sources to targets that must be sharded alike; one target, the
// edge *owner*, holds the edge's sharding:
//
//   while:  owner result i; sources: operand i and the body's return operand
//           i; other targets: the cond and body arguments i.
//   case:   owner result i; sources: every branch's return operand i.
//   optimization_barrier: owner result i; source: operand i.
//   named/manual computation: owner body argument i (source: operand i) and
//           owner result i (source: the body's return operand i).
//
// `-sdy-add-data-flow-edges` wraps every owner in an `sdy.data_flow_edge` op
// (the owner's only use), which then carries the edge's sharding until
// `-sdy-sink-data-flow-edges` moves it back onto the data-flow op.
//
// Function data-flow edges (docs/propagation.md, "Function calls") link a
// function and its calls the same way: argument i of a function F is a
// target whose sources are operand i of every call to F, and result i of a
// call is a target whose source is operand i of the callee's `func.return`.
// `-sdy-add-func-data-flow-edges` wraps such targets (the arguments of every
// function but the main one, and every call result) in an
// `sdy.func_data_flow_edge` (the target's only use), whose result holds the
// target's sharding (its `sdy.sharding`) until
// `-sdy-sink-func-data-flow-edges` moves it back.
//
// The *shardable value* of a value is where its sharding is kept:
//   - a target of an edge that has an `sdy.data_flow_edge` or
//     `sdy.func_data_flow_edge` op: the edge op's result;
//   - any other op result: the value itself (its op's `sdy.sharding` entry,
//     or the sharding an sdy op carries itself: `sharding` of
//     sharding_constraint/reshard/data_flow_edge, `out_sharding` of a
//     collective, `out_shardings` of a named or manual computation);
//   - an argument of the entry block of a function (its `sdy.sharding`
//     argument attribute) or of a named or manual computation's body (the
//     op's `in_shardings` entry; inside a manual computation without its
//     manual axes, as the body sees it): the value itself;
//   - anything else (e.g. a reduction body's scalar arguments, a while's
//     arguments when it has no edge ops): none; such a value is unsharded.
#ifndef SHARDKIT_DIALECT_SDY_SHARDING_SITE_H_
#define SHARDKIT_DIALECT_SDY_SHARDING_SITE_H_

#include <optional>
#include <string_view>
#include <vector>

#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/export.h"
#include "shardkit/ir/attr_dict_rewrites.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// ---- Data-flow edges
// ---------------------------------------------------------

// True if `op` has data-flow edges.
bool isDataFlowOp(Op op);

// The edge owners of a data-flow op: its body arguments that own edges
// (named/manual computation), then its results. Empty for any other op.
std::vector<Value> dataFlowEdgeOwners(Op op);

// The owner of the edge that `target` is a target of (a while's cond/body
// argument i belongs to the edge of result i; an owner is its own owner), or
// a null Value.
Value edgeOwnerOfTarget(Value target);

// The owner of the edge that operand `operand_index` of `user` is a source
// of (e.g. for operand 1 of a while, its result 1; for operand 0 of the
// while body's terminator, the while's result 0), or a null Value.
Value edgeOwnerOfSource(Op user, unsigned operand_index);

// The `sdy.data_flow_edge` op that wraps `owner` (the only use of `owner`),
// or null (also for a null `owner`).
Op dataFlowEdgeOp(Value owner);

// The edge `owner` owns: its data-flow op, sources, and targets other than
// the owner; nullopt if `owner` owns no edge.
// `source_uses[i]` is the operand that passes `sources[i]` along the edge.
struct OperandRef {
  Op user;
  unsigned index = 0;
  Value get() const { return user.operand(index); }
  void set(Value value) const { user.setOperand(index, value); }
};
struct DataFlowEdge {
  Op op;
  Value owner;
  std::vector<Value> sources;
  std::vector<OperandRef> source_uses;
  std::vector<Value> non_owner_targets;

  void addSource(Op user, unsigned index) {
    sources.push_back(user.operand(index));
    source_uses.push_back(OperandRef{user, index});
  }
};
std::optional<DataFlowEdge> dataFlowEdgeOf(Value owner);

// The sharding `owner` keeps on its data-flow op, bypassing any edge op (for
// passes that move shardings between edge ops and data-flow ops).
std::optional<TensorSharding> getEdgeOwnerSharding(Value owner);
// Sets it; a missing list of shardings is filled with fully open ones.
void setEdgeOwnerSharding(Value owner, const TensorSharding& sharding);

// An `sdy.data_flow_edge` op keeps the sharding of its targets as they see
// it. On an edge of a manual computation that differs from the view of its
// sources, so propagation along the edge works in the sources' view:
//   - edge on a body argument (sources outside): the manual axes of the
//     computation's in_sharding go in front before, and come off after;
//   - edge on a result (sources inside): the manual axes come off before,
//     and those of the out_sharding go back on after.
// Any other edge is unchanged. `stored` may be null (no sharding yet).
std::optional<TensorSharding> edgeShardingBeforePropagation(
    Op edge, const TensorSharding* stored);
TensorSharding edgeShardingAfterPropagation(Op edge,
                                            const TensorSharding& propagated);

// ---- Function data-flow edges
// ------------------------------------------------

class CallGraph;

// The `sdy.func_data_flow_edge` that wraps `target` (its only use), or null
// (also for a null `target`).
Op funcDataFlowEdgeOp(Value target);

// The sources of the `sdy.func_data_flow_edge` op `edge` (see above), as the
// operands that pass them; empty if its input is neither a function argument
// nor a call result.
std::vector<OperandRef> funcEdgeSourceUses(Op edge, const CallGraph& calls);

// Appends the `sdy.func_data_flow_edge` ops that operand `index` of `user` is
// a source of: for an operand of a call, the edge on the callee's argument;
// for an operand of a function's `func.return`, the edges on that result of
// every call to the function.
void appendFuncEdgesOfSource(Op user, unsigned index, const CallGraph& calls,
                             std::vector<Op>& out);

// ---- The sharding of a value
// -------------------------------------------------

// The shardable value of `value` (see above), or a null Value.
Value shardableValue(Value value);

// The sharding of `value` (kept at its shardable value), or nullopt.
std::optional<TensorSharding> getSharding(Value value);
// Same without a copy where the module keeps the sharding as it is: that
// one (valid until the attribute holding it changes), or one computed into
// `scratch` (a manual computation's body argument), or null.
const TensorSharding* findSharding(Value value,
                                   std::optional<TensorSharding>& scratch);
// Same, also setting `holder` to the attribute that holds the sharding
// returned (null for one computed into `scratch`, or none): a copy of that
// attribute keeps the sharding where it is, unchanged.
const TensorSharding* findSharding(Value value,
                                   std::optional<TensorSharding>& scratch,
                                   const Attribute*& holder);

// Sets the sharding of `value` at its shardable value; returns false if it
// has none. An op result without an `sdy.sharding` list gives the other
// results fully open shardings on the same mesh; a manual computation's body
// argument gets its in_sharding's manual axes back.
bool setSharding(Value value, const TensorSharding& sharding);

// The attributes setSharding stores for one sharding, for a caller that
// writes many values and shares them per distinct sharding.
struct ShardingAttrs {
  Attribute single;     // `#sdy.sharding`
  Attribute per_value;  // a single-entry `#sdy.sharding_per_value`
  static ShardingAttrs of(const TensorSharding& sharding);
};
// Same as setSharding, storing `attrs` (which hold `sharding`) where they
// fit instead of making new attributes. With `rewrites`, ops that share an
// attribute dictionary and get the same attributes share the result.
bool setSharding(Value value, const TensorSharding& sharding,
                 const ShardingAttrs& attrs,
                 AttrDictRewrites* rewrites = nullptr);

// For a caller that knows `owner` is a shardable value (shardableValue
// gives it back; the propagation driver's slots): findSharding and
// setSharding without looking for its shardable value again. Like
// getEdgeOwnerSharding and setEdgeOwnerSharding, they read and write the
// sharding kept at `owner` itself.
const TensorSharding* findEdgeOwnerSharding(
    Value owner, std::optional<TensorSharding>& scratch);
bool setEdgeOwnerSharding(Value owner, const TensorSharding& sharding,
                          const ShardingAttrs& attrs,
                          AttrDictRewrites* rewrites = nullptr);

// The sharding of result `result` of `func` (its `sdy.sharding` result
// attribute; a function's results are not values), or null.
const TensorSharding* findFuncResultSharding(FuncOp func, unsigned result);
// The sharding a caller sees for argument `arg` of `func`: its value's
// sharding (getSharding) for a function with a body, its `sdy.sharding`
// argument attribute for a declaration, which has no argument values.
std::optional<TensorSharding> getFuncArgSharding(FuncOp func, unsigned arg);
// Same without a copy, as findSharding (`holder`: as findSharding's).
const TensorSharding* findFuncArgSharding(
    FuncOp func, unsigned arg, std::optional<TensorSharding>& scratch);
const TensorSharding* findFuncArgSharding(
    FuncOp func, unsigned arg, std::optional<TensorSharding>& scratch,
    const Attribute*& holder);
// Sets what getFuncArgSharding reads: the argument value's sharding, or a
// declaration's `sdy.sharding` argument attribute.
void setFuncArgSharding(FuncOp func, unsigned arg,
                        const TensorSharding& sharding);
void setFuncResultSharding(FuncOp func, unsigned result,
                           const TensorSharding& sharding);
void setFuncResultSharding(FuncOp func, unsigned result,
                           const ShardingAttrs& attrs);

// The shardings of `func`'s arguments (or results) as one list, as a named
// computation or call takes them: nullopt unless one of them has a sharding
// whose mesh isn't maximal; the ones without a sharding are fully open on the
// mesh of the first such sharding.
std::optional<TensorShardingPerValue> funcArgShardings(FuncOp func,
                                                       const MeshTable& meshes);
std::optional<TensorShardingPerValue> funcResultShardings(
    FuncOp func, const MeshTable& meshes);

// The shardings of all results of `op` (`sdy.sharding`), if any.
std::optional<TensorShardingPerValue> getShardingPerValue(Op op);

// Removes every `sdy.sharding_rule` in `module` except custom rules, which
// the user gave.
void removeShardingRules(Module& module);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_SDY_SHARDING_SITE_H_

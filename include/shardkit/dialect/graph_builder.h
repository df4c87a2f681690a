// GraphBuilder: builds sdy/StableHLO graphs in C++ with typed calls instead
// of op and attribute names as strings. It computes result types, checks
// shapes, and gives each op the current location, so a problem is reported
// at the op (its result name) and where the caller's program made it:
//
//   GraphBuilder b(module);
//   b.mesh("mesh", Mesh({{"data", 4}, {"model", 2}}));
//   FuncOp f = b.func("mlp", {b.tensorType({32, 64}), b.tensorType({64,
//   128})}); b.setLocation(DebugLocation::fileLineCol("model.py", 12, 3));
//   Value h = b.matmul(f.argument(0), f.argument(1));
//   b.ret({b.unary(UnaryKind::kTanh, h)});
//   if (!b.status().ok()) ...   // model.py:12:3 (%0): error: ...
//
// The function's result types are those of the values given to ret().
#ifndef SHARDKIT_DIALECT_GRAPH_BUILDER_H_
#define SHARDKIT_DIALECT_GRAPH_BUILDER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "shardkit/core/dimension_numbers.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// (`kLast` names the last enumerator, for enum tables: support/enum_table.h.)
enum class ElementwiseKind {
  kAdd,
  kSubtract,
  kMultiply,
  kDivide,
  kMaximum,
  kMinimum,
  kLast = kMinimum
};
enum class UnaryKind { kNegate, kExp, kLog, kTanh, kSqrt, kAbs, kLast = kAbs };
// The reduction a stablehlo.reduce body computes.
enum class ReduceKind { kAdd, kMultiply, kMaximum, kMinimum, kLast = kMinimum };

class GraphBuilder {
 public:
  // Ops go to the end of the module's body until func() moves into one.
  explicit GraphBuilder(Module& module);

  Module& module() { return module_; }
  void setInsertionPointToEnd(Block block) { block_ = block; }
  Block insertionBlock() const { return block_; }
  // The location of the ops created from now on (loc(unknown) at first).
  void setLocation(DebugLocation loc) { location_ = std::move(loc); }

  // `tensor<SHAPExELEMENT>`.
  Type tensorType(const std::vector<int64_t>& shape,
                  std::string_view element_type = "f32");

  // `sdy.mesh @name = <...>`, before the module's functions.
  void mesh(std::string_view name, const Mesh& mesh);
  // A public function with arguments of `inputs` at the end of the module;
  // ops now go into its body. Its results are given by ret().
  FuncOp func(std::string_view name, const std::vector<Type>& inputs);
  // `return values`: ends the current function and sets its result types.
  void ret(const std::vector<Value>& values);

  // `stablehlo.constant dense<value>` of `type` (`value` as MLIR writes a
  // splat: "0.000000e+00", "1", "true").
  Value constant(Type type, std::string_view value);
  Value elementwise(ElementwiseKind kind, Value lhs, Value rhs);
  Value unary(UnaryKind kind, Value operand);
  // `stablehlo.dot_general`: result dims are the batch dims, then lhs's
  // and rhs's free dims.
  Value dotGeneral(Value lhs, Value rhs, const DotDimensionNumbers& dims);
  // A matrix product: lhs's last dim contracted with rhs's first.
  Value matmul(Value lhs, Value rhs);
  // Operand dim i becomes result dim dims[i] of `shape`.
  Value broadcastInDim(Value operand, const std::vector<int64_t>& shape,
                       const std::vector<int64_t>& dims);
  Value reshape(Value operand, const std::vector<int64_t>& shape);
  // Result dim i is operand dim permutation[i].
  Value transpose(Value operand, const std::vector<int64_t>& permutation);
  // Reduces `dims` of `operand` with `kind`, starting from scalar `init`.
  Value reduce(Value operand, Value init, const std::vector<int64_t>& dims,
               ReduceKind kind);
  // `sdy.sharding_constraint`.
  Value shardingConstraint(Value value, const TensorSharding& sharding);

  // Any op, by name: `name` (e.g. "mydialect.attention", or a StableHLO op
  // the typed calls above do not cover) with `operands`, results of
  // `result_types` and `attrs` (inherent or discardable as the op's kind
  // registers them). Nothing is checked or inferred: the module's verifier
  // checks a registered op; an unknown op propagates only along a rule
  // registered for it (registerOpRule) or an `sdy.sharding_rule` in
  // `attrs`. Returns the op (its results by op.result(i)).
  Op op(std::string_view name, const std::vector<Value>& operands,
        const std::vector<Type>& result_types,
        const std::vector<std::pair<std::string, Attribute>>& attrs = {});

  // OK, or the first problem met (a shape that does not fit, a value used
  // outside its function), located at the op and the builder's location.
  const absl::Status& status() const { return status_; }

 private:
  Op create(OperationState& state);
  // Records `message` at `op` unless an earlier problem is recorded.
  void fail(Op op, std::string_view message);
  absl::Span<const int64_t> shapeOf(Value v) const;

  Module& module_;
  Block block_;
  FuncOp func_;
  DebugLocation location_;
  absl::Status status_;
};

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_GRAPH_BUILDER_H_

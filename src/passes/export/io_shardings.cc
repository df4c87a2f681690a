// The export passes that adjust the shardings at a program's boundary, the
// function inputs and outputs users of shardkit pass tensors through:
//
//   -sdy-update-non-divisible-input-output-shardings
//   -sdy-remove-sub-axes-in-input-output-shardings
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/core/sharding_math.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/tensor_view.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/support/status_macros.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

// `sharding` cut to what shards a value of `type` evenly; unchanged for a
// value that is not a statically shaped tensor (or a type holding one, a
// mesh tensor) or whose mesh is unknown.
TensorSharding evenlyShardedFor(const TensorSharding& sharding, Type type,
                                const MeshTable& meshes) {
  const Mesh* mesh = meshes.resolve(sharding);
  if (mesh == nullptr || !tensorViewOf(type) || !type.hasStaticShape()) {
    return sharding;
  }
  return evenlySharded(sharding, type.shape(), *mesh);
}

TensorShardingPerValue evenlyShardedFor(const TensorShardingPerValue& list,
                                        const std::vector<Type>& types,
                                        const MeshTable& meshes) {
  TensorShardingPerValue result = list;
  for (size_t i = 0; i < result.size() && i < types.size(); ++i) {
    result[i] = evenlyShardedFor(result[i], types[i], meshes);
  }
  return result;
}

// Whether evenlyShardedFor would change `sharding`.
bool unevenFor(const TensorSharding& sharding, Type type,
               const MeshTable& meshes) {
  const Mesh* mesh = meshes.resolve(sharding);
  return mesh != nullptr && tensorViewOf(type) && type.hasStaticShape() &&
         !isEvenlySharded(sharding, type.shape(), *mesh);
}

// unevenFor of the shardings stored as a whole attribute, by the attribute
// and the type: a function's thousands of arguments share a few of each.
// The memo keeps each attribute alive, so that its address is not reused.
class UnevenMemo {
 public:
  explicit UnevenMemo(const MeshTable& meshes) : meshes_(meshes) {}
  bool uneven(const TensorSharding& sharding, const Attribute* holder,
              Type type) {
    if (holder == nullptr || holder->as<TensorSharding>() != &sharding) {
      return unevenFor(sharding, type, meshes_);
    }
    auto [it, inserted] =
        memo_.try_emplace(std::pair(holder->identity(), type.identity()));
    if (inserted) it->second = {*holder, unevenFor(sharding, type, meshes_)};
    return it->second.second;
  }

 private:
  const MeshTable& meshes_;
  absl::flat_hash_map<std::pair<const void*, const void*>,
                      std::pair<Attribute, bool>>
      memo_;
};

// Writes back only what changes: a function may have tens of thousands of
// arguments, and few of them are sharded unevenly.
void updateFunctionSignature(FuncOp func, const MeshTable& meshes) {
  std::vector<Type> arguments = func.argumentTypes();
  UnevenMemo memo(meshes);
  for (unsigned i = 0; i < arguments.size(); ++i) {
    std::optional<TensorSharding> scratch;
    const Attribute* holder;
    const TensorSharding* s = findFuncArgSharding(func, i, scratch, holder);
    if (s == nullptr || !memo.uneven(*s, holder, arguments[i])) continue;
    setFuncArgSharding(func, i, evenlyShardedFor(*s, arguments[i], meshes));
  }
  std::vector<Type> results = func.resultTypes();
  for (unsigned i = 0; i < func.numResults(); ++i) {
    const TensorSharding* s = findFuncResultSharding(func, i);
    if (s == nullptr || !unevenFor(*s, results[i], meshes)) continue;
    setFuncResultSharding(func, i, evenlyShardedFor(*s, results[i], meshes));
  }
}

void updateCallResults(Op call, const MeshTable& meshes) {
  std::optional<TensorShardingPerValue> list = getShardingPerValue(call);
  if (!list) return;
  call.setAttr(kShardingAttr, Attribute::of(evenlyShardedFor(
                                  *list, call.resultTypes(), meshes)));
}

// A manual computation's operands and results are what its body's values
// are made of: both boundaries stay evenly sharded. Manual axes lead every
// dimension, so cutting the global sharding to the global shape is the same
// as cutting the free axes to the local shape.
void updateManualComputation(sdy::ManualComputationOp op,
                             const MeshTable& meshes) {
  op.setInShardings(
      evenlyShardedFor(op.inShardings(), op->operandTypes(), meshes));
  op.setOutShardings(
      evenlyShardedFor(op.outShardings(), op->resultTypes(), meshes));
}

// True if an open dimension of `sharding` has a sub-axis.
bool hasSubAxisInOpenDim(const TensorSharding& sharding) {
  for (const DimensionSharding& dim : sharding.dim_shardings) {
    if (dim.is_closed) continue;
    for (const AxisRef& axis : dim.axes) {
      if (axis.isSubAxis()) return true;
    }
  }
  return false;
}

// The axes of an open dimension up to its first sub-axis; closed dimensions
// are kept as they are.
TensorSharding withoutSubAxesInOpenDims(const TensorSharding& sharding) {
  TensorSharding result = sharding;
  for (DimensionSharding& dim : result.dim_shardings) {
    if (dim.is_closed) continue;
    size_t kept = 0;
    while (kept < dim.axes.size() && !dim.axes[kept].isSubAxis()) ++kept;
    dim.axes.resize(kept);
  }
  return result;
}

}  // namespace

absl::StatusOr<FuncOp> mainFunction(Module& module) {
  std::vector<Op> functions = module.functions();
  for (Op op : functions) {
    if (FuncOp(op).name() == "main") return FuncOp(op);
  }
  if (functions.size() == 1) return FuncOp(functions.front());
  return absl::InvalidArgumentError(
      "expected a function named 'main' or a module with one function");
}

absl::Status updateNonDivisibleInputOutputShardings(Module& module) {
  MeshTable meshes = module.meshTable();
  for (Op op : module.functions()) updateFunctionSignature(FuncOp(op), meshes);
  // One walk: each update reads and writes only its own op's shardings.
  // None when the module holds neither calls nor manual computations.
  if (!module.mayHaveOpsNamed(func::CallOp::opName()) &&
      !module.mayHaveOpsNamed(sdy::ManualComputationOp::opName())) {
    return absl::OkStatus();
  }
  module.walk([&](Op op) {
    if (isa<func::CallOp>(op)) {
      updateCallResults(op, meshes);
    } else if (auto manual = dynCast<sdy::ManualComputationOp>(op)) {
      updateManualComputation(manual, meshes);
    }
  });
  return absl::OkStatus();
}

absl::Status removeSubAxesInInputOutputShardings(Module& module) {
  SK_ASSIGN_OR_RETURN(FuncOp main, mainFunction(module));
  for (unsigned i = 0, n = main.numArguments(); i < n; ++i) {
    std::optional<TensorSharding> scratch;
    const TensorSharding* s = findFuncArgSharding(main, i, scratch);
    if (s && hasSubAxisInOpenDim(*s)) {
      setFuncArgSharding(main, i, withoutSubAxesInOpenDims(*s));
    }
  }
  for (unsigned i = 0; i < main.numResults(); ++i) {
    const TensorSharding* s = findFuncResultSharding(main, i);
    if (s && hasSubAxisInOpenDim(*s)) {
      setFuncResultSharding(main, i, withoutSubAxesInOpenDims(*s));
    }
  }
  return absl::OkStatus();
}

void registerInputOutputShardingPasses() {
  registerPass(optionlessPass(
      "sdy-update-non-divisible-input-output-shardings",
      "Cuts the shardings of function inputs and outputs (and of call "
      "results and manual computation boundaries) to the longest prefix that "
      "shards them evenly.",
      updateNonDivisibleInputOutputShardings));
  registerPass(optionlessPass(
      "sdy-remove-sub-axes-in-input-output-shardings",
      "Removes sub-axes, and the axes after them, from the open dimensions "
      "of the main function's input and output shardings.",
      removeSubAxesInInputOutputShardings));
}

}  // namespace shardkit

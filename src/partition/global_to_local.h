// The state of one -sdy-convert-global-to-local run, shared by the files
// that convert each kind of op (global_to_local_*.cc). Internal to the
// partition layer.
//
// The ops are converted one by one in pre-order (an op before the ops of its
// regions), as the reference's dialect conversion visits them. Each op sees
// the module as its predecessors left it: its operands are the converted
// (local) values. What it asks of the program before the conversion — the
// global type and the sharding of a value, which the conversion changes or
// removes — is answered from a snapshot taken first: the original operands of
// every op, and the type and sharding of every value.
#ifndef SHARDKIT_SRC_PARTITION_GLOBAL_TO_LOCAL_H_
#define SHARDKIT_SRC_PARTITION_GLOBAL_TO_LOCAL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/ir/graph.h"
#include "shardkit/partition/passes.h"
#include "src/partition/hlo_emitter.h"

namespace shardkit::partition {

// The channel handle type of the collectives the conversion builds (1, a
// device-to-device channel).
inline constexpr int64_t kChannelHandleType = 1;

// Replica groups as an attribute, and how many devices each group has.
struct GroupsAttr {
  Attribute attr;
  int64_t size = 0;
};

class GlobalToLocal {
 public:
  GlobalToLocal(Module& module, const ConvertGlobalToLocalOptions& options);
  absl::Status run();

  // ---- What the handlers ask ----
  Module& module() { return module_; }
  const ConvertGlobalToLocalOptions& options() const { return options_; }
  TypeContext& types() { return module_.types(); }

  // The value operand `i` of the op being converted had before the
  // conversion (its handle, for the snapshot; use op.operand(i) to build).
  Value originalOperand(unsigned i) const;
  unsigned numOriginalOperands() const;
  // The global type and sharding (null when none) of a value of the
  // original program.
  Type globalType(Value original) const;
  const TensorSharding* sharding(Value original) const;
  Type operandGlobalType(unsigned i) const {
    return globalType(originalOperand(i));
  }
  const TensorSharding* operandSharding(unsigned i) const {
    return sharding(originalOperand(i));
  }
  // Whether `original` was a stablehlo.pad whose padding value is not a
  // splat zero constant.
  bool isPadWithNonZeroValue(Value original) const {
    return nonzero_pads_.contains(original.id());
  }
  // The local type of a value of the original program.
  absl::StatusOr<Type> localType(Value original);
  absl::StatusOr<std::vector<Type>> localResultTypes(Op op);
  // The mesh of `sharding` (null sharding or unknown mesh: null).
  const Mesh* meshOf(const TensorSharding* sharding) const;

  // `#stablehlo.channel_handle<handle = N, type = 1>` with the next id.
  Attribute nextChannelHandle();
  // The replica groups of a collective over `axes`: device ids, or with
  // enable-rgv3 (and no sub-axis among `axes`) the mesh-axes form.
  GroupsAttr replicaGroups(absl::Span<const AxisRef> axes, const Mesh& mesh,
                           const MeshOrRef& mesh_ref) const;
  // The device id (scalar i64) built by `e`.
  absl::StatusOr<Value> deviceId(HloEmitter& e) const;
  // The global offset (scalar i64) of the device's shard of a dimension
  // sharded by `axes` into pieces of `shard_size`: a table by device id.
  absl::StatusOr<Value> dimensionOffset(HloEmitter& e, const Mesh& mesh,
                                        absl::Span<const AxisRef> axes,
                                        int64_t shard_size) const;
  // The device's piece of `global`: a dynamic_slice of `local` shape at the
  // offsets of the dimensions sharded by `axes_per_dim`.
  absl::StatusOr<Value> sliceForAxes(
      HloEmitter& e, Value global, const Mesh& mesh,
      absl::Span<const AxisRefVector> axes_per_dim, Type local) const;

  // Sets the op's result types to their local types, in place (what the
  // reference does to an op it rebuilds unchanged but for its types).
  absl::Status localizeInPlace(Op op);
  // Makes the users of `op`'s results use `values` and erases `op`.
  void replace(Op op, absl::Span<const Value> values);

  // The errors: a pattern's error (`'name' op MESSAGE`, or MESSAGE as it is
  // when `op_prefix` is false) followed by the conversion's "failed to
  // legalize"; and a broken invariant of the reference (one error).
  absl::Status patternError(Op op, std::string_view message,
                            bool op_prefix = true) const;
  absl::Status invariantError(Op op, std::string_view message) const;
  absl::Status legalizeError(Op op) const;

 private:
  absl::Status snapshot();
  absl::Status convert(Op op);

  Module& module_;
  ConvertGlobalToLocalOptions options_;
  MeshTable meshes_;
  // The program before the conversion.
  std::vector<Op> ops_;                  // pre-order
  std::vector<uint32_t> operand_begin_;  // by position in ops_, and the end
  std::vector<uint32_t> operand_ids_;
  std::vector<Type> global_types_;                           // by value id
  absl::flat_hash_map<uint32_t, TensorSharding> shardings_;  // by value id
  absl::flat_hash_set<uint32_t> nonzero_pads_;
  size_t current_ = 0;  // the position in ops_ of the op being converted
  int64_t next_channel_id_ = 1;
};

// Whether `sharding` shards no dimension (replicated and unreduced axes
// aside), as the reference's isFullyReplicated: null counts as replicated.
bool shardsNoDimension(const TensorSharding* sharding);
// The axes sharding dimension `dim` of `sharding` (none for a null sharding
// or a dimension past its rank).
absl::Span<const AxisRef> dimAxes(const TensorSharding* sharding, int64_t dim);
// `["x", "y":(2)2]`, as the reference's diagnostics spell axis lists.
std::string axesText(absl::Span<const AxisRef> axes);

// The handlers: each converts one op kind (the op is GlobalToLocal's current
// op). global_to_local_collectives.cc:
absl::Status convertAllGather(GlobalToLocal& c, Op op);
absl::Status convertAllReduce(GlobalToLocal& c, Op op);
absl::Status convertAllSlice(GlobalToLocal& c, Op op);
absl::Status convertAllToAll(GlobalToLocal& c, Op op);
absl::Status convertCollectivePermute(GlobalToLocal& c, Op op);
absl::Status convertReduceScatter(GlobalToLocal& c, Op op);
// global_to_local_structure.cc (functions, computations, constants):
absl::Status convertFunc(GlobalToLocal& c, Op op);
absl::Status convertFuncReturn(GlobalToLocal& c, Op op);
absl::Status convertCall(GlobalToLocal& c, Op op);
absl::Status convertManualComputation(GlobalToLocal& c, Op op);
absl::Status convertNamedComputation(GlobalToLocal& c, Op op);
absl::Status convertSdyConstant(GlobalToLocal& c, Op op);
// global_to_local_shapes.cc (ops whose indexing follows the shards):
absl::Status convertConcatenate(GlobalToLocal& c, Op op);
absl::Status convertIota(GlobalToLocal& c, Op op);
absl::Status convertPad(GlobalToLocal& c, Op op);
absl::Status convertSlice(GlobalToLocal& c, Op op);
absl::Status convertWindowed(GlobalToLocal& c, Op op);
// global_to_local_contractions.cc:
absl::Status convertConvolution(GlobalToLocal& c, Op op);
absl::Status convertDot(GlobalToLocal& c, Op op);
absl::Status convertDotGeneral(GlobalToLocal& c, Op op);
// global_to_local_gather_scatter.cc:
absl::Status convertGather(GlobalToLocal& c, Op op);
absl::Status convertScatter(GlobalToLocal& c, Op op);

}  // namespace shardkit::partition

#endif  // SHARDKIT_SRC_PARTITION_GLOBAL_TO_LOCAL_H_

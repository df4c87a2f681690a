// Typed handles of the mpmd ops (docs/mpmd.md; the reference's
// docs/mpmd_dialect.md). Accessors carry the reference's ODS names. Like the
// sdy handles, an accessor of a required attribute returns an empty value on
// an op that failed verification.
#ifndef SHARDKIT_MPMD_OPS_H_
#define SHARDKIT_MPMD_OPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/ir/op_base.h"
#include "shardkit/mpmd/attrs.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::mpmd {

// Registers the op kinds of the dialect (their traits and verifiers).
// Idempotent and thread-safe.
void registerMpmdOps();

// Shared by the ops with one operand `tensor` and one result.
template <typename ConcreteOp>
class UnaryOp : public OpBase<ConcreteOp> {
 public:
  using OpBase<ConcreteOp>::OpBase;
  Value tensor() const { return this->op_.operand(0); }
  Value result() const { return this->op_.result(0); }
};

// `mpmd.assign {origin = "o"} %t : (tensor<...>) -> !mpmd.mesh_tensor<...>`:
// a local tensor put on a mesh, fully replicated.
class AssignOp : public UnaryOp<AssignOp> {
 public:
  static constexpr std::string_view kName = "mpmd.assign";
  using UnaryOp::UnaryOp;
  // `tensor` assigned to the mesh tensor type `result`; no origin when empty.
  static OperationState build(Value tensor, Type result,
                              std::string_view origin = "");
  // The `origin` label (empty when absent).
  std::string_view origin() const;
  // The mesh of the result.
  std::string meshName() const;
  MeshWithOrigins meshWithOrigin() const;
};

// `mpmd.unassign {origin = "o"} %t : (!mpmd.mesh_tensor<...>) -> tensor<...>`.
class UnassignOp : public UnaryOp<UnassignOp> {
 public:
  static constexpr std::string_view kName = "mpmd.unassign";
  using UnaryOp::UnaryOp;
  // The mesh tensor `tensor` as its global tensor.
  static OperationState build(Value tensor, std::string_view origin = "");
  std::string_view origin() const;
  // The mesh of the operand.
  std::string meshName() const;
  MeshWithOrigins meshWithOrigin() const;
};

// `mpmd.transfer %t : (mesh_tensor<m1,...>) -> mesh_tensor<m2,...>`.
class TransferOp : public UnaryOp<TransferOp> {
 public:
  static constexpr std::string_view kName = "mpmd.transfer";
  using UnaryOp::UnaryOp;
  static OperationState build(Value tensor, Type result);
  // Same mesh and memory kind on both sides (only the sharding changes).
  bool isIntraMesh() const;
};

// `mpmd.broadcast %t : tensor<...>`.
class BroadcastOp : public UnaryOp<BroadcastOp> {
 public:
  static constexpr std::string_view kName = "mpmd.broadcast";
  using UnaryOp::UnaryOp;
};

// `mpmd.named_tensor %t name="n" : tensor<...>`.
class NamedTensorOp : public UnaryOp<NamedTensorOp> {
 public:
  static constexpr std::string_view kName = "mpmd.named_tensor";
  using UnaryOp::UnaryOp;
  std::string_view name() const;
};

// `mpmd.reduce<add> %a, %b : (ts) -> t`.
class ReduceOp : public OpBase<ReduceOp> {
 public:
  static constexpr std::string_view kName = "mpmd.reduce";
  using OpBase::OpBase;
  // kNone when absent (the default).
  ReductionType reductionType() const;
};

// `mpmd.return %a, ... : ts`: the terminator of the mpmd region ops.
class ReturnOp : public OpBase<ReturnOp> {
 public:
  static constexpr std::string_view kName = "mpmd.return";
  using OpBase::OpBase;
};

// Shared by the ops with one single-block region.
template <typename ConcreteOp>
class RegionOp : public OpBase<ConcreteOp> {
 public:
  using OpBase<ConcreteOp>::OpBase;
  Block body() const {
    return this->op_.numRegions() ? this->op_.region(0).front() : Block();
  }
  // The terminator of the body, or null.
  Op returnOp() const {
    Block b = body();
    return b && !b.empty() ? b.back() : Op();
  }
};

// `mpmd.fragment<mesh="m", origin=["f"(1)], stage=0, in_shardings=[...],
// out_shardings=[...]> (%x) (%arg: tensor<...>) { ... } : (ts) -> ts`: a
// computation placed on one mesh of the topology.
class FragmentOp : public RegionOp<FragmentOp> {
 public:
  static constexpr std::string_view kName = "mpmd.fragment";
  using RegionOp::RegionOp;
  std::string_view meshName() const;
  std::vector<UserOrigin> origins() const;
  // A user fragment comes from named computations (non-empty origins).
  bool isUserFragment() const;
  std::optional<int64_t> stageId() const;
  const TensorShardingPerValue* inShardings() const;
  const TensorShardingPerValue* outShardings() const;
};

// `mpmd.fragment_call<mesh="m", origin=[]> @f(%x) : (ts) -> ts`.
class FragmentCallOp : public OpBase<FragmentCallOp> {
 public:
  static constexpr std::string_view kName = "mpmd.fragment_call";
  using OpBase::OpBase;
  std::string_view meshName() const;
  std::string_view callee() const;
};

// `mpmd.named_computation<"name"(N)> (%x) (%arg: t) { ... } : (ts) -> ts`.
class NamedComputationOp : public RegionOp<NamedComputationOp> {
 public:
  static constexpr std::string_view kName = "mpmd.named_computation";
  using RegionOp::RegionOp;
  UserOrigin origin() const;
  // The computation's name (not the op's).
  std::string name() const { return origin().name; }
};

// `mpmd.call @f(%x) : (ts) -> ts`.
class CallOp : public OpBase<CallOp> {
 public:
  static constexpr std::string_view kName = "mpmd.call";
  using OpBase::OpBase;
  std::string_view callee() const;
};

// `mpmd.for (%x) {iterations = 3 : ui32, unroll_factor = 1 : ui32}
// (%arg: t, %index: tensor<ui32>) { ... } : ts`.
class ForOp : public RegionOp<ForOp> {
 public:
  static constexpr std::string_view kName = "mpmd.for";
  using RegionOp::RegionOp;
  int64_t iterations() const;
  std::optional<int64_t> unrollFactor() const;
};

// ---- Attribute names ----

inline constexpr std::string_view kTopologyAttr = "topology";
inline constexpr std::string_view kMeshShapeAttr = "mesh_shape";
inline constexpr std::string_view kCallCounterAttr = "call_counter";
inline constexpr std::string_view kMemoryKindAttr = "mhlo.memory_kind";
inline constexpr std::string_view kOriginAttr = "origin";
// Mesh inference (docs/mpmd.md): the meshes that use a value, the meshes it
// can come from, the pass that created a fragment, a meshless op to become a
// cross-mesh reduction, and the copies of a callee argument or result.
inline constexpr std::string_view kUseSetAttr = "mpmd.use_set";
inline constexpr std::string_view kSrcSetAttr = "mpmd.src_set";
inline constexpr std::string_view kInferredByAttr = "mpmd.inferred_by";
inline constexpr std::string_view kReduceAnnotationAttr = "mpmd.reduce";
inline constexpr std::string_view kCanConvertToReduceAttr =
    "mpmd.can_convert_to_reduce";
inline constexpr std::string_view kCopiesAttr = "mpmd.copies";

}  // namespace shardkit::mpmd

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_MPMD_OPS_H_

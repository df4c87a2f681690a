// Typed handles of the mpmd ops (docs/mpmd.md; the reference's
// docs/mpmd_dialect.md). Accessors carry the reference's ODS names. Like the
// sdy handles, an accessor of a required attribute returns an empty value on
// an op that failed verification.
#ifndef SHARDKIT_DIALECT_MPMD_MPMD_OPS_H_
#define SHARDKIT_DIALECT_MPMD_MPMD_OPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/core/tensor_sharding.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_attrs.h"
#include "shardkit/export.h"
#include "shardkit/ir/op_base.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::mpmd {

// Registers the op kinds of the dialect (their traits and verifiers).
// Idempotent and thread-safe.
void registerMpmdOps();

// Shared by assign and unassign, which move a tensor between the local and
// the mesh world: the mesh of the side that is a mesh tensor (the result of
// an assign, the operand of an unassign) and the `origin` label.
template <ir_internal::NameLiteral Name, bool kMeshIsResult>
class MeshBoundaryOp : public TensorOp<Name> {
 public:
  using TensorOp<Name>::TensorOp;
  // The `origin` label (empty when absent).
  std::string_view origin() const {
    return stringAttrOrEmpty(this->op_, "origin");
  }
  std::string meshName() const {
    return meshNameOf((kMeshIsResult ? this->result() : this->tensor()).type());
  }
  // The mesh, with the origin if there is one.
  MeshWithOrigins meshWithOrigin() const {
    MeshWithOrigins result{meshName(), {}};
    if (!origin().empty()) result.origins.emplace_back(origin());
    return result;
  }
};

// `mpmd.assign {origin = "o"} %t : (tensor<...>) -> !mpmd.mesh_tensor<...>`:
// a local tensor put on a mesh, fully replicated.
class AssignOp : public MeshBoundaryOp<"mpmd.assign", true> {
 public:
  using MeshBoundaryOp::MeshBoundaryOp;
  // `tensor` assigned to the mesh tensor type `result`; no origin when empty.
  static OperationState build(Value tensor, Type result,
                              std::string_view origin = "");
};

// `mpmd.unassign {origin = "o"} %t : (!mpmd.mesh_tensor<...>) -> tensor<...>`.
class UnassignOp : public MeshBoundaryOp<"mpmd.unassign", false> {
 public:
  using MeshBoundaryOp::MeshBoundaryOp;
  // The mesh tensor `tensor` as its global tensor.
  static OperationState build(Value tensor, std::string_view origin = "");
};

// `mpmd.transfer %t : (mesh_tensor<m1,...>) -> mesh_tensor<m2,...>`.
class TransferOp : public TensorOp<"mpmd.transfer"> {
 public:
  using TensorOp::TensorOp;
  static OperationState build(Value tensor, Type result);
  // Same mesh and memory kind on both sides (only the sharding changes).
  bool isIntraMesh() const;
};

// `mpmd.broadcast %t : tensor<...>`.
using BroadcastOp = TensorOp<"mpmd.broadcast">;

// `mpmd.named_tensor %t name="n" : tensor<...>`.
class NamedTensorOp : public TensorOp<"mpmd.named_tensor"> {
 public:
  using TensorOp::TensorOp;
  std::string_view name() const;
};

// `mpmd.reduce<add> %a, %b : (ts) -> t`.
class ReduceOp : public OpBase<"mpmd.reduce"> {
 public:
  using OpBase::OpBase;
  // kNone when absent (the default).
  ReductionType reductionType() const;
};

// `mpmd.return %a, ... : ts`: the terminator of the mpmd region ops.
using ReturnOp = PlainOp<"mpmd.return">;

// Shared by the two fragment ops (`Base` the handle of one), which run on
// the mesh of the topology their `mesh_name` names.
template <typename Base>
class OnMeshOp : public Base {
 public:
  using Base::Base;
  std::string_view meshName() const {
    return stringAttrOrEmpty(this->op_, "mesh_name");
  }
};

// `mpmd.fragment<mesh="m", origin=["f"(1)], stage=0, in_shardings=[...],
// out_shardings=[...]> (%x) (%arg: tensor<...>) { ... } : (ts) -> ts`: a
// computation placed on one mesh of the topology.
class FragmentOp : public OnMeshOp<SingleBlockOp<"mpmd.fragment">> {
 public:
  using OnMeshOp::OnMeshOp;
  std::vector<UserOrigin> origins() const;
  // A user fragment comes from named computations (non-empty origins).
  bool isUserFragment() const;
  std::optional<int64_t> stageId() const;
  const TensorShardingPerValue* inShardings() const;
  const TensorShardingPerValue* outShardings() const;
};

// `mpmd.fragment_call<mesh="m", origin=[]> @f(%x) : (ts) -> ts`.
using FragmentCallOp = OnMeshOp<CallLikeOp<"mpmd.fragment_call">>;

// `mpmd.named_computation<"name"(N)> (%x) (%arg: t) { ... } : (ts) -> ts`.
class NamedComputationOp : public SingleBlockOp<"mpmd.named_computation"> {
 public:
  using SingleBlockOp::SingleBlockOp;
  UserOrigin origin() const;
  // The computation's name (not the op's).
  std::string name() const { return origin().name; }
};

// `mpmd.call @f(%x) : (ts) -> ts`.
using CallOp = CallLikeOp<"mpmd.call">;

// `mpmd.for (%x) {iterations = 3 : ui32, unroll_factor = 1 : ui32}
// (%arg: t, %index: tensor<ui32>) { ... } : ts`.
class ForOp : public SingleBlockOp<"mpmd.for"> {
 public:
  using SingleBlockOp::SingleBlockOp;
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

#endif  // SHARDKIT_DIALECT_MPMD_MPMD_OPS_H_

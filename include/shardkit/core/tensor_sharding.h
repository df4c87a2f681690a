// TensorSharding: how a tensor is split over a mesh; TensorShardingPerValue:
// one sharding per operand or result of an op.
#ifndef SHARDKIT_CORE_TENSOR_SHARDING_H_
#define SHARDKIT_CORE_TENSOR_SHARDING_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardkit/core/axis_ref.h"
#include "shardkit/core/dimension_sharding.h"
#include "shardkit/core/formatter.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/value_list.h"
#include "shardkit/support/enum_table.h"
#include "shardkit/support/strings.h"

namespace shardkit {

// The reduction pending over a tensor's unreduced axes; `sum` is the default
// and is not printed (`unreduced={"x"}`), the others are (`unreduced=max{..}`).
enum class ReductionKind { kSum, kMax, kMin, kLast = kMin };

// Either `@name`, a reference to an `sdy.mesh` symbol, or an inline mesh.
// An inline mesh is immutable and shared by copies.
class MeshOrRef {
 public:
  MeshOrRef() = default;
  static MeshOrRef ref(std::string name) {
    MeshOrRef out;
    out.name_ = std::move(name);
    return out;
  }
  static MeshOrRef inlined(Mesh mesh) {
    MeshOrRef out;
    out.inline_ = std::make_shared<const Mesh>(std::move(mesh));
    return out;
  }
  // Makes this a reference to `name`, reusing the name's storage (a parser
  // fills a default-constructed value this way).
  void setRef(std::string_view name) {
    name_.assign(name);
    inline_.reset();
  }

  bool isRef() const { return inline_ == nullptr; }
  bool isInline() const { return inline_ != nullptr; }
  // The symbol name without '@'; empty for an inline mesh.
  std::string_view name() const {
    return inline_ ? std::string_view() : std::string_view(name_);
  }
  // The inline mesh, or null for a reference.
  const Mesh* inlineMesh() const { return inline_.get(); }

  friend bool operator==(const MeshOrRef& a, const MeshOrRef& b) {
    if (a.inline_ || b.inline_) {
      return a.inline_ && b.inline_ && *a.inline_ == *b.inline_;
    }
    return a.name_ == b.name_;
  }
  template <typename H>
  friend H AbslHashValue(H h, const MeshOrRef& m) {
    if (const Mesh* mesh = m.inlineMesh()) {
      return H::combine(std::move(h), true, *mesh);
    }
    return H::combine(std::move(h), false, m.name());
  }

 private:
  std::string name_;                    // when a reference
  std::shared_ptr<const Mesh> inline_;  // when inline
};

// `<@mesh, [{"x", ?}p1, {}], replicated={"y"}, unreduced={"z"}>`.
struct TensorSharding {
  MeshOrRef mesh;
  std::vector<DimensionSharding> dim_shardings;
  AxisRefVector replicated_axes;
  AxisRefVector unreduced_axes;
  ReductionKind unreduced_kind = ReductionKind::kSum;

  TensorSharding() = default;
  TensorSharding(MeshOrRef mesh, std::vector<DimensionSharding> dims,
                 AxisRefVector replicated = {}, AxisRefVector unreduced = {})
      : mesh(std::move(mesh)),
        dim_shardings(std::move(dims)),
        replicated_axes(std::move(replicated)),
        unreduced_axes(std::move(unreduced)) {}

  // A sharding of `rank` dimensions, all open (or all closed) and empty.
  static TensorSharding fullyOpen(MeshOrRef mesh, int64_t rank) {
    return TensorSharding(
        std::move(mesh),
        std::vector<DimensionSharding>(rank, DimensionSharding::open()));
  }
  static TensorSharding fullyClosed(MeshOrRef mesh, int64_t rank) {
    return TensorSharding(
        std::move(mesh),
        std::vector<DimensionSharding>(rank, DimensionSharding::closed()));
  }

  int64_t rank() const { return static_cast<int64_t>(dim_shardings.size()); }
  std::string_view meshName() const { return mesh.name(); }
  // True if no dimension is sharded and nothing is replicated or unreduced
  // explicitly (the dims may still be open or closed).
  bool isFullyReplicated() const;
  // True if all dimensions are empty and closed and nothing is explicit.
  bool isFullyClosedAndEmpty() const;
  // Calls `fn(axis)` for every axis ref that shards a dimension, in order.
  template <typename Fn>
  void forEachShardingAxis(Fn&& fn) const {
    for (const DimensionSharding& d : dim_shardings) {
      for (const AxisRef& a : d.axes) fn(a);
    }
  }
  // The axes sharding dims, then replicated, then unreduced.
  AxisRefVector allAxes() const;

  friend bool operator==(const TensorSharding&,
                         const TensorSharding&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const TensorSharding& s) {
    return H::combine(std::move(h), s.mesh, s.dim_shardings, s.replicated_axes,
                      s.unreduced_axes, s.unreduced_kind);
  }
};

// `<[<@mesh, [...]>, ...]>`: one sharding per value.
using TensorShardingPerValue =
    ValueList<TensorSharding, struct TensorShardingPerValueTag>;

inline bool TensorSharding::isFullyReplicated() const {
  if (!replicated_axes.empty() || !unreduced_axes.empty()) return false;
  for (const DimensionSharding& dim : dim_shardings) {
    if (!dim.axes.empty()) return false;
  }
  return true;
}

inline bool TensorSharding::isFullyClosedAndEmpty() const {
  if (!isFullyReplicated()) return false;
  for (const DimensionSharding& dim : dim_shardings) {
    if (!dim.is_closed) return false;
  }
  return true;
}

inline AxisRefVector TensorSharding::allAxes() const {
  AxisRefVector axes;
  forEachShardingAxis([&](const AxisRef& a) { axes.push_back(a); });
  axes.insert(axes.end(), replicated_axes.begin(), replicated_axes.end());
  axes.insert(axes.end(), unreduced_axes.begin(), unreduced_axes.end());
  return axes;
}

inline constexpr EnumTable<ReductionKind, std::string_view>
    kReductionKindNames = {{"sum", "max", "min"}};

// `sum`, `max` or `min`.
inline std::string_view toString(ReductionKind kind) {
  return kReductionKindNames[kind];
}

// The kind `toString` names (an empty name is a sum, the default), or
// nullopt.
inline std::optional<ReductionKind> parseReductionKind(std::string_view name) {
  if (name.empty()) return ReductionKind::kSum;
  return kReductionKindNames.find(name);
}

// Appends `@mesh` or `mesh<[...]>`.
inline void appendTo(std::string& out, const MeshOrRef& mesh) {
  if (const Mesh* inline_mesh = mesh.inlineMesh()) {
    out += "mesh";
    appendTo(out, *inline_mesh);
  } else {
    appendSymbolRef(out, mesh.name());
  }
}

// Appends the stripped form `<@mesh, [{"x"}, {}]>` (without the
// `#sdy.sharding` prefix).
inline void appendTo(std::string& out, const TensorSharding& sharding) {
  out += '<';
  appendTo(out, sharding.mesh);
  appendList(out, ", [", sharding.dim_shardings, appendPrintable, "]");
  if (!sharding.replicated_axes.empty()) {
    out += ", replicated=";
    appendBracedAxisList(out, sharding.replicated_axes);
  }
  if (!sharding.unreduced_axes.empty()) {
    out += ", unreduced=";
    if (sharding.unreduced_kind != ReductionKind::kSum) {
      out += toString(sharding.unreduced_kind);
    }
    appendBracedAxisList(out, sharding.unreduced_axes);
  }
  out += '>';
}

// Appends the stripped form `<[<@mesh, [...]>]>`.
inline void appendTo(std::string& out,
                     const TensorShardingPerValue& shardings) {
  appendList(out, "<[", shardings, appendPrintable, "]>");
}
// `#sdy.sharding<...>` and `#sdy.sharding_per_value<...>`.
inline std::string toAttrString(const TensorSharding& sharding) {
  return "#sdy.sharding" + toString(sharding);
}
inline std::string toAttrString(const TensorShardingPerValue& shardings) {
  return "#sdy.sharding_per_value" + toString(shardings);
}

}  // namespace shardkit

SHARDKIT_DEFINE_FORMATTER(shardkit::TensorShardingPerValue);

#endif  // SHARDKIT_CORE_TENSOR_SHARDING_H_

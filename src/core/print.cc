// The printers of every core value type. Each writes exactly what the
// reference prints for the stripped attribute form.
#include <string>

#include "shardkit/core/axis_ref.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/collective_params.h"
#include "shardkit/core/dimension_sharding.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/propagation_direction.h"
#include "shardkit/core/strings.h"
#include "shardkit/core/tensor_sharding.h"

namespace shardkit {
namespace {

std::string joinInts(const std::vector<int64_t>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    strAppend(out, values[i]);
  }
  return out;
}

void appendAxisRef(std::string& out, const AxisRef& axis) {
  appendQuoted(out, axis.name);
  if (axis.sub_axis_info) {
    strAppend(out, ":(", axis.sub_axis_info->pre_size, ")",
              axis.sub_axis_info->size);
  }
}

void appendAxisList(std::string& out, absl::Span<const AxisRef> axes) {
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) out += ", ";
    appendAxisRef(out, axes[i]);
  }
}

void appendMesh(std::string& out, const Mesh& mesh) {
  out += "<[";
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    if (i) out += ", ";
    appendQuoted(out, mesh.axes[i].name);
    strAppend(out, "=", mesh.axes[i].size);
  }
  out += "]";
  if (!mesh.device_ids.empty()) {
    strAppend(out, ", device_ids=[", joinInts(mesh.device_ids), "]");
  }
  out += ">";
}

void appendDim(std::string& out, const DimensionSharding& dim) {
  out += '{';
  appendAxisList(out, dim.axes);
  if (!dim.is_closed) out += dim.axes.empty() ? "?" : ", ?";
  out += '}';
  if (dim.priority) strAppend(out, "p", *dim.priority);
}

void appendMeshOrRef(std::string& out, const MeshOrRef& mesh) {
  if (const Mesh* inline_mesh = mesh.inlineMesh()) {
    out += "mesh";
    appendMesh(out, *inline_mesh);
  } else {
    appendSymbolRef(out, mesh.name());
  }
}

void appendSharding(std::string& out, const TensorSharding& sharding) {
  out += '<';
  appendMeshOrRef(out, sharding.mesh);
  out += ", [";
  for (size_t i = 0; i < sharding.dim_shardings.size(); ++i) {
    if (i) out += ", ";
    appendDim(out, sharding.dim_shardings[i]);
  }
  out += ']';
  if (!sharding.replicated_axes.empty()) {
    out += ", replicated={";
    appendAxisList(out, sharding.replicated_axes);
    out += '}';
  }
  if (!sharding.unreduced_axes.empty()) {
    out += ", unreduced=";
    if (sharding.unreduced_kind != ReductionKind::kSum) {
      out += toString(sharding.unreduced_kind);
    }
    out += '{';
    appendAxisList(out, sharding.unreduced_axes);
    out += '}';
  }
  out += '>';
}

void appendDimMapping(std::string& out, const DimMapping& mapping) {
  for (int64_t factor : mapping.factor_indices) out += factorSymbol(factor);
}

void appendTensorMapping(std::string& out, const TensorMapping& mapping) {
  out += '[';
  for (size_t i = 0; i < mapping.dim_mappings.size(); ++i) {
    if (i) out += ", ";
    appendDimMapping(out, mapping.dim_mappings[i]);
  }
  out += ']';
}

void appendFactorList(std::string& out, std::string_view keyword,
                      absl::Span<const int64_t> factors) {
  if (factors.empty()) return;
  out += ' ';
  out += keyword;
  out += "={";
  for (size_t i = 0; i < factors.size(); ++i) {
    if (i) out += ", ";
    out += factorSymbol(factors[i]);
  }
  out += '}';
}

void appendRule(std::string& out, const OpShardingRule& rule) {
  out += "<(";
  for (size_t i = 0; i < rule.operand_mappings.size(); ++i) {
    if (i) out += ", ";
    appendTensorMapping(out, rule.operand_mappings[i]);
  }
  out += ")->(";
  for (size_t i = 0; i < rule.result_mappings.size(); ++i) {
    if (i) out += ", ";
    appendTensorMapping(out, rule.result_mappings[i]);
  }
  out += ')';
  if (!rule.factor_sizes.empty()) {
    out += " {";
    for (size_t i = 0; i < rule.factor_sizes.size(); ++i) {
      if (i) out += ", ";
      strAppend(out, factorSymbol(i), "=", rule.factor_sizes[i]);
    }
    out += '}';
  }
  appendFactorList(out, "reduction", rule.reduction_factors);
  appendFactorList(out, "need_replication", rule.need_replication_factors);
  appendFactorList(out, "permutation", rule.permutation_factors);
  appendFactorList(out, "blocked_propagation",
                   rule.blocked_propagation_factors);
  if (rule.is_custom_rule) out += ", custom";
  out += '>';
}

}  // namespace

std::string toString(const MeshAxis& axis) {
  std::string out;
  appendQuoted(out, axis.name);
  strAppend(out, "=", axis.size);
  return out;
}

std::string toString(const Mesh& mesh) {
  std::string out;
  appendMesh(out, mesh);
  return out;
}

std::string toString(const SubAxisInfo& info) {
  return strCat("(", info.pre_size, ")", info.size);
}

std::string toString(const AxisRef& axis) {
  std::string out;
  appendAxisRef(out, axis);
  return out;
}

std::string axisListToString(absl::Span<const AxisRef> axes) {
  std::string out = "{";
  appendAxisList(out, axes);
  out += '}';
  return out;
}

std::string toString(const AxisRefList& list) {
  return axisListToString(list.axes);
}

std::string toString(const DimensionSharding& dim) {
  std::string out;
  appendDim(out, dim);
  return out;
}

std::string_view toString(ReductionKind kind) {
  switch (kind) {
    case ReductionKind::kSum:
      return "sum";
    case ReductionKind::kMax:
      return "max";
    case ReductionKind::kMin:
      return "min";
  }
  return "sum";
}

std::string toString(const MeshOrRef& mesh) {
  std::string out;
  appendMeshOrRef(out, mesh);
  return out;
}

std::string toString(const TensorSharding& sharding) {
  std::string out;
  appendSharding(out, sharding);
  return out;
}

std::string toString(const TensorShardingPerValue& shardings) {
  std::string out = "<[";
  for (size_t i = 0; i < shardings.shardings.size(); ++i) {
    if (i) out += ", ";
    appendSharding(out, shardings.shardings[i]);
  }
  out += "]>";
  return out;
}

std::string toAttrString(const TensorSharding& sharding) {
  return "#sdy.sharding" + toString(sharding);
}

std::string toAttrString(const TensorShardingPerValue& shardings) {
  return "#sdy.sharding_per_value" + toString(shardings);
}

std::string toString(const ListOfAxisRefLists& lists) {
  std::string out = "[";
  for (size_t i = 0; i < lists.lists.size(); ++i) {
    if (i) out += ", ";
    out += '{';
    appendAxisList(out, lists.lists[i].axes);
    out += '}';
  }
  out += ']';
  return out;
}

std::string toString(const ManualAxes& axes) {
  std::string out = "{";
  for (size_t i = 0; i < axes.names.size(); ++i) {
    if (i) out += ", ";
    appendQuoted(out, axes.names[i]);
  }
  out += '}';
  return out;
}

std::string toString(const AllToAllParam& param) {
  std::string out = "{";
  appendAxisList(out, param.axes);
  strAppend(out, "}: ", param.src_dim, "->", param.tgt_dim);
  return out;
}

std::string toString(const AllToAllParamList& params) {
  std::string out = "[";
  for (size_t i = 0; i < params.params.size(); ++i) {
    if (i) out += ", ";
    out += toString(params.params[i]);
  }
  out += ']';
  return out;
}

std::string toString(PropagationDirection direction) {
  switch (direction) {
    case PropagationDirection::kNone:
      return "NONE";
    case PropagationDirection::kForward:
      return "FORWARD";
    case PropagationDirection::kBackward:
      return "BACKWARD";
    case PropagationDirection::kBoth:
      return "BOTH";
  }
  return "NONE";
}

std::optional<PropagationDirection> propagationDirectionFromString(
    std::string_view text) {
  if (text == "NONE") return PropagationDirection::kNone;
  if (text == "FORWARD") return PropagationDirection::kForward;
  if (text == "BACKWARD") return PropagationDirection::kBackward;
  if (text == "BOTH") return PropagationDirection::kBoth;
  return std::nullopt;
}

std::string factorSymbol(int64_t index) {
  constexpr int64_t kLetters = 'z' - 'i';  // i..z are 0..17
  if (index <= kLetters) return std::string(1, static_cast<char>('i' + index));
  return strCat("z_", index - kLetters);
}

std::string toString(const DimMapping& mapping) {
  std::string out;
  appendDimMapping(out, mapping);
  return out;
}

std::string toString(const TensorMapping& mapping) {
  std::string out;
  appendTensorMapping(out, mapping);
  return out;
}

std::string toString(const OpShardingRule& rule) {
  std::string out;
  appendRule(out, rule);
  return out;
}

std::string toAttrString(const OpShardingRule& rule) {
  return "#sdy.op_sharding_rule" + toString(rule);
}

}  // namespace shardkit

#include "src/interp/mesh_axes_groups.h"

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/sim/device_groups.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/dialect_attr_text.h"
#include "shardkit/text/parse.h"
#include "shardkit/text/scanner.h"
#include "shardkit/text/stablehlo_attr_text.h"
#include "src/interp/evaluator.h"

namespace shardkit::interp {
namespace {

std::string_view fieldOf(const std::vector<DialectAttrField>& fields,
                         std::string_view key) {
  for (const DialectAttrField& f : fields) {
    if (f.key == key) return f.value;
  }
  return {};
}

// `#stablehlo.mesh<axes = [...], device_ids = dense<[...]> : tensor<N>>`
// with its device ids.
absl::StatusOr<Mesh> stablehloMesh(std::string_view text) {
  SK_ASSIGN_OR_RETURN(Mesh mesh, parseStablehloMeshAxes(text));
  std::optional<DialectAttrText> attr = splitDialectAttr(text);
  std::optional<std::vector<DialectAttrField>> fields =
      attr ? splitDialectAttrFields(attr->body) : std::nullopt;
  std::string_view ids = fields ? fieldOf(*fields, "device_ids") : "";
  if (ids.empty()) return mesh;
  size_t open = ids.find('<'), close = ids.find('>');
  std::optional<std::vector<int64_t>> values;
  if (ids.starts_with("dense<") && close != std::string_view::npos) {
    values = parseIntListText(ids.substr(open + 1, close - open - 1));
  }
  if (!values) return evalError(strCat("cannot read device_ids '", ids, "'"));
  mesh.device_ids = *values;
  return mesh;
}

absl::StatusOr<Mesh> meshOf(Op op, std::string_view text) {
  if (text.starts_with("@")) {
    Op symbol = op.module()->lookupSymbol(text.substr(1));
    const Mesh* mesh =
        isa<sdy::MeshOp>(symbol) ? symbol.attr("mesh").as<Mesh>() : nullptr;
    if (mesh == nullptr) {
      return evalError(strCat("replica_groups name ", text,
                              ", which is not a mesh of the module"));
    }
    return *mesh;
  }
  std::optional<DialectAttrText> attr = splitDialectAttr(text);
  if (attr && attr->name == "stablehlo.mesh") return stablehloMesh(text);
  return parseMesh(text);
}

// `#stablehlo.axis_ref<name = "x">` or with `sub_axis_info = (p)s`.
absl::StatusOr<AxisRef> axisRef(std::string_view text) {
  std::optional<DialectAttrText> attr = splitDialectAttr(text);
  std::optional<std::vector<DialectAttrField>> fields =
      attr ? splitDialectAttrFields(attr->body) : std::nullopt;
  std::string_view name = fields ? fieldOf(*fields, "name") : "";
  if (name.size() < 2 || name.front() != '"' || name.back() != '"') {
    return evalError(strCat("cannot read axis '", text, "'"));
  }
  std::string axis(name.substr(1, name.size() - 2));
  std::string_view sub = fieldOf(*fields, "sub_axis_info");
  if (sub.empty()) return AxisRef(axis);
  size_t close = sub.find(')');
  int64_t pre = 0, size = 0;
  if (!sub.starts_with("(") || close == std::string_view::npos ||
      !parseInt64(sub.substr(1, close - 1), pre) ||
      !parseInt64(sub.substr(close + 1), size)) {
    return evalError(strCat("cannot read sub_axis_info '", sub, "'"));
  }
  return AxisRef(axis, pre, size);
}

}  // namespace

absl::StatusOr<std::optional<std::vector<std::vector<int64_t>>>> meshAxesGroups(
    Op op, const Attribute& attr) {
  const std::string* text = attr.asOpaque();
  std::optional<DialectAttrText> split =
      text ? splitDialectAttr(*text) : std::nullopt;
  if (!split || split->name != "stablehlo.replica_group_mesh_axes") {
    return std::nullopt;
  }
  std::optional<std::vector<DialectAttrField>> fields =
      splitDialectAttrFields(split->body);
  std::string_view mesh_text = fields ? fieldOf(*fields, "mesh") : "";
  std::string_view axes_text = fields ? fieldOf(*fields, "axes") : "";
  if (mesh_text.empty() || !axes_text.starts_with("[") ||
      !axes_text.ends_with("]")) {
    return evalError(strCat("cannot read replica_groups '", *text, "'"));
  }
  SK_ASSIGN_OR_RETURN(Mesh mesh, meshOf(op, mesh_text));
  SK_ASSIGN_OR_RETURN(std::vector<std::string_view> parts,
                      splitTopLevel(axes_text.substr(1, axes_text.size() - 2)));
  AxisRefVector axes;
  for (std::string_view part : parts) {
    SK_ASSIGN_OR_RETURN(AxisRef axis, axisRef(part));
    axes.push_back(std::move(axis));
  }
  absl::StatusOr<std::vector<std::vector<int64_t>>> groups =
      collectiveGroups(axes, mesh);
  if (!groups.ok()) {
    return evalError(
        strCat("replica_groups: ", fromAbsl(groups.status().message())));
  }
  return std::optional(*std::move(groups));
}

}  // namespace shardkit::interp

#include "shardkit/text/stablehlo_attr_text.h"

#include <utility>
#include <vector>

#include "shardkit/support/strings.h"
#include "shardkit/text/dialect_attr_text.h"
#include "shardkit/text/lexer.h"
#include "shardkit/text/scanner.h"

namespace shardkit {
namespace {

// The fields of `#<name><...>` (or of the stripped `<...>` too, with
// `stripped_ok`), or nullopt.
std::optional<std::vector<DialectAttrField>> attrFields(
    std::string_view text, std::string_view name, bool stripped_ok = false) {
  std::optional<DialectAttrText> attr = splitDialectAttr(text);
  if (!attr || (attr->name != name && !(stripped_ok && attr->name.empty()))) {
    return std::nullopt;
  }
  return splitDialectAttrFields(attr->body);
}

// The fields of a `#<name><...>` attribute of dimension numbers `Dims`: its
// integer lists, then its integers, each by key (the printed order).
template <typename Dims>
struct DimsFields {
  std::string_view name;
  std::vector<std::pair<std::string_view, std::vector<int64_t> Dims::*>> lists;
  std::vector<std::pair<std::string_view, int64_t Dims::*>> ints;
};

// Reads `text` when all its fields are known, each given at most once;
// nullopt on anything else.
template <typename Dims>
std::optional<Dims> readFields(std::string_view text,
                               const DimsFields<Dims>& known) {
  std::optional<std::vector<DialectAttrField>> fields =
      attrFields(text, known.name);
  if (!fields) return std::nullopt;
  Dims dims;
  std::vector<std::string_view> seen;
  for (const DialectAttrField& field : *fields) {
    for (std::string_view key : seen) {
      if (key == field.key) return std::nullopt;
    }
    seen.push_back(field.key);
    bool found = false;
    for (const auto& [key, member] : known.lists) {
      if (key != field.key) continue;
      std::optional<std::vector<int64_t>> values =
          parseIntListText(field.value);
      if (!values) return std::nullopt;
      dims.*member = std::move(*values);
      found = true;
    }
    for (const auto& [key, member] : known.ints) {
      if (key != field.key) continue;
      if (!parseInt64(field.value, dims.*member)) return std::nullopt;
      found = true;
    }
    if (!found) return std::nullopt;
  }
  return dims;
}

void appendIntList(std::string& out, const std::vector<int64_t>& values) {
  out += '[';
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    strAppend(out, values[i]);
  }
  out += ']';
}

const DimsFields<DotDimensionNumbers>& dotFields() {
  using D = DotDimensionNumbers;
  static const auto* fields =
      new DimsFields<D>{"stablehlo.dot",
                        {{"lhs_batching_dimensions", &D::lhs_batching},
                         {"rhs_batching_dimensions", &D::rhs_batching},
                         {"lhs_contracting_dimensions", &D::lhs_contracting},
                         {"rhs_contracting_dimensions", &D::rhs_contracting}},
                        {}};
  return *fields;
}

// A list field of gather and scatter: gather's key, scatter's key, member.
struct SliceListField {
  std::string_view gather_key;
  std::string_view scatter_key;
  std::vector<int64_t> SliceDimensionNumbers::*member;
};
constexpr SliceListField kSliceListFields[] = {
    {"offset_dims", "update_window_dims", &SliceDimensionNumbers::offset_dims},
    {"collapsed_slice_dims", "inserted_window_dims",
     &SliceDimensionNumbers::collapsed_dims},
    {"operand_batching_dims", "input_batching_dims",
     &SliceDimensionNumbers::input_batching_dims},
    {"start_indices_batching_dims", "scatter_indices_batching_dims",
     &SliceDimensionNumbers::indices_batching_dims},
    {"start_index_map", "scatter_dims_to_operand_dims",
     &SliceDimensionNumbers::index_map}};

DimsFields<SliceDimensionNumbers> makeSliceFields(bool scatter) {
  DimsFields<SliceDimensionNumbers> fields{
      scatter ? "stablehlo.scatter" : "stablehlo.gather",
      {},
      {{"index_vector_dim", &SliceDimensionNumbers::index_vector_dim}}};
  for (const SliceListField& field : kSliceListFields) {
    fields.lists.emplace_back(scatter ? field.scatter_key : field.gather_key,
                              field.member);
  }
  return fields;
}

// The fields of `#stablehlo.gather<...>`, or of `#stablehlo.scatter<...>`
// with `scatter`: one struct, each op's keys.
const DimsFields<SliceDimensionNumbers>& sliceFields(bool scatter) {
  static const auto* fields = new DimsFields<SliceDimensionNumbers>[2] {
    makeSliceFields(false), makeSliceFields(true)
  };
  return fields[scatter];
}

// The names of the two non-spatial dimensions of each of conv's three
// bracket lists (input, kernel, output).
constexpr char kConvNames[3][2] = {{'b', 'f'}, {'i', 'o'}, {'b', 'f'}};

// Reads the body of one bracket list (`b, 0, 1, f`) whose non-spatial
// dimensions are named `names`.
bool readConvList(std::string_view body, const char (&names)[2], int64_t& first,
                  int64_t& second, std::vector<int64_t>& spatial) {
  absl::StatusOr<std::vector<std::string_view>> parts = splitTopLevel(body);
  if (!parts.ok()) return false;
  const int64_t rank = static_cast<int64_t>(parts->size());
  bool seen_first = false, seen_second = false;
  std::vector<std::pair<int64_t, int64_t>> spatial_dims;  // (k, dimension)
  for (int64_t dim = 0; dim < rank; ++dim) {
    std::string_view part = (*parts)[dim];
    bool is_first = part.size() == 1 && part[0] == names[0];
    bool is_second = part.size() == 1 && part[0] == names[1];
    if (is_first || is_second) {
      bool& seen = is_first ? seen_first : seen_second;
      if (seen) return false;
      (is_first ? first : second) = dim;
      seen = true;
      continue;
    }
    int64_t k = 0;
    if (!parseInt64(part, k) || k < 0 || k >= rank) return false;
    spatial_dims.emplace_back(k, dim);
  }
  if (!seen_first || !seen_second) return false;
  spatial.assign(spatial_dims.size(), -1);
  for (auto [k, dim] : spatial_dims) {
    if (k >= static_cast<int64_t>(spatial.size()) || spatial[k] != -1) {
      return false;
    }
    spatial[k] = dim;
  }
  return true;
}

void appendConvList(std::string& out, const char (&names)[2], int64_t first,
                    int64_t second, const std::vector<int64_t>& spatial) {
  const int64_t rank = static_cast<int64_t>(spatial.size()) + 2;
  std::vector<std::string> parts(rank);
  auto set = [&](int64_t dim, std::string text) {
    if (dim >= 0 && dim < rank) parts[dim] = std::move(text);
  };
  set(first, std::string(1, names[0]));
  set(second, std::string(1, names[1]));
  for (size_t k = 0; k < spatial.size(); ++k) set(spatial[k], strCat(k));
  out += '[';
  for (int64_t i = 0; i < rank; ++i) strAppend(out, i ? ", " : "", parts[i]);
  out += ']';
}

// One `#stablehlo.mesh_axis<name = "x", size = 2>` (or `<...>`).
absl::StatusOr<MeshAxis> parseStablehloMeshAxis(std::string_view text) {
  auto malformed = [&](std::string_view what) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("malformed stablehlo mesh axis '", text, "': ", what)));
  };
  std::optional<std::vector<DialectAttrField>> fields =
      attrFields(text, "stablehlo.mesh_axis", /*stripped_ok=*/true);
  if (!fields)
    return malformed("expected #stablehlo.mesh_axis<key = value, ...>");
  MeshAxis axis;
  bool has_name = false, has_size = false;
  for (const DialectAttrField& field : *fields) {
    if (field.key == "name" && !has_name) {
      Lexer lexer(field.value);
      Token token = lexer.next();
      if (!token.is(TokenKind::kString) || !lexer.next().is(TokenKind::kEof) ||
          !Lexer::unescape(token.spelling, axis.name)) {
        return malformed("the name must be a string");
      }
      has_name = true;
    } else if (field.key == "size" && !has_size) {
      if (!parseInt64(field.value, axis.size)) {
        return malformed("the size must be an integer");
      }
      has_size = true;
    } else {
      return malformed(strCat("unexpected field '", field.key, "'"));
    }
  }
  if (!has_name || !has_size) return malformed("expected a name and a size");
  return axis;
}

}  // namespace

std::optional<DotDimensionNumbers> parseDotDimensionNumbersAttr(
    std::string_view text) {
  return readFields(text, dotFields());
}

namespace {

// `#<name><k1 = [..], ...>`: the list fields in order, then the integer
// fields; empty lists and zeros are omitted, as StableHLO prints them.
template <typename Dims>
std::string printFields(const Dims& dims, const DimsFields<Dims>& known) {
  std::string text = strCat("#", known.name, "<");
  bool first = true;
  for (const auto& [key, member] : known.lists) {
    const std::vector<int64_t>& values = dims.*member;
    if (values.empty()) continue;
    strAppend(text, first ? "" : ", ", key, " = ");
    appendIntList(text, values);
    first = false;
  }
  for (const auto& [key, member] : known.ints) {
    if (dims.*member == 0) continue;
    strAppend(text, first ? "" : ", ", key, " = ", dims.*member);
    first = false;
  }
  text += '>';
  return text;
}

}  // namespace

std::string printDotDimensionNumbersAttr(const DotDimensionNumbers& dims) {
  return printFields(dims, dotFields());
}

std::string printGatherDimensionNumbersAttr(
    const GatherDimensionNumbers& dims) {
  return printFields(dims, sliceFields(/*scatter=*/false));
}

std::string printScatterDimensionNumbersAttr(
    const ScatterDimensionNumbers& dims) {
  return printFields(dims, sliceFields(/*scatter=*/true));
}

std::optional<GatherDimensionNumbers> parseGatherDimensionNumbersAttr(
    std::string_view text) {
  return readFields(text, sliceFields(/*scatter=*/false));
}

std::optional<ScatterDimensionNumbers> parseScatterDimensionNumbersAttr(
    std::string_view text) {
  return readFields(text, sliceFields(/*scatter=*/true));
}

std::optional<ConvDimensionNumbers> parseConvDimensionNumbers(
    std::string_view text) {
  // `[...] x [...] -> [...]`: each list is delimited by the scanner, and
  // only whitespace may stand between it and the separators.
  ConvDimensionNumbers dims;
  struct Target {
    int64_t* first;
    int64_t* second;
    std::vector<int64_t>* spatial;
    std::string_view separator;  // after the list
  };
  const Target targets[3] = {
      {&dims.input_batch, &dims.input_feature, &dims.input_spatial, "x"},
      {&dims.kernel_input_feature, &dims.kernel_output_feature,
       &dims.kernel_spatial, "->"},
      {&dims.output_batch, &dims.output_feature, &dims.output_spatial, ""}};
  std::string_view rest = trimSpaces(text);
  for (int which = 0; which < 3; ++which) {
    const Target& t = targets[which];
    if (!rest.starts_with("[")) return std::nullopt;
    ScanResult list = scanBrackets(rest, 0);
    if (!list.ok() ||
        !readConvList(rest.substr(1, list.end - 2), kConvNames[which], *t.first,
                      *t.second, *t.spatial)) {
      return std::nullopt;
    }
    rest = trimSpaces(rest.substr(list.end));
    if (!rest.starts_with(t.separator)) return std::nullopt;
    rest = trimSpaces(rest.substr(t.separator.size()));
  }
  if (!rest.empty()) return std::nullopt;
  return dims;
}

std::string printConvDimensionNumbers(const ConvDimensionNumbers& dims) {
  std::string text;
  appendConvList(text, kConvNames[0], dims.input_batch, dims.input_feature,
                 dims.input_spatial);
  text += "x";
  appendConvList(text, kConvNames[1], dims.kernel_input_feature,
                 dims.kernel_output_feature, dims.kernel_spatial);
  text += "->";
  appendConvList(text, kConvNames[2], dims.output_batch, dims.output_feature,
                 dims.output_spatial);
  return text;
}

std::optional<ConvDimensionNumbers> parseConvDimensionNumbersAttr(
    std::string_view text) {
  std::optional<DialectAttrText> attr = splitDialectAttr(text);
  if (!attr || attr->name != "stablehlo.conv") return std::nullopt;
  return parseConvDimensionNumbers(attr->body);
}

std::string printConvDimensionNumbersAttr(const ConvDimensionNumbers& dims) {
  return strCat("#stablehlo.conv<", printConvDimensionNumbers(dims), ">");
}

absl::StatusOr<Mesh> parseStablehloMeshAxes(std::string_view text) {
  auto malformed = [&](std::string_view what) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("malformed stablehlo mesh '", text, "': ", what)));
  };
  std::optional<std::vector<DialectAttrField>> fields =
      attrFields(text, "stablehlo.mesh");
  if (!fields) return malformed("expected #stablehlo.mesh<key = value, ...>");
  Mesh mesh;
  bool has_axes = false, has_device_ids = false;
  for (const DialectAttrField& field : *fields) {
    if (field.key == "axes" && !has_axes) {
      std::string_view list = field.value;
      if (list.size() < 2 || list.front() != '[' || list.back() != ']') {
        return malformed("the axes must be a list");
      }
      absl::StatusOr<std::vector<std::string_view>> axes =
          splitTopLevel(list.substr(1, list.size() - 2));
      if (!axes.ok()) return malformed(fromAbsl(axes.status().message()));
      for (std::string_view axis_text : *axes) {
        absl::StatusOr<MeshAxis> axis = parseStablehloMeshAxis(axis_text);
        if (!axis.ok()) return axis.status();
        mesh.axes.push_back(std::move(*axis));
      }
      has_axes = true;
    } else if (field.key == "device_ids" && !has_device_ids) {
      has_device_ids = true;  // not carried over
    } else {
      return malformed(strCat("unexpected field '", field.key, "'"));
    }
  }
  if (!has_axes) return malformed("expected 'axes = [...]'");
  return mesh;
}

std::string printStablehloMesh(const Mesh& mesh) {
  std::string out = "#stablehlo.mesh<axes=[";
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    if (i) out += ", ";
    out += "<name = ";
    appendQuoted(out, mesh.axes[i].name);
    strAppend(out, ", size = ", mesh.axes[i].size, ">");
  }
  out += "]";
  if (!mesh.device_ids.empty()) {
    // A one-element dense literal prints as a splat.
    out += ", device_ids=dense<";
    if (mesh.device_ids.size() == 1) {
      strAppend(out, mesh.device_ids.front());
    } else {
      out += "[";
      for (size_t i = 0; i < mesh.device_ids.size(); ++i) {
        strAppend(out, i ? ", " : "", mesh.device_ids[i]);
      }
      out += "]";
    }
    strAppend(out, "> : tensor<", mesh.device_ids.size(), "xi64>");
  }
  out += ">";
  return out;
}

}  // namespace shardkit

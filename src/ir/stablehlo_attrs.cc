#include "shardkit/ir/stablehlo_attrs.h"

#include <array>

#include "shardkit/core/strings.h"

namespace shardkit {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// The text between the outer `<` and `>` of `#name<...>`.
std::optional<std::string_view> attrBody(const Attribute& attr) {
  const std::string* text = attr.asOpaque();
  if (!text || !text->starts_with("#")) return std::nullopt;
  size_t open = text->find('<');
  if (open == std::string::npos || !text->ends_with(">")) return std::nullopt;
  return std::string_view(*text).substr(open + 1, text->size() - open - 2);
}

std::vector<std::string_view> splitTopLevelCommas(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '[' || c == '<' || c == '(' || c == '{') ++depth;
    if (c == ']' || (c == '>' && !(i > 0 && s[i - 1] == '-')) || c == ')' ||
        c == '}') {
      --depth;
    }
    if (c == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!trim(s.substr(start)).empty()) parts.push_back(trim(s.substr(start)));
  return parts;
}

std::vector<int64_t> listField(
    const std::vector<std::pair<std::string, std::string>>& fields,
    std::string_view key) {
  for (const auto& [k, v] : fields) {
    if (k == key) return parseIntListText(v).value_or(std::vector<int64_t>{});
  }
  return {};
}

int64_t intField(const std::vector<std::pair<std::string, std::string>>& fields,
                 std::string_view key) {
  for (const auto& [k, v] : fields) {
    int64_t value = 0;
    if (k == key && parseInt64(trim(v), value)) return value;
  }
  return 0;
}

}  // namespace

std::string_view dialectAttrName(const Attribute& attr) {
  const std::string* text = attr.asOpaque();
  if (!text || !text->starts_with("#")) return {};
  size_t open = text->find('<');
  return std::string_view(*text).substr(
      1, open == std::string::npos ? std::string::npos : open - 1);
}

std::optional<std::vector<std::pair<std::string, std::string>>>
dialectAttrFields(const Attribute& attr) {
  std::optional<std::string_view> body = attrBody(attr);
  if (!body) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> fields;
  for (std::string_view part : splitTopLevelCommas(*body)) {
    size_t eq = part.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    fields.emplace_back(std::string(trim(part.substr(0, eq))),
                        std::string(trim(part.substr(eq + 1))));
  }
  return fields;
}

std::optional<std::vector<int64_t>> parseIntListText(std::string_view text) {
  text = trim(text);
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') {
    return std::nullopt;
  }
  std::vector<int64_t> values;
  for (std::string_view part :
       splitTopLevelCommas(text.substr(1, text.size() - 2))) {
    int64_t v = 0;
    if (!parseInt64(part, v)) return std::nullopt;
    values.push_back(v);
  }
  return values;
}

namespace {

std::optional<DotDimensionNumbers> parseDotDimensionNumbers(
    const Attribute& attr) {
  if (dialectAttrName(attr) != "stablehlo.dot") return std::nullopt;
  auto fields = dialectAttrFields(attr);
  if (!fields) return std::nullopt;
  DotDimensionNumbers dims;
  dims.lhs_batching = listField(*fields, "lhs_batching_dimensions");
  dims.rhs_batching = listField(*fields, "rhs_batching_dimensions");
  dims.lhs_contracting = listField(*fields, "lhs_contracting_dimensions");
  dims.rhs_contracting = listField(*fields, "rhs_contracting_dimensions");
  return dims;
}

}  // namespace

std::optional<DotDimensionNumbers> getDotDimensionNumbers(
    const Attribute& attr) {
  // A module shares one attribute among its dots with equal dimension
  // numbers (the reader interns them): remember the last few, holding the
  // attributes so that their identities cannot be reused meanwhile.
  struct Entry {
    Attribute attr;
    std::optional<DotDimensionNumbers> dims;
  };
  thread_local std::array<Entry, 4> recent;
  thread_local size_t next = 0;
  if (attr.identity() != nullptr) {
    for (const Entry& e : recent) {
      if (e.attr.identity() == attr.identity()) return e.dims;
    }
  }
  std::optional<DotDimensionNumbers> dims = parseDotDimensionNumbers(attr);
  if (attr.identity() != nullptr) {
    recent[next] = Entry{attr, dims};
    next = (next + 1) % recent.size();
  }
  return dims;
}

Attribute toAttribute(const DotDimensionNumbers& dims) {
  std::vector<std::string> parts;
  auto add = [&](std::string_view key, const std::vector<int64_t>& values) {
    if (values.empty()) return;
    std::string part = strCat(key, " = [");
    for (size_t i = 0; i < values.size(); ++i) {
      if (i) part += ", ";
      strAppend(part, values[i]);
    }
    part += ']';
    parts.push_back(std::move(part));
  };
  add("lhs_batching_dimensions", dims.lhs_batching);
  add("rhs_batching_dimensions", dims.rhs_batching);
  add("lhs_contracting_dimensions", dims.lhs_contracting);
  add("rhs_contracting_dimensions", dims.rhs_contracting);
  std::string text = "#stablehlo.dot<";
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) text += ", ";
    text += parts[i];
  }
  text += '>';
  return Attribute::opaque(std::move(text));
}

std::optional<GatherDimensionNumbers> getGatherDimensionNumbers(
    const Attribute& attr) {
  if (dialectAttrName(attr) != "stablehlo.gather") return std::nullopt;
  auto fields = dialectAttrFields(attr);
  if (!fields) return std::nullopt;
  GatherDimensionNumbers dims;
  dims.offset_dims = listField(*fields, "offset_dims");
  dims.collapsed_slice_dims = listField(*fields, "collapsed_slice_dims");
  dims.operand_batching_dims = listField(*fields, "operand_batching_dims");
  dims.start_indices_batching_dims =
      listField(*fields, "start_indices_batching_dims");
  dims.start_index_map = listField(*fields, "start_index_map");
  dims.index_vector_dim = intField(*fields, "index_vector_dim");
  return dims;
}

std::optional<ScatterDimensionNumbers> getScatterDimensionNumbers(
    const Attribute& attr) {
  if (dialectAttrName(attr) != "stablehlo.scatter") return std::nullopt;
  auto fields = dialectAttrFields(attr);
  if (!fields) return std::nullopt;
  ScatterDimensionNumbers dims;
  dims.update_window_dims = listField(*fields, "update_window_dims");
  dims.inserted_window_dims = listField(*fields, "inserted_window_dims");
  dims.input_batching_dims = listField(*fields, "input_batching_dims");
  dims.scatter_indices_batching_dims =
      listField(*fields, "scatter_indices_batching_dims");
  dims.scatter_dims_to_operand_dims =
      listField(*fields, "scatter_dims_to_operand_dims");
  dims.index_vector_dim = intField(*fields, "index_vector_dim");
  return dims;
}

std::optional<ConvDimensionNumbers> parseConvDimensionNumbers(
    std::string_view text) {
  // Three bracket lists separated by `x` and `->`.
  text = trim(text);
  size_t x = text.find("]x[");
  size_t arrow = text.find("]->[");
  if (x == std::string_view::npos || arrow == std::string_view::npos ||
      arrow < x) {
    return std::nullopt;
  }
  std::string_view lists[3] = {text.substr(0, x + 1),
                               text.substr(x + 2, arrow - x - 1),
                               text.substr(arrow + 3)};
  ConvDimensionNumbers dims;
  struct Target {
    char a;
    char b;
    int64_t* first;
    int64_t* second;
    std::vector<int64_t>* spatial;
  };
  Target targets[3] = {
      {'b', 'f', &dims.input_batch, &dims.input_feature, &dims.input_spatial},
      {'i', 'o', &dims.kernel_input_feature, &dims.kernel_output_feature,
       &dims.kernel_spatial},
      {'b', 'f', &dims.output_batch, &dims.output_feature,
       &dims.output_spatial}};
  for (int l = 0; l < 3; ++l) {
    std::string_view list = trim(lists[l]);
    if (list.size() < 2 || list.front() != '[' || list.back() != ']') {
      return std::nullopt;
    }
    std::vector<std::string_view> parts =
        splitTopLevelCommas(list.substr(1, list.size() - 2));
    std::vector<std::pair<int64_t, int64_t>> spatial;  // (index k, dim)
    bool seen_a = false, seen_b = false;
    for (size_t dim = 0; dim < parts.size(); ++dim) {
      std::string_view p = parts[dim];
      if (p.size() == 1 && p[0] == targets[l].a) {
        *targets[l].first = static_cast<int64_t>(dim);
        seen_a = true;
      } else if (p.size() == 1 && p[0] == targets[l].b) {
        *targets[l].second = static_cast<int64_t>(dim);
        seen_b = true;
      } else {
        int64_t k = 0;
        if (!parseInt64(p, k) || k < 0 ||
            k >= static_cast<int64_t>(parts.size())) {
          return std::nullopt;
        }
        spatial.emplace_back(k, static_cast<int64_t>(dim));
      }
    }
    if (!seen_a || !seen_b) return std::nullopt;
    targets[l].spatial->assign(spatial.size(), -1);
    for (auto [k, dim] : spatial) {
      if (k >= static_cast<int64_t>(spatial.size()) ||
          (*targets[l].spatial)[k] != -1) {
        return std::nullopt;
      }
      (*targets[l].spatial)[k] = dim;
    }
  }
  return dims;
}

std::optional<ConvDimensionNumbers> getConvDimensionNumbers(
    const Attribute& attr) {
  if (dialectAttrName(attr) != "stablehlo.conv") return std::nullopt;
  std::optional<std::string_view> body = attrBody(attr);
  if (!body) return std::nullopt;
  return parseConvDimensionNumbers(*body);
}

}  // namespace shardkit

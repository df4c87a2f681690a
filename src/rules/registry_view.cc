// OpView: an op's shapes and attributes as the registry adapters read them.
#include <cctype>
#include <string>
#include <string_view>
#include <utility>

#include "shardkit/core/tensor_shape.h"
#include "shardkit/ir/tensor_view.h"
#include "shardkit/support/checked_math.h"
#include "shardkit/support/strings.h"
#include "src/rules/registry_internal.h"

namespace shardkit {

namespace {

// A ranked tensor's dims, or those of the tensor a dialect type holds (a
// mesh tensor, ir/tensor_view.h).
Shape shapeOf(Type type) {
  Type view = type ? tensorViewOf(type) : Type();
  if (!view) return {};
  absl::Span<const int64_t> dims = view.shape();
  return Shape(dims.begin(), dims.end());
}

bool isDynamic(const Shape& shape) {
  for (int64_t d : shape) {
    if (d < 0) return true;
  }
  return false;
}

bool isUnranked(Type type) {
  return type && type.kind() == TypeKind::kUnrankedTensor;
}

std::string_view kindName(const Attribute& attr) {
  static constexpr std::pair<AttrKind, std::string_view> kNames[] = {
      {AttrKind::kString, "a string"},
      {AttrKind::kInteger, "an integer"},
      {AttrKind::kBool, "a boolean"},
      {AttrKind::kArray, "an array"},
      {AttrKind::kDenseArray, "a dense array"},
      {AttrKind::kElements, "an elements literal"}};
  for (const auto& [kind, name] : kNames) {
    if (kind == attr.kind()) return name;
  }
  return "another kind of attribute";
}

// The shapes of the `count` values `value(0)`, `value(1)`, ...
template <typename ValueAt>
std::vector<Shape> shapesOf(unsigned count, const ValueAt& value) {
  std::vector<Shape> shapes;
  shapes.reserve(count);
  for (unsigned i = 0; i < count; ++i) {
    shapes.push_back(shapeOf(value(i).type()));
  }
  return shapes;
}

}  // namespace

std::vector<Shape> operandShapes(Op op) {
  return shapesOf(op.numOperands(), [&](unsigned i) { return op.operand(i); });
}

std::vector<Shape> resultShapes(Op op) {
  return shapesOf(op.numResults(), [&](unsigned i) { return op.result(i); });
}

namespace rules_internal {

std::optional<std::vector<int64_t>> denseIntegers(std::string_view literal,
                                                  int64_t num_elements) {
  constexpr std::string_view kPrefix = "dense<";
  if (!literal.starts_with(kPrefix) || !literal.ends_with(">")) {
    return std::nullopt;
  }
  std::string_view body =
      literal.substr(kPrefix.size(), literal.size() - kPrefix.size() - 1);
  std::vector<int64_t> values;
  bool bracketed = false;
  size_t i = 0;
  while (i < body.size()) {
    char c = body[i];
    if (c == '[' || c == ']') {
      bracketed = true;
      ++i;
    } else if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else {
      size_t end = body.find_first_of(",[] \t\n", i);
      std::string_view token = body.substr(i, end - i);
      int64_t value = 0;
      if (token == "true" || token == "false") {
        value = token == "true";
      } else if (token.starts_with("0x") || !parseInt64(token, value)) {
        return std::nullopt;  // a float, or raw hex data
      }
      values.push_back(value);
      i = end == std::string_view::npos ? body.size() : end;
    }
  }
  if (values.size() == 1 && !bracketed && num_elements > 1) {
    values.assign(num_elements, values.front());  // splat
  }
  if (static_cast<int64_t>(values.size()) != num_elements) return std::nullopt;
  return values;
}

OpView::OpView(Op op)
    : op_(op), operands_(operandShapes(op)), results_(resultShapes(op)) {
  for (const Shape& s : operands_) dynamic_ = dynamic_ || isDynamic(s);
  for (const Shape& s : results_) dynamic_ = dynamic_ || isDynamic(s);
  for (Type type : op.operandTypes()) dynamic_ = dynamic_ || isUnranked(type);
  for (Type type : op.resultTypes()) dynamic_ = dynamic_ || isUnranked(type);
}

absl::Status OpView::error(std::string_view message) const {
  return absl::InvalidArgumentError(
      toAbsl(strCat("sharding rule of '", name(), "': ", message)));
}

absl::Status OpView::wrap(const absl::Status& status) const {
  if (status.ok()) return status;
  return error(fromAbsl(status.message()));
}

absl::Status OpView::expectCounts(size_t operands, size_t results) const {
  if (numOperands() != operands || numResults() != results) {
    return error(strCat("expected ", operands, " operands and ", results,
                        " results, got ", numOperands(), " and ",
                        numResults()));
  }
  return absl::OkStatus();
}

absl::Status OpView::expectAtLeast(size_t min_operands,
                                   size_t min_results) const {
  if (numOperands() < min_operands || numResults() < min_results) {
    return error(strCat("expected at least ", min_operands, " operands and ",
                        min_results, " results, got ", numOperands(), " and ",
                        numResults()));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> OpView::intAttr(std::string_view name) const {
  Attribute attr = op_.attr(name);
  if (!attr) return error(strCat("missing attribute '", name, "'"));
  std::optional<int64_t> value = attr.intValue();
  if (!value) {
    return error(strCat("attribute '", name, "' must be an integer, got ",
                        kindName(attr)));
  }
  return *value;
}

absl::StatusOr<int64_t> OpView::intAttr(std::string_view name,
                                        int64_t fallback) const {
  if (!op_.hasAttr(name)) return fallback;
  return intAttr(name);
}

absl::StatusOr<bool> OpView::boolAttr(std::string_view name,
                                      bool fallback) const {
  Attribute attr = op_.attr(name);
  if (!attr) return fallback;
  if (attr.kind() == AttrKind::kUnit) return true;
  std::optional<int64_t> value = attr.intValue();
  if (!value || (*value != 0 && *value != 1)) {
    return error(strCat("attribute '", name, "' must be a boolean, got ",
                        kindName(attr)));
  }
  return *value == 1;
}

absl::StatusOr<std::optional<std::vector<int64_t>>> OpView::optionalIntListAttr(
    std::string_view name) const {
  Attribute attr = op_.attr(name);
  if (!attr) return std::optional<std::vector<int64_t>>();
  if (std::optional<std::vector<int64_t>> list = attr.intList()) return list;
  if (const ElementsValue* elements = attr.asElements()) {
    std::optional<int64_t> count = checkedProduct(elements->type.shape());
    if (count && elements->type.isRankedTensor() &&
        elements->type.hasStaticShape()) {
      if (auto values = denseIntegers(elements->literal, *count)) return values;
    }
  }
  return error(strCat("attribute '", name, "' must be a list of integers, got ",
                      toString(attr)));
}

absl::StatusOr<std::vector<int64_t>> OpView::intListAttr(
    std::string_view name) const {
  absl::StatusOr<std::optional<std::vector<int64_t>>> list =
      optionalIntListAttr(name);
  if (!list.ok()) return list.status();
  if (!list->has_value())
    return error(strCat("missing attribute '", name, "'"));
  return **std::move(list);
}

absl::StatusOr<std::string> OpView::stringAttr(std::string_view name) const {
  Attribute attr = op_.attr(name);
  if (!attr) return error(strCat("missing attribute '", name, "'"));
  const std::string* value = attr.asString();
  if (!value) {
    return error(strCat("attribute '", name, "' must be a string, got ",
                        kindName(attr)));
  }
  return *value;
}

absl::StatusOr<std::string> OpView::enumAttr(std::string_view name) const {
  Attribute attr = op_.attr(name);
  if (!attr) return error(strCat("missing attribute '", name, "'"));
  const std::string* text = attr.asOpaque();
  constexpr std::string_view kPrefix = "#stablehlo<";
  if (text && text->starts_with(kPrefix) && text->ends_with(">")) {
    std::string_view body(*text);
    body = body.substr(kPrefix.size(), body.size() - kPrefix.size() - 1);
    size_t space = body.find_last_of(' ');
    if (space != std::string_view::npos && space + 1 < body.size()) {
      return std::string(body.substr(space + 1));
    }
  }
  return error(strCat("attribute '", name,
                      "' must be a StableHLO enum `#stablehlo<kind VALUE>`, "
                      "got ",
                      toString(attr)));
}

absl::StatusOr<WindowPadding> OpView::paddingAttr(std::string_view name) const {
  Attribute attr = op_.attr(name);
  WindowPadding window;
  if (!attr) return window;
  const ElementsValue* elements = attr.asElements();
  std::optional<std::vector<int64_t>> values;
  if (elements && elements->type.rank() == 2 &&
      elements->type.shape()[1] == 2 && elements->type.shape()[0] >= 0) {
    values = denseIntegers(elements->literal, 2 * elements->type.shape()[0]);
  }
  if (!values) {
    return error(strCat("attribute '", name,
                        "' must be an Nx2 integer elements literal, got ",
                        toString(attr)));
  }
  for (size_t i = 0; i + 1 < values->size(); i += 2) {
    window.padding.emplace_back((*values)[i], (*values)[i + 1]);
  }
  return window;
}

}  // namespace rules_internal
}  // namespace shardkit

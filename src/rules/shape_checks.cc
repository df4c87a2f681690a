#include "shardkit/rules/shape_checks.h"

#include <string>

#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

std::string shapeText(const Shape& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    if (shape[i] == kDynamicSize) {
      out += '?';
    } else {
      strAppend(out, shape[i]);
    }
  }
  out += ']';
  return out;
}

absl::Status error(std::string_view op, const std::string& message) {
  return absl::InvalidArgumentError(strCat(op, ": ", message));
}

}  // namespace

absl::Status checkCount(std::string_view op, std::string_view what,
                        size_t count, size_t expected) {
  if (count == expected) return absl::OkStatus();
  return error(op, strCat("expected ", expected, " ", what, ", got ", count));
}

absl::Status checkRank(std::string_view op, std::string_view what,
                       const Shape& shape, int64_t rank) {
  if (rankOf(shape) == rank) return absl::OkStatus();
  return error(op,
               strCat(what, " ", shapeText(shape), " must have rank ", rank));
}

absl::Status checkMinRank(std::string_view op, std::string_view what,
                          const Shape& shape, int64_t rank) {
  if (rankOf(shape) >= rank) return absl::OkStatus();
  return error(op, strCat(what, " ", shapeText(shape),
                          " must have rank at least ", rank));
}

absl::Status checkSameShape(std::string_view op, std::string_view what,
                            const Shape& a, const Shape& b) {
  if (a == b) return absl::OkStatus();
  return error(op, strCat(what, ": shapes ", shapeText(a), " and ",
                          shapeText(b), " differ"));
}

absl::Status checkAllSameShape(std::string_view op, std::string_view what,
                               absl::Span<const Shape> shapes) {
  for (const Shape& shape : shapes) {
    if (shape != shapes.front()) {
      return checkSameShape(op, what, shapes.front(), shape);
    }
  }
  return absl::OkStatus();
}

absl::Status checkDimIndex(std::string_view op, std::string_view what,
                           int64_t dim, int64_t rank) {
  if (dim >= 0 && dim < rank) return absl::OkStatus();
  return error(op, strCat(what, " ", dim, " is out of range for rank ", rank));
}

absl::Status checkDimList(std::string_view op, std::string_view what,
                          absl::Span<const int64_t> dims, int64_t rank) {
  std::vector<bool> seen(rank > 0 ? rank : 0, false);
  for (int64_t dim : dims) {
    if (absl::Status s = checkDimIndex(op, what, dim, rank); !s.ok()) return s;
    if (seen[dim]) return error(op, strCat(what, " ", dim, " appears twice"));
    seen[dim] = true;
  }
  return absl::OkStatus();
}

}  // namespace shardkit

#include "src/text/attr_fast_path.h"

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"

namespace shardkit {
namespace {

// The lexer's character classes (lexer.cc): what a bare identifier starts
// with and holds, and what an `@` symbol holds.
constexpr bool isDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
constexpr bool isIdentChar(char c) {
  return isIdentStart(c) || isDigit(c) || c == '$' || c == '.';
}
constexpr bool isSuffixChar(char c) { return isIdentChar(c) || c == '-'; }

// An axis as read, before it becomes an AxisRef: a view of its name.
struct AxisText {
  std::string_view name;
  bool is_sub_axis = false;
  int64_t pre_size = 0;
  int64_t size = 0;

  AxisRef toAxisRef() const {
    if (!is_sub_axis) return AxisRef(std::string(name));
    return AxisRef(std::string(name), pre_size, size);
  }
};

// Moves the items of `scratch` into `out`, allocated at their exact count.
template <typename T, typename Scratch>
void moveInto(Scratch& scratch, std::vector<T>& out) {
  out.assign(std::make_move_iterator(scratch.begin()),
             std::make_move_iterator(scratch.end()));
}

// The scan. Every method returns false as soon as the text leaves the subset;
// the position is then meaningless.
class Scan {
 public:
  Scan(std::string_view text, size_t offset)
      : begin_(text.data()), p_(begin_ + offset), end_(begin_ + text.size()) {}

  size_t offset() const { return static_cast<size_t>(p_ - begin_); }

  bool tensorSharding(TensorSharding& out) {
    if (!eat('<') || !meshOrRef(out.mesh) || !eat(',') || !eat('[')) {
      return false;
    }
    absl::InlinedVector<DimensionSharding, 8> dims;
    if (!eat(']')) {
      do {
        if (!dimension(dims.emplace_back())) return false;
      } while (eat(','));
      if (!eat(']')) return false;
    }
    moveInto(dims, out.dim_shardings);
    bool seen_replicated = false;
    bool seen_unreduced = false;
    while (eat(',')) {
      if (!seen_replicated && keyword("replicated")) {
        seen_replicated = true;
        if (!eat('=') || !nonEmptyAxes(out.replicated_axes)) return false;
      } else if (!seen_unreduced && keyword("unreduced")) {
        seen_unreduced = true;
        if (!eat('=')) return false;
        if (keyword("max")) {
          out.unreduced_kind = ReductionKind::kMax;
        } else if (keyword("min")) {
          out.unreduced_kind = ReductionKind::kMin;
        } else {
          keyword("sum");
        }
        if (!nonEmptyAxes(out.unreduced_axes)) return false;
      } else {
        return false;
      }
    }
    return eat('>');
  }

  bool mesh(Mesh& out) {
    if (!eat('<') || !eat('[')) return false;
    axes_.clear();
    if (!eat(']')) {
      do {
        AxisText& axis = axes_.emplace_back();
        if (!string(axis.name) || !eat('=') || !integer(axis.size) ||
            axis.size < 1) {
          return false;
        }
      } while (eat(','));
      if (!eat(']')) return false;
    }
    out.axes.reserve(axes_.size());
    for (const AxisText& axis : axes_) {
      out.axes.push_back(MeshAxis{std::string(axis.name), axis.size});
    }
    if (eat(',')) {
      if (!keyword("device_ids") || !eat('=') || !eat('[')) return false;
      do {
        if (!integer(out.device_ids.emplace_back())) return false;
      } while (eat(','));
      if (!eat(']')) return false;
    }
    if (!eat('>')) return false;
    // As AttrParser::parseMesh: an explicit iota order is the implicit one.
    if (!out.axes.empty() && out.hasIotaDeviceIds()) out.device_ids.clear();
    return true;
  }

 private:
  // Skips blanks; a comment is left in place, so it ends the fast path.
  void skipBlanks() {
    while (p_ < end_ &&
           (*p_ == ' ' || *p_ == '\n' || *p_ == '\t' || *p_ == '\r')) {
      ++p_;
    }
  }
  bool eat(char c) {
    skipBlanks();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  // `word` as a whole bare identifier.
  bool keyword(std::string_view word) {
    skipBlanks();
    if (static_cast<size_t>(end_ - p_) < word.size() ||
        std::string_view(p_, word.size()) != word) {
      return false;
    }
    const char* after = p_ + word.size();
    if (after != end_ && isIdentChar(*after)) return false;
    p_ = after;
    return true;
  }
  // A string literal without escapes; its body in `out`.
  bool string(std::string_view& out) {
    if (!eat('"')) return false;
    const char* start = p_;
    while (p_ != end_ && *p_ != '"') {
      if (*p_ == '\\' || *p_ == '\n') return false;
      ++p_;
    }
    if (p_ == end_) return false;
    out = std::string_view(start, static_cast<size_t>(p_ - start));
    ++p_;
    return true;
  }
  // A decimal integer without sign, of at most 18 digits (so it fits in
  // int64); the token parser handles signs, hex, overflow and the rest.
  bool integer(int64_t& out) {
    skipBlanks();
    const char* start = p_;
    int64_t value = 0;
    while (p_ != end_ && isDigit(*p_)) {
      value = value * 10 + (*p_ - '0');
      ++p_;
    }
    size_t digits = static_cast<size_t>(p_ - start);
    // `1.5` and `0x1F` are other tokens.
    if (digits == 0 || digits > 18 || (p_ != end_ && isIdentChar(*p_))) {
      return false;
    }
    out = value;
    return true;
  }
  bool axis(AxisText& out) {
    if (!string(out.name)) return false;
    if (!eat(':')) return true;
    out.is_sub_axis = true;
    return eat('(') && integer(out.pre_size) && eat(')') && integer(out.size);
  }
  // `{"x", "y":(1)2, ?}p1`.
  bool dimension(DimensionSharding& out) {
    if (!eat('{')) return false;
    axes_.clear();
    if (!eat('}')) {
      while (true) {
        if (eat('?')) {
          out.is_closed = false;
          if (!eat('}')) return false;
          break;
        }
        if (!axis(axes_.emplace_back())) return false;
        if (eat('}')) break;
        if (!eat(',')) return false;
      }
    }
    out.axes.reserve(axes_.size());
    for (const AxisText& axis : axes_) out.axes.push_back(axis.toAxisRef());
    return priority(out.priority);
  }
  // An optional `p<number>` after a dimension.
  bool priority(std::optional<int64_t>& out) {
    skipBlanks();
    if (p_ == end_ || !isIdentStart(*p_)) return true;
    if (*p_ != 'p') return false;
    const char* digits = ++p_;
    int64_t value = 0;
    // The digits are part of the identifier: no blank before them.
    if (p_ == end_ || !isDigit(*p_) || !integer(value)) return false;
    // No leading zeros, as the reference requires.
    if (*digits == '0' && p_ - digits > 1) return false;
    out = value;
    return true;
  }
  // `{"x", ...}` with at least one axis.
  bool nonEmptyAxes(std::vector<AxisRef>& out) {
    if (!eat('{')) return false;
    axes_.clear();
    do {
      if (!axis(axes_.emplace_back())) return false;
    } while (eat(','));
    if (!eat('}')) return false;
    out.reserve(axes_.size());
    for (const AxisText& axis : axes_) out.push_back(axis.toAxisRef());
    return true;
  }
  // `@name` (unquoted) or `mesh<...>`.
  bool meshOrRef(MeshOrRef& out) {
    skipBlanks();
    if (p_ != end_ && *p_ == '@') {
      const char* start = ++p_;
      while (p_ != end_ && isSuffixChar(*p_)) ++p_;
      if (p_ == start) return false;  // `@"quoted"` or a lone `@`
      out = MeshOrRef::ref(std::string(start, static_cast<size_t>(p_ - start)));
      return true;
    }
    if (!keyword("mesh")) return false;
    Mesh inline_mesh;
    if (!mesh(inline_mesh)) return false;
    out = MeshOrRef::inlined(std::move(inline_mesh));
    return true;
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  // The axes of the list being read (reused: a dimension, a mesh).
  absl::InlinedVector<AxisText, 8> axes_;
};

}  // namespace

size_t fastParseTensorSharding(std::string_view text, size_t offset,
                               TensorSharding& out) {
  Scan scan(text, offset);
  if (!scan.tensorSharding(out)) return std::string_view::npos;
  return scan.offset();
}

size_t fastParseMesh(std::string_view text, size_t offset, Mesh& out) {
  Scan scan(text, offset);
  if (!scan.mesh(out)) return std::string_view::npos;
  return scan.offset();
}

}  // namespace shardkit

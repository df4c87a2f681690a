#include "src/text/attr_fast_path.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "shardkit/text/char_classes.h"

namespace shardkit {
namespace {

// The scan keeps offsets into the text in 32 bits.
constexpr size_t kMaxText = UINT32_MAX;

// An axis as read, before it becomes an AxisRef: where its name is in the
// text. (Trivial types without pointers: the scan's arrays need no
// initialization, and their stores cannot alias the cursor.)
struct AxisText {
  uint32_t name_offset;
  uint32_t name_size;
  bool is_sub_axis;
  int64_t pre_size;
  int64_t size;
};

// A span of the scan's axes.
struct AxisSpan {
  uint32_t first;
  uint32_t count;
};

// A dimension as read.
struct DimText {
  AxisSpan axes;
  bool is_closed;
  bool has_priority;
  int64_t priority;
};

// The scan. It reads into fixed arrays of views first and builds the result
// once the text is known to be in the subset, so that nothing is allocated
// for text the token parser will read again, and the scanning loop writes no
// memory the cursor could alias. A sharding of more dimensions or axes than
// the arrays hold goes to the token parser.
//
// Blanks: the subset is the spelling MLIR's printer gives, where a blank
// follows a comma and nowhere else, so the scan skips one space after a
// comma (`comma`) and nothing else; any other blank ends the fast path (the
// token parser reads the text). A step that consumes no text then costs one
// compare, and no step looks for blanks after it.
//
// The end: every step reads the text through peek(), which gives NUL at the
// end, and NUL is none of the characters the scan looks for. With
// kTerminated the caller guarantees that a NUL follows the text, so peek()
// need not compare the cursor with the end.
template <bool kTerminated>
class Scan {
 public:
  Scan(std::string_view text, size_t offset)
      : begin_(text.data()), p_(begin_ + offset), end_(begin_ + text.size()) {
    skipBlanks();
  }

  // Where the scan stopped: just after the last character read.
  size_t offset() const { return static_cast<size_t>(p_ - begin_); }

  bool tensorSharding(TensorSharding& out) {
    if (!eat('<')) return false;
    std::string_view mesh_name;
    if (atSymbol()) {
      if (!symbol(mesh_name)) return false;
    } else if (keyword("mesh")) {
      Mesh inline_mesh;
      if (!mesh(inline_mesh)) return false;
      out.mesh = MeshOrRef::inlined(std::move(inline_mesh));
    } else {
      return false;
    }
    if (!comma() || !eat('[')) return false;
    if (!eat(']')) {
      do {
        if (num_dims_ == kMaxDims || !dimension(dims_[num_dims_++])) {
          return false;
        }
      } while (comma());
      if (!eat(']')) return false;
    }
    AxisSpan replicated{0, 0};
    AxisSpan unreduced{0, 0};
    ReductionKind unreduced_kind = ReductionKind::kSum;
    bool seen_replicated = false;
    bool seen_unreduced = false;
    while (comma()) {
      if (!seen_replicated && keyword("replicated")) {
        seen_replicated = true;
        if (!eat('=') || !nonEmptyAxes(replicated)) return false;
      } else if (!seen_unreduced && keyword("unreduced")) {
        seen_unreduced = true;
        if (!eat('=')) return false;
        if (keyword("max")) {
          unreduced_kind = ReductionKind::kMax;
        } else if (keyword("min")) {
          unreduced_kind = ReductionKind::kMin;
        } else {
          keyword("sum");
        }
        if (!nonEmptyAxes(unreduced)) return false;
      } else {
        return false;
      }
    }
    if (!eat('>')) return false;

    // The text is in the subset: build the sharding.
    if (!mesh_name.empty()) out.mesh.setRef(mesh_name);
    out.dim_shardings.resize(num_dims_);
    for (uint32_t i = 0; i < num_dims_; ++i) {
      const DimText& text = dims_[i];
      DimensionSharding& dim = out.dim_shardings[i];
      dim.is_closed = text.is_closed;
      if (text.has_priority) dim.priority = text.priority;
      build(text.axes, dim.axes);
    }
    build(replicated, out.replicated_axes);
    build(unreduced, out.unreduced_axes);
    out.unreduced_kind = unreduced_kind;
    return true;
  }

  bool mesh(Mesh& out) {
    if (!eat('<') || !eat('[')) return false;
    AxisSpan axes{num_axes_, 0};
    if (!eat(']')) {
      do {
        if (num_axes_ == kMaxAxes) return false;
        AxisText& axis = axes_[num_axes_++];
        if (!string(axis) || !eat('=') || !integer(axis.size) ||
            axis.size < 1) {
          return false;
        }
      } while (comma());
      if (!eat(']')) return false;
    }
    axes.count = num_axes_ - axes.first;
    out.axes.reserve(axes.count);
    for (uint32_t i = axes.first; i < num_axes_; ++i) {
      out.axes.push_back(MeshAxis{std::string(name(axes_[i])), axes_[i].size});
    }
    if (comma()) {
      if (!keyword("device_ids") || !eat('=') || !eat('[')) return false;
      do {
        if (!integer(out.device_ids.emplace_back())) return false;
      } while (comma());
      if (!eat(']')) return false;
    }
    if (!eat('>')) return false;
    // As AttrParser::parseMesh: an explicit iota order is the implicit one.
    if (!out.axes.empty() && out.hasIotaDeviceIds()) out.device_ids.clear();
    return true;
  }

 private:
  static constexpr uint32_t kMaxDims = 32;
  static constexpr uint32_t kMaxAxes = 64;

  // Skips blanks; a comment is left in place, so it ends the fast path.
  void skipBlanks() {
    // Blanks are below '!': most characters leave at the first compare.
    const char* p = p_;
    while (p != end_ && static_cast<unsigned char>(*p) <= ' ' &&
           isBlankChar(*p)) {
      ++p;
    }
    p_ = p;
  }
  // The character at the cursor; NUL at the end.
  char peek() const { return kTerminated || p_ != end_ ? *p_ : '\0'; }
  bool at(char c) const { return peek() == c; }
  bool eat(char c) {
    if (!at(c)) return false;
    ++p_;
    return true;
  }
  // `,` and the one space the printer puts after it.
  bool comma() {
    if (!eat(',')) return false;
    if (at(' ')) ++p_;
    return true;
  }
  // `word` as a whole bare identifier.
  bool keyword(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() ||
        std::string_view(p_, word.size()) != word) {
      return false;
    }
    const char* start = p_;
    p_ += word.size();
    if (!isIdentChar(peek())) return true;
    p_ = start;
    return false;
  }
  // A string literal without escapes, the name of `out`.
  bool string(AxisText& out) {
    if (!at('"')) return false;
    const char* start = ++p_;
    while (!isStringEndChar(peek())) ++p_;
    // An escape, a line break or the end is the token parser's.
    if (peek() != '"') return false;
    out.name_offset = static_cast<uint32_t>(start - begin_);
    out.name_size = static_cast<uint32_t>(p_ - start);
    ++p_;
    return true;
  }
  std::string_view name(const AxisText& axis) const {
    return std::string_view(begin_ + axis.name_offset, axis.name_size);
  }
  // A decimal integer without sign, of at most 18 digits (so it fits in
  // int64); the token parser handles signs, hex, overflow and the rest.
  bool integer(int64_t& out) {
    const char* start = p_;
    int64_t value = 0;
    for (int digits = 0; digits < 18 && isDigitChar(peek()); ++digits) {
      value = value * 10 + (*p_ - '0');
      ++p_;
    }
    // A 19th digit (the value could overflow), `1.5` and `0x1F` are the
    // token parser's: what follows the digits must not continue the token.
    if (p_ == start || isIdentChar(peek())) return false;
    out = value;
    return true;
  }
  // `"x"` or `"x":(1)2`, appended to the axes.
  bool axis() {
    if (num_axes_ == kMaxAxes) return false;
    AxisText& out = axes_[num_axes_++];
    if (!string(out)) return false;
    out.is_sub_axis = eat(':');
    if (!out.is_sub_axis) return true;
    return eat('(') && integer(out.pre_size) && eat(')') && integer(out.size);
  }
  // `{"x", "y":(1)2, ?}p1`.
  bool dimension(DimText& out) {
    if (!eat('{')) return false;
    out.axes.first = num_axes_;
    out.is_closed = true;
    if (!eat('}')) {
      while (true) {
        if (eat('?')) {
          out.is_closed = false;
          if (!eat('}')) return false;
          break;
        }
        if (!axis()) return false;
        if (eat('}')) break;
        if (!comma()) return false;
      }
    }
    out.axes.count = num_axes_ - out.axes.first;
    return priority(out);
  }
  // An optional `p<number>` after a dimension.
  bool priority(DimText& out) {
    out.has_priority = false;
    if (!isIdentStart(peek())) return true;
    if (*p_ != 'p') return false;
    const char* digits = ++p_;
    // The digits are part of the identifier: no blank before them.
    if (!isDigitChar(peek()) || !integer(out.priority)) return false;
    // No leading zeros, as the reference requires.
    if (*digits == '0' && p_ - digits > 1) return false;
    out.has_priority = true;
    return true;
  }
  // `{"x", ...}` with at least one axis.
  bool nonEmptyAxes(AxisSpan& out) {
    if (!eat('{')) return false;
    out.first = num_axes_;
    do {
      if (!axis()) return false;
    } while (comma());
    out.count = num_axes_ - out.first;
    return eat('}');
  }
  bool atSymbol() const { return at('@'); }
  // `@name`, unquoted; the name in `out`.
  bool symbol(std::string_view& out) {
    const char* start = ++p_;
    while (isSuffixIdChar(peek())) ++p_;
    out = std::string_view(start, static_cast<size_t>(p_ - start));
    return !out.empty();  // not `@"quoted"` nor a lone `@`
  }
  // The AxisRefs of `span`, at their exact count.
  void build(AxisSpan span, AxisRefVector& out) const {
    if (span.count == 0) return;
    // reserve() is an out-of-line call even when the axes fit inline.
    if (span.count > kInlineAxisRefs) out.reserve(span.count);
    for (uint32_t i = span.first; i < span.first + span.count; ++i) {
      const AxisText& text = axes_[i];
      AxisRef& axis = out.emplace_back();
      axis.name.append(begin_ + text.name_offset, text.name_size);
      if (text.is_sub_axis) {
        axis.sub_axis_info = SubAxisInfo{text.pre_size, text.size};
      }
    }
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  uint32_t num_dims_ = 0;
  uint32_t num_axes_ = 0;
  DimText dims_[kMaxDims];
  AxisText axes_[kMaxAxes];
};

template <bool kTerminated>
size_t scanTensorSharding(std::string_view text, size_t offset,
                          TensorSharding& out) {
  if (text.size() > kMaxText) return std::string_view::npos;
  Scan<kTerminated> scan(text, offset);
  if (!scan.tensorSharding(out)) return std::string_view::npos;
  return scan.offset();
}

template <bool kTerminated>
size_t scanMesh(std::string_view text, size_t offset, Mesh& out) {
  if (text.size() > kMaxText) return std::string_view::npos;
  Scan<kTerminated> scan(text, offset);
  if (!scan.mesh(out)) return std::string_view::npos;
  return scan.offset();
}

}  // namespace

size_t fastParseTensorSharding(std::string_view text, size_t offset,
                               TensorSharding& out, TextEnd end) {
  return end == TextEnd::kNul ? scanTensorSharding<true>(text, offset, out)
                              : scanTensorSharding<false>(text, offset, out);
}

size_t fastParseMesh(std::string_view text, size_t offset, Mesh& out,
                     TextEnd end) {
  return end == TextEnd::kNul ? scanMesh<true>(text, offset, out)
                              : scanMesh<false>(text, offset, out);
}

}  // namespace shardkit

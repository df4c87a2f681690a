// Where the lines of a source text start, to turn byte offsets into lines and
// columns once the text itself is gone: a module read from text keeps this
// (four bytes a line) instead of the text.
#ifndef SHARDKIT_TEXT_SOURCE_LINES_H_
#define SHARDKIT_TEXT_SOURCE_LINES_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <vector>

#include "shardkit/export.h"
#include "shardkit/text/lexer.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

class SourceLines {
 public:
  // The largest text whose offsets it records (offsets are 32-bit, as are
  // op location keys).
  static constexpr size_t kMaxTextSize = std::numeric_limits<uint32_t>::max();

  SourceLines() = default;
  // Precondition: text.size() <= kMaxTextSize.
  explicit SourceLines(std::string_view text) : size_(text.size()) {
    const char* begin = text.data();
    const char* end = begin + text.size();
    for (const char* p = begin;
         (p = static_cast<const char*>(std::memchr(p, '\n', end - p)));) {
      ++p;
      starts_.push_back(static_cast<uint32_t>(p - begin));
    }
    starts_.shrink_to_fit();
  }

  // The line number of the text's first line (1 unless the text is a chunk
  // of a larger file).
  void setFirstLine(int64_t first_line) { first_line_ = first_line; }

  // The size of the text the lines were taken from.
  size_t textSize() const { return size_; }
  size_t numLines() const { return starts_.size() + 1; }

  // The line and column of byte `offset` (clamped to the text's end), the
  // same as lineColAt(text, offset) on the text.
  LineCol lineColAt(size_t offset) const {
    offset = std::min(offset, size_);
    // starts_[i] is where line i + 2 starts; count the lines started at or
    // before `offset`.
    size_t later = static_cast<size_t>(
        std::upper_bound(starts_.begin(), starts_.end(), offset) -
        starts_.begin());
    size_t line_start = later == 0 ? 0 : starts_[later - 1];
    LineCol lc;
    lc.line = static_cast<int64_t>(later) + first_line_;
    lc.col = static_cast<int64_t>(offset - line_start) + 1;
    return lc;
  }

 private:
  std::vector<uint32_t> starts_;
  size_t size_ = 0;
  int64_t first_line_ = 1;
};

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_TEXT_SOURCE_LINES_H_

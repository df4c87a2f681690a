// The one scanner of shardkit's text: where a bracket closes, where a list
// splits at its top-level commas, where a string literal ends. Every piece of
// code that delimits text without parsing it goes through here, so that all
// of them agree with the lexer (lexer.h) on these rules:
//
// - A string literal `"..."` holds no structure; `\` escapes the next
//   character; a raw line break (or the end of the text) leaves it
//   unterminated.
// - `// ...` up to the end of the line is a comment.
// - `->` is an arrow, never a closing `>`.
// - `%` and `@` ids may hold '-' (`%a->` is the id `%a-` and a `>`).
// - Brackets `()[]{}<>` nest; see Nesting for which kinds a scan counts.
//
// The scan reads characters, not tokens: it is the reader's fast path over
// whole regions (eight bytes at a time where only braces matter), so it is
// defined inline here.
#ifndef SHARDKIT_TEXT_SCANNER_H_
#define SHARDKIT_TEXT_SCANNER_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "shardkit/export.h"
#include "shardkit/text/char_classes.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// Which brackets a scan counts.
enum class Nesting : uint8_t {
  // Every kind nests and must close in order (dialect bodies, types, lists):
  // a stray bracket is an error.
  kAllKinds,
  // Only the kind of the bracket the scan starts at counts (regions,
  // `loc(...)`): the other kinds may stand alone there (`>=` in an
  // affine set).
  kOwnKind,
};

// What made a scan fail.
enum class ScanError : uint8_t {
  kNone,
  kUnclosed,            // the text ends before the bracket closes
  kUnterminatedString,  // a string literal runs into a line break or the end
  kMismatched,          // a closing bracket of another kind than the open one
};

// Where a matched pair of brackets opens and ends (one past its closer).
struct BracketPair {
  size_t open;
  size_t end;
};

struct ScanResult {
  // One past the closing bracket (a balanced scan), or the text's size (a
  // top-level scan); npos on error.
  size_t end = std::string_view::npos;
  ScanError error = ScanError::kNone;
  // kUnclosed: the bracket the scan started at (top-level: the innermost
  // unclosed one); kUnterminatedString: the opening quote; kMismatched: the
  // closing bracket.
  size_t error_offset = 0;

  bool ok() const { return error == ScanError::kNone; }
};

// One past the quote that closes the string literal opening at
// `text[quote]`, or npos when it is unterminated.
inline size_t stringLiteralEnd(std::string_view text, size_t quote) {
  const size_t n = text.size();
  for (size_t i = quote + 1; i < n; ++i) {
    char c = text[i];
    if (c == '"') return i + 1;
    if (c == '\n') return std::string_view::npos;
    if (c == '\\') ++i;
  }
  return std::string_view::npos;
}

// The closing bracket of an opening one, or 0.
constexpr char closerOf(char open) {
  switch (open) {
    case '<':
      return '>';
    case '(':
      return ')';
    case '[':
      return ']';
    case '{':
      return '}';
    default:
      return 0;
  }
}

namespace scanner_internal {

// Four bytes looked for eight at a time: the bulk of a region holds none of
// them and is skipped this way.
class WordFilter {
 public:
  WordFilter(char a, char b, char c, char d)
      : a_(spread(a)), b_(spread(b)), c_(spread(c)), d_(spread(d)) {}

  // The first offset at or after `i` (a multiple of 8 bytes past `i`) whose
  // 8-byte word may hold one of the four bytes.
  size_t skip(std::string_view text, size_t i) const {
    while (i + 8 <= text.size()) {
      uint64_t w;
      std::memcpy(&w, text.data() + i, 8);
      if (hasZeroByte(w ^ a_) | hasZeroByte(w ^ b_) | hasZeroByte(w ^ c_) |
          hasZeroByte(w ^ d_)) {
        break;
      }
      i += 8;
    }
    return i;
  }

 private:
  static constexpr uint64_t kOnes = 0x0101010101010101ull;
  static constexpr uint64_t kHigh = 0x8080808080808080ull;
  static uint64_t spread(char c) {
    return kOnes * static_cast<unsigned char>(c);
  }
  // Non-zero iff some byte of `v` is zero (no false positive when none is).
  static uint64_t hasZeroByte(uint64_t v) { return (v - kOnes) & ~v & kHigh; }

  uint64_t a_, b_, c_, d_;
};

// The characters that can matter to a scan; a run of others is skipped in a
// tight loop.
struct CharTables {
  bool all[256] = {};         // kAllKinds
  bool with_comma[256] = {};  // kAllKinds, reporting top-level commas
  // kOwnKind by the opening bracket `<([{`: strings, comments and that kind
  // (and for '<' the ids and arrows, which may end in '>').
  bool own[4][256] = {};
  CharTables() {
    for (unsigned char c : std::string_view("\"/<>()[]{}-%@")) {
      all[c] = with_comma[c] = true;
    }
    with_comma[static_cast<unsigned char>(',')] = true;
    std::string_view opens = "<([{";
    for (size_t k = 0; k < opens.size(); ++k) {
      for (unsigned char c : std::string_view("\"/")) own[k][c] = true;
      own[k][static_cast<unsigned char>(opens[k])] = true;
      own[k][static_cast<unsigned char>(closerOf(opens[k]))] = true;
    }
    for (unsigned char c : std::string_view("-%@")) own[0][c] = true;
  }
  const bool* ownKind(char open) const {
    switch (open) {
      case '<':
        return own[0];
      case '(':
        return own[1];
      case '[':
        return own[2];
      default:
        return own[3];
    }
  }
};
inline const CharTables& charTables() {
  static const CharTables tables;
  return tables;
}

// The scan behind scanBrackets and splitTopLevel. From `start`: with
// `balanced`, text[start] is an opening bracket and the scan ends where it
// closes; otherwise it runs to the end of the text, a closer that closes
// nothing being a mismatch. `on_pair` gets each matched pair (innermost
// first); `on_comma` each comma outside brackets (only without `balanced`).
// The scan reads from `resume` (>= start; a balanced scan's text before it
// holds nothing special but its opener).
template <typename OnPair, typename OnComma>
ScanResult scan(std::string_view text, size_t start, Nesting nesting,
                bool balanced, OnPair&& on_pair, OnComma&& on_comma,
                size_t resume) {
  constexpr size_t npos = std::string_view::npos;
  const size_t n = text.size();
  ScanResult result;
  if (balanced && (start >= n || closerOf(text[start]) == 0)) {
    result.error = ScanError::kUnclosed;  // not at an opening bracket
    result.error_offset = start;
    return result;
  }
  const char own_open = balanced ? text[start] : 0;
  const char own_close = closerOf(own_open);
  const bool own_kind = balanced && nesting == Nesting::kOwnKind;
  const CharTables& tables = charTables();
  const bool* special = own_kind   ? tables.ownKind(own_open)
                        : balanced ? tables.all
                                   : tables.with_comma;
  // Where only brackets of one kind (not '<') matter, whole words without
  // them, quotes or slashes are skipped.
  const bool word_skip = own_kind && own_open != '<';
  const scanner_internal::WordFilter words(own_open, own_close, '"', '/');
  absl::InlinedVector<size_t, 16> opens;  // offsets of unclosed brackets
  if (balanced) opens.push_back(start);
  for (size_t i = balanced ? std::max(resume, start + 1) : resume; i < n; ++i) {
    if (word_skip) i = words.skip(text, i);
    while (i < n && !special[static_cast<unsigned char>(text[i])]) ++i;
    if (i >= n) break;
    char c = text[i];
    switch (c) {
      case '"': {
        size_t end = stringLiteralEnd(text, i);
        if (end == npos) {
          result.error = ScanError::kUnterminatedString;
          result.error_offset = i;
          return result;
        }
        i = end - 1;
        continue;
      }
      case '/':
        if (i + 1 < n && text[i + 1] == '/') {
          while (i < n && text[i] != '\n') ++i;
        }
        continue;
      case '-':
        if (i + 1 < n && text[i + 1] == '>') ++i;
        continue;
      case '%':
      case '@':
        while (i + 1 < n && isSuffixIdChar(text[i + 1])) ++i;
        continue;
      case ',':
        if (opens.empty()) on_comma(i);
        continue;
      default:
        break;
    }
    const bool opening = own_kind ? c == own_open : closerOf(c) != 0;
    if (opening) {
      opens.push_back(i);
      continue;
    }
    // `c` closes (in own-kind scans, only own_close is special).
    if (opens.empty() || closerOf(text[opens.back()]) != c) {
      result.error = ScanError::kMismatched;
      result.error_offset = i;
      return result;
    }
    size_t opened = opens.back();
    opens.pop_back();
    on_pair(BracketPair{opened, i + 1});
    if (balanced && opens.empty()) {
      result.end = i + 1;
      return result;
    }
  }
  if (opens.empty() && !balanced) {
    result.end = n;
    return result;
  }
  result.error = ScanError::kUnclosed;
  result.error_offset = balanced ? start : opens.back();
  return result;
}

}  // namespace scanner_internal

// Scans the bracketed text opening at `text[open_at]` (one of `([{<`) and
// returns where it ends. Each matched pair found on the way, the outer one
// included, is passed to `on_pair` (innermost first).
template <typename OnPair>
ScanResult scanBrackets(std::string_view text, size_t open_at, Nesting nesting,
                        OnPair&& on_pair) {
  size_t resume = open_at;
  if (nesting == Nesting::kAllKinds && open_at < text.size()) {
    // Most bodies (`<8x?xf32>`) hold nothing that matters but their closer:
    // found without setting up a scan.
    const bool* special = scanner_internal::charTables().all;
    const size_t n = text.size();
    size_t i = open_at + 1;
    while (i < n && !special[static_cast<unsigned char>(text[i])]) ++i;
    if (i < n && text[i] == closerOf(text[open_at])) {
      on_pair(BracketPair{open_at, i + 1});
      ScanResult result;
      result.end = i + 1;
      return result;
    }
    resume = i;
  }
  return scanner_internal::scan(
      text, open_at, nesting, /*balanced=*/true, on_pair, [](size_t) {},
      resume);
}
inline ScanResult scanBrackets(std::string_view text, size_t open_at,
                               Nesting nesting = Nesting::kAllKinds) {
  return scanBrackets(text, open_at, nesting, [](BracketPair) {});
}

// What went wrong in a failed scan of `text`, for a message at
// `result.error_offset`: "unbalanced '{': no matching '}'", "unbalanced ')'
// in '<...>'", "unterminated string literal". `open_at` is where a balanced
// scan started (npos for a top-level one).
std::string scanErrorMessage(std::string_view text, size_t open_at,
                             const ScanResult& result);
// The same as an InvalidArgument status: "offset N: MESSAGE".
absl::Status scanErrorStatus(std::string_view text, size_t open_at,
                             const ScanResult& result);

// Splits `text` at its commas outside brackets and strings (every bracket
// kind nesting), each part without surrounding whitespace. Blank text has no
// parts; otherwise empty parts are kept (`a,,b` has three). Unbalanced text
// is an error with its offset.
absl::StatusOr<std::vector<std::string_view>> splitTopLevel(
    std::string_view text);

// `text` without leading and trailing whitespace (space, tab, line breaks).
std::string_view trimSpaces(std::string_view text);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_TEXT_SCANNER_H_

// Internal: a character-level scan for the bracket that closes another, used
// by the module reader to skip regions and dialect bodies without lexing them.
#ifndef SHARDKIT_SRC_IR_BRACKET_SCAN_H_
#define SHARDKIT_SRC_IR_BRACKET_SCAN_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"

namespace shardkit {

// Where a matched pair of the scanned bracket kind opens and ends (one past
// its closing bracket).
struct BracketPair {
  size_t open;
  size_t end;
};

// Returns one past the bracket that closes `text[start]` (== `open`), reading
// the text as the lexer tokenizes it: string literals, `//` comments, `->`
// arrows and `%`/`@` suffix ids (which may hold '-') contain no brackets.
// With `nest_all` every bracket kind must nest properly (dialect bodies);
// otherwise only `open`/`close` are counted. Each matched pair of the `open`
// kind is passed to `on_pair` (innermost first). Returns npos when the text is
// not plainly balanced (an unterminated string, a mismatched bracket, the end
// of the text): the caller rescans with the lexer for a precise error.
// The first offset at or after `i` (rounded down to a multiple of 8 bytes
// past `i`) that may hold one of `{ } " /`, eight bytes at a time: the bulk
// of a region is skipped this way.
inline size_t skipToBraceOrQuote(std::string_view text, size_t i) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  // Non-zero iff some byte of `v` is zero (no false positive when none is).
  auto hasZeroByte = [](uint64_t v) { return (v - kOnes) & ~v & kHigh; };
  while (i + 8 <= text.size()) {
    uint64_t w;
    std::memcpy(&w, text.data() + i, 8);
    if (hasZeroByte(w ^ (kOnes * '{')) | hasZeroByte(w ^ (kOnes * '}')) |
        hasZeroByte(w ^ (kOnes * '"')) | hasZeroByte(w ^ (kOnes * '/'))) {
      break;
    }
    i += 8;
  }
  return i;
}

template <typename OnPair>
size_t scanBracketsFast(std::string_view text, size_t start, char open,
                        char close, bool nest_all, OnPair on_pair) {
  constexpr size_t npos = std::string_view::npos;
  auto closerOf = [](char c) -> char {
    switch (c) {
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
  };
  // The characters that can matter; a run of others is skipped in a tight
  // loop (most of a region's text). Braces-only scans (regions) stop at fewer.
  struct Tables {
    bool all[256] = {};
    bool braces[256] = {};
    Tables() {
      for (unsigned char c : std::string_view("\"/<>()[]{}-%@")) all[c] = true;
      for (unsigned char c : std::string_view("\"/{}")) braces[c] = true;
    }
  };
  static const Tables tables;
  const bool* special = !nest_all && open == '{' ? tables.braces : tables.all;
  const bool braces_only = special == tables.braces;
  absl::InlinedVector<size_t, 16> opens;  // offsets of unclosed brackets
  const size_t n = text.size();
  for (size_t i = start; i < n; ++i) {
    if (braces_only) i = skipToBraceOrQuote(text, i);
    while (i < n && !special[static_cast<unsigned char>(text[i])]) ++i;
    if (i >= n) break;
    char c = text[i];
    switch (c) {
      case '"':
        for (++i; i < n && text[i] != '"'; ++i) {
          if (text[i] == '\n') return npos;
          if (text[i] == '\\') ++i;
        }
        if (i >= n) return npos;
        continue;
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
        while (i + 1 < n &&
               (text[i + 1] == '-' || text[i + 1] == '_' ||
                text[i + 1] == '$' || text[i + 1] == '.' ||
                (text[i + 1] >= '0' && text[i + 1] <= '9') ||
                ((text[i + 1] | 0x20) >= 'a' && (text[i + 1] | 0x20) <= 'z'))) {
          ++i;
        }
        continue;
      default:
        break;
    }
    bool opening = nest_all ? closerOf(c) != 0 : c == open;
    bool closing =
        nest_all ? (c == '>' || c == ')' || c == ']' || c == '}') : c == close;
    if (opening) {
      opens.push_back(i);
      continue;
    }
    if (!closing) continue;
    if (opens.empty() || closerOf(text[opens.back()]) != c) return npos;
    size_t opened = opens.back();
    opens.pop_back();
    if (text[opened] == open) on_pair(BracketPair{opened, i + 1});
    if (opens.empty()) return i + 1;
  }
  return npos;
}

// The ends of the bracket pairs found inside earlier scans, so that a nested
// region is not scanned again (which would cost the nesting depth times the
// text). Adding is a push; the first lookup after adds sorts the new pairs.
class BracketEnds {
 public:
  void add(BracketPair pair) { pairs_.push_back(pair); }

  // The end of the pair opening at `open`, or npos.
  size_t find(size_t open) {
    if (sorted_ < pairs_.size()) {
      auto byOpen = [](const BracketPair& a, const BracketPair& b) {
        return a.open < b.open;
      };
      std::sort(pairs_.begin() + sorted_, pairs_.end(), byOpen);
      std::inplace_merge(pairs_.begin(), pairs_.begin() + sorted_, pairs_.end(),
                         byOpen);
      sorted_ = pairs_.size();
    }
    auto it = std::lower_bound(
        pairs_.begin(), pairs_.end(), open,
        [](const BracketPair& p, size_t o) { return p.open < o; });
    if (it == pairs_.end() || it->open != open) {
      return std::string_view::npos;
    }
    return it->end;
  }

 private:
  std::vector<BracketPair> pairs_;
  size_t sorted_ = 0;  // pairs_[0, sorted_) is sorted by `open`
};

}  // namespace shardkit

#endif  // SHARDKIT_SRC_IR_BRACKET_SCAN_H_

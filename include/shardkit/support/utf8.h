// UTF-8 validation and the one JSON string writer: every JSON output
// (--comm-report, --dump-graph=json) quotes its strings here, so it is
// valid JSON whatever bytes the input held.
#ifndef SHARDKIT_SUPPORT_UTF8_H_
#define SHARDKIT_SUPPORT_UTF8_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace shardkit {

// The length of the well-formed UTF-8 sequence of two to four bytes at the
// start of `s` (no overlong forms, surrogates or code points past
// U+10FFFF), or 0.
inline size_t utf8SequenceLength(std::string_view s) {
  if (s.empty()) return 0;
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  auto continuation = [&](size_t i) {
    return i < s.size() && (byte(i) & 0xC0) == 0x80;
  };
  unsigned char lead = byte(0);
  size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
  if (length == 0 || lead > 0xF4) return 0;
  for (size_t i = 1; i < length; ++i) {
    if (!continuation(i)) return 0;
  }
  unsigned char second = byte(1);
  if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second >= 0xA0) ||
      (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second >= 0x90)) {
    return 0;
  }
  return length;
}

// The longest prefix of `text` of at most `max_bytes` bytes that does not
// end inside a UTF-8 sequence (so a message cut there stays valid UTF-8).
inline std::string_view utf8Prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t end = max_bytes;
  // Back up over continuation bytes to the lead of the sequence cut.
  size_t back = 0;
  while (end > 0 && back < 3 &&
         (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
    --end;
    ++back;
  }
  return text.substr(0, end);
}

// Appends `text` as a JSON string literal: quotes, backslashes and control
// bytes escaped, well-formed UTF-8 kept, and each byte of an ill-formed
// sequence written as U+FFFD (JSON text must be UTF-8). The result is also
// a valid DOT quoted string, whose escapes are a subset.
inline void appendJsonString(std::string& out, std::string_view text) {
  constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      size_t n = utf8SequenceLength(text.substr(i));
      if (n == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    ++i;
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

}  // namespace shardkit

#endif  // SHARDKIT_SUPPORT_UTF8_H_

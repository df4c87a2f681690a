// Small string helpers. Debian's Abseil has its own absl::string_view type,
// so shardkit builds strings with these instead of absl::StrCat, and converts
// at the few places that hand a std::string_view to Abseil.
#ifndef SHARDKIT_CORE_STRINGS_H_
#define SHARDKIT_CORE_STRINGS_H_

#include <charconv>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/strings/string_view.h"

namespace shardkit {

inline absl::string_view toAbsl(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}
inline std::string_view fromAbsl(absl::string_view s) {
  return std::string_view(s.data(), s.size());
}

namespace strings_internal {
inline void appendPiece(std::string& out, std::string_view piece) {
  out.append(piece);
}
inline void appendPiece(std::string& out, const char* piece) { out += piece; }
inline void appendPiece(std::string& out, const std::string& piece) {
  out += piece;
}
inline void appendPiece(std::string& out, char c) { out += c; }
template <std::integral T>
  requires(!std::same_as<T, char> && !std::same_as<T, bool>)
void appendPiece(std::string& out, T value) {
  char buf[24];
  auto result = std::to_chars(buf, buf + sizeof(buf), value);
  out.append(buf, result.ptr);
}
}  // namespace strings_internal

// Appends the pieces (strings, chars and integers) to `out`.
template <typename... Pieces>
void strAppend(std::string& out, const Pieces&... pieces) {
  (strings_internal::appendPiece(out, pieces), ...);
}

// Concatenates strings, chars and integers.
template <typename... Pieces>
std::string strCat(const Pieces&... pieces) {
  std::string out;
  strAppend(out, pieces...);
  return out;
}

// Parses a whole decimal (optionally negative) integer; false on overflow or
// any other character.
inline bool parseInt64(std::string_view text, int64_t& value, int base = 10) {
  if (text.empty()) return false;
  auto result = std::from_chars(text.data(), text.data() + text.size(), value,
                                base);
  return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_STRINGS_H_

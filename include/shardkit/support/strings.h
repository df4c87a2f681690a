// Small string helpers. Debian's Abseil has its own absl::string_view type,
// so shardkit builds strings with these instead of absl::StrCat, and converts
// at the few places that hand a std::string_view to Abseil.
#ifndef SHARDKIT_SUPPORT_STRINGS_H_
#define SHARDKIT_SUPPORT_STRINGS_H_

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
requires(!std::same_as<T, char> &&
         !std::same_as<T, bool>) void appendPiece(std::string& out, T value) {
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

// Appends the decimal `value` (an `append` for appendJoined).
inline void appendInt(std::string& out, int64_t value) {
  strAppend(out, value);
}

// Appends each of `items` with `append(out, item)`, `separator` between two
// (`a, b, c`): the body of a printed list.
template <typename Items, typename Append>
void appendJoined(std::string& out, const Items& items, Append&& append,
                  std::string_view separator = ", ") {
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += separator;
    first = false;
    append(out, item);
  }
}

// Appends `open`, the `items` as appendJoined does, and `close`: `[a, b]`.
template <typename Items, typename Append>
void appendList(std::string& out, std::string_view open, const Items& items,
                Append&& append, std::string_view close,
                std::string_view separator = ", ") {
  out += open;
  appendJoined(out, items, append, separator);
  out += close;
}

// Parses a whole decimal (optionally negative) integer; false on overflow or
// any other character.
inline bool parseInt64(std::string_view text, int64_t& value, int base = 10) {
  if (text.empty()) return false;
  auto result =
      std::from_chars(text.data(), text.data() + text.size(), value, base);
  return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

// Appends `text` as an MLIR string literal as LLVM's printEscapedString
// writes it: quoted, `\\` doubled, and `"` and every byte outside printable
// ASCII written as `\XX` (upper-case hex), so `a"é` prints as
// `"a\22\C3\A9"`.
inline void appendQuoted(std::string& out, std::string_view text) {
  constexpr char kHex[] = "0123456789ABCDEF";
  out += '"';
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"' || u < 0x20 || u >= 0x7f) {
      out += '\\';
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += c;
    }
  }
  out += '"';
}

// True if `name` can be written after `@` without quotes: MLIR's bare
// identifier, `[A-Za-z_][A-Za-z0-9_$.]*`.
inline bool isBareIdentifier(std::string_view name) {
  auto is_letter = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  if (name.empty() || !is_letter(name.front())) return false;
  for (char c : name) {
    if (!is_letter(c) && !(c >= '0' && c <= '9') && c != '$' && c != '.') {
      return false;
    }
  }
  return true;
}

// Appends a symbol reference: `@name`, or `@"quoted name"` when `name` is not
// a bare identifier.
inline void appendSymbolRef(std::string& out, std::string_view name) {
  out += '@';
  if (isBareIdentifier(name)) {
    out.append(name);
  } else {
    appendQuoted(out, name);
  }
}

}  // namespace shardkit

#endif  // SHARDKIT_SUPPORT_STRINGS_H_

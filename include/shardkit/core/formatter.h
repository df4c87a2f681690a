// How shardkit's value types print. A value type defines
// `void appendTo(std::string& out, const T& value)` beside it (found by
// argument-dependent lookup), which appends the reference's stripped text;
// `toString(value)` returns that text, and {fmt} prints it:
// `fmt::format("{}", sharding)` is `toString(sharding)`.
#ifndef SHARDKIT_CORE_FORMATTER_H_
#define SHARDKIT_CORE_FORMATTER_H_

#include <string>
#include <string_view>

#include "fmt/core.h"

namespace shardkit {

// A type with an `appendTo(out, value)`.
template <typename T>
concept Printable = requires(std::string& out, const T& value) {
  appendTo(out, value);
};

// The text `appendTo` appends.
template <Printable T>
std::string toString(const T& value) {
  std::string out;
  appendTo(out, value);
  return out;
}

// `appendTo` as a function object, e.g. the `append` of appendJoined and
// appendList (strings.h) for a list of printable values.
inline constexpr auto appendPrintable =
    [](std::string& out, const auto& value) { appendTo(out, value); };

// A {fmt} formatter that prints `toString(value)`, with the format spec of
// a string (`{:>20}`).
struct ToStringFormatter : fmt::formatter<std::string_view> {
  template <typename T, typename FormatContext>
  auto format(const T& value, FormatContext& ctx) const -> decltype(ctx.out()) {
    std::string text = toString(value);
    return fmt::formatter<std::string_view>::format(text, ctx);
  }
};

}  // namespace shardkit

// Every printable type that is not a range. A range (a ValueList, e.g.
// AxisRefList) would match {fmt}'s range formatter as well: it, like a type
// with a toString but no appendTo, gets its own formatter with
// SHARDKIT_DEFINE_FORMATTER.
template <shardkit::Printable T>
requires(!requires(const T& value) { value.begin(); }) struct fmt::formatter<T>
    : shardkit::ToStringFormatter {
};

#define SHARDKIT_DEFINE_FORMATTER(Type) \
  template <>                           \
  struct fmt::formatter<Type> : ::shardkit::ToStringFormatter {}

#endif  // SHARDKIT_CORE_FORMATTER_H_

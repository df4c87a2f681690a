// Hooks a shardkit value type into {fmt}: `fmt::format("{}", sharding)` prints
// exactly what `toString(sharding)` does, i.e. the reference's stripped text.
#ifndef SHARDKIT_CORE_FORMATTER_H_
#define SHARDKIT_CORE_FORMATTER_H_

#include <string>
#include <string_view>

#include "fmt/core.h"

#define SHARDKIT_DEFINE_FORMATTER(Type)                            \
  template <>                                                      \
  struct fmt::formatter<Type> : fmt::formatter<std::string_view> { \
    template <typename FormatContext>                              \
    auto format(const Type& value, FormatContext& ctx) const       \
        -> decltype(ctx.out()) {                                   \
      std::string text = ::shardkit::toString(value);              \
      return fmt::formatter<std::string_view>::format(text, ctx);  \
    }                                                              \
  }

#endif  // SHARDKIT_CORE_FORMATTER_H_

// TextHash: the hash of hash maps keyed by std::string_view (views of a
// text being read). Debian's Abseil has its own absl::string_view, so
// absl::Hash<std::string_view> falls back to std::hash, several times slower
// than Abseil's own string hash, which this one uses.
#ifndef SHARDKIT_SRC_ASM_TEXT_HASH_H_
#define SHARDKIT_SRC_ASM_TEXT_HASH_H_

#include <cstddef>
#include <string_view>

#include "absl/hash/hash.h"
#include "shardkit/support/strings.h"

namespace shardkit {

struct TextHash {
  using is_transparent = void;
  size_t operator()(std::string_view text) const {
    return absl::Hash<absl::string_view>{}(toAbsl(text));
  }
};

}  // namespace shardkit

#endif  // SHARDKIT_SRC_ASM_TEXT_HASH_H_

// PropagationDirection: which way shardings may flow through an op or barrier.
#ifndef SHARDKIT_CORE_PROPAGATION_DIRECTION_H_
#define SHARDKIT_CORE_PROPAGATION_DIRECTION_H_

#include <optional>
#include <string>
#include <string_view>

#include "shardkit/core/formatter.h"
#include "shardkit/support/enum_table.h"

namespace shardkit {

// The values order by expressiveness: NONE < FORWARD, BACKWARD < BOTH.
enum class PropagationDirection {
  kNone = 0,
  kForward = 1,
  kBackward = 2,
  kBoth = 3,
  kLast = kBoth
};

inline bool allowsForward(PropagationDirection d) {
  return d == PropagationDirection::kForward ||
         d == PropagationDirection::kBoth;
}
inline bool allowsBackward(PropagationDirection d) {
  return d == PropagationDirection::kBackward ||
         d == PropagationDirection::kBoth;
}
// The directions allowed by both `a` and `b`.
inline PropagationDirection intersect(PropagationDirection a,
                                      PropagationDirection b) {
  return static_cast<PropagationDirection>(static_cast<int>(a) &
                                           static_cast<int>(b));
}

inline constexpr EnumTable<PropagationDirection, std::string_view>
    kPropagationDirectionNames = {{"NONE", "FORWARD", "BACKWARD", "BOTH"}};

// `NONE`, `FORWARD`, `BACKWARD` or `BOTH`.
inline std::string toString(PropagationDirection direction) {
  return std::string(kPropagationDirectionNames[direction]);
}
// The direction `toString` prints as `text`, or nullopt.
inline std::optional<PropagationDirection> propagationDirectionFromString(
    std::string_view text) {
  return kPropagationDirectionNames.find(text);
}

}  // namespace shardkit

SHARDKIT_DEFINE_FORMATTER(shardkit::PropagationDirection);

#endif  // SHARDKIT_CORE_PROPAGATION_DIRECTION_H_

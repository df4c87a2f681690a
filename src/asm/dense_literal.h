// Internal: MLIR's spelling of a dense elements literal.
#ifndef SHARDKIT_SRC_ASM_DENSE_LITERAL_H_
#define SHARDKIT_SRC_ASM_DENSE_LITERAL_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "shardkit/ir/type.h"

namespace shardkit {

// Re-spells the text between `dense<` and `>` the way MLIR prints it for
// `type`: floats as `1.000000e+00`, booleans as `true`, all-equal elements as
// a splat, nesting following the shape.
absl::StatusOr<std::string> normalizeDenseLiteral(std::string_view literal,
                                                  Type type);

// Re-spells the tokens of buffer[start, end) with MLIR's spacing.
std::string normalizeTokens(std::string_view buffer, size_t start, size_t end);

}  // namespace shardkit

#endif  // SHARDKIT_SRC_ASM_DENSE_LITERAL_H_

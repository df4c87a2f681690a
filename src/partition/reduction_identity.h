// The identities of the reductions the partitioner builds or meets, as the
// dense literals MLIR prints for them. Internal to the partition layer.
#ifndef SHARDKIT_SRC_PARTITION_REDUCTION_IDENTITY_H_
#define SHARDKIT_SRC_PARTITION_REDUCTION_IDENTITY_H_

#include <optional>
#include <string>
#include <string_view>

#include "shardkit/ir/graph.h"

namespace shardkit::partition {

// `dense<0>`, `dense<0.000000e+00>`, `dense<false>` or the complex zero: the
// zero of an element type.
std::string zeroLiteral(std::string_view element);

// The binary op every result of `scatter`'s update computation applies to
// its own pair of arguments (the same op for all: add, multiply, maximum,
// minimum, or and/or on i1), or null.
Op commonScatterReduction(Op scatter);

// The literal of the identity of `scatter`'s reduction on the element type
// of its first input, as the reference builds it: 0 for add and or, 1 (true)
// for multiply and and, the lowest finite float or the smallest signed
// integer for maximum, the highest for minimum. nullopt when the reduction
// is not a common one or the element type has none.
std::optional<std::string> scatterIdentity(Op scatter);

}  // namespace shardkit::partition

#endif  // SHARDKIT_SRC_PARTITION_REDUCTION_IDENTITY_H_

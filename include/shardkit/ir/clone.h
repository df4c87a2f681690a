// Deep copies of ops and regions: every op with its attributes, location and
// regions, operands renamed through a value map (values the map doesn't know
// are used as they are, e.g. values defined above the copied region).
#ifndef SHARDKIT_IR_CLONE_H_
#define SHARDKIT_IR_CLONE_H_

#include "absl/container/flat_hash_map.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

// Original value -> its copy. Filled by the functions below with the results
// and block arguments they copy.
using ValueMap = absl::flat_hash_map<Value, Value>;

// A detached copy of `op` (insert it with Block::pushBack/insertBefore).
Op cloneOp(Op op, ValueMap& map);

// Appends copies of the blocks of `from` (arguments and ops) to `to`.
void cloneRegionInto(Region from, Region to, ValueMap& map);

}  // namespace shardkit

#endif  // SHARDKIT_IR_CLONE_H_

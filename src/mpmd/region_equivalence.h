// Internal to the mpmd layer: structural equality of regions, what
// -mpmd-lower-to-fragment-calls uses to give equal fragments one function.
#ifndef SHARDKIT_SRC_MPMD_REGION_EQUIVALENCE_H_
#define SHARDKIT_SRC_MPMD_REGION_EQUIVALENCE_H_

#include <cstddef>

#include "shardkit/ir/graph.h"

namespace shardkit::mpmd::mpmd_internal {

// True if the regions compute the same thing the same way: the same blocks
// with the same argument types, and op by op the same kinds, attributes,
// result types and regions, with operands that correspond (defined at the
// same place in either region, or the same value from outside). Locations
// are ignored.
bool isRegionEquivalent(Region a, Region b);

// A hash of a region's op kinds and result types, equal for equivalent
// regions.
size_t regionShapeHash(Region region);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_REGION_EQUIVALENCE_H_

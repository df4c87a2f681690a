// sdy collective ops and the sim layer's Collective values, both ways: what
// an op performs, and the op that performs a Collective. Internal to the
// passes layer (-sdy-reshard-to-collectives builds ops, -sdy-check-collectives
// and the communication report read them).
#ifndef SHARDKIT_SRC_PASSES_EXPORT_COLLECTIVE_OPS_H_
#define SHARDKIT_SRC_PASSES_EXPORT_COLLECTIVE_OPS_H_

#include <optional>

#include "shardkit/ir/graph.h"
#include "shardkit/ir/module.h"
#include "shardkit/sim/collectives.h"

namespace shardkit::passes_internal {

// The collective `op` performs (its kind, parameters and out sharding), or
// nullopt if `op` (possibly null) is not an sdy collective or names an
// unknown reduction.
std::optional<Collective> collectiveOf(Op op);

// Builds the op that performs `collective` on `input`, with result type
// `type` and location `loc`, right before `anchor`; returns its result.
Value buildCollective(Module& module, const Collective& collective, Value input,
                      Type type, uint32_t loc, Op anchor);

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_EXPORT_COLLECTIVE_OPS_H_

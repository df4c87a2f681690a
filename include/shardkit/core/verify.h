// The verifier: the invariants of meshes, axis refs, shardings, sharding
// rules and collective parameters (the reference's docs/sdy_dialect.md and
// docs/sharding_representation.md), each violation an InvalidArgument status
// with one precise message. This header includes all of it; each part has its
// own header:
//
//   core/verify_mesh.h        meshes, axis refs, axis-ref lists, manual axes
//   core/verify_sharding.h    tensor shardings, per-value sharding lists
//   core/verify_rule.h        op sharding rules against the values' shapes
//   core/verify_collective.h  sdy collectives
//   core/verify_unreduced.h   unreduced-axes transitions of ops
//   core/verify_debug_info.h  propagation debug records (propagation edges)
//
// Which checks exist, and the order they run in, follow the reference
// implementation, so the first violation reported for a bad value is the one
// the reference reports; messages keep the reference's short key phrases
// (e.g. `sharding doesn't match tensor rank: 2 != 1`) so that lit tests
// comparing messages match. Messages never carry an op prefix: the graph
// layer adds `'sdy.reshard' op ...` or `'func.func' op arg 0 - ...`.
//
// All functions accept any value, however malformed (negative sizes, unknown
// names, out-of-range indices, arithmetic overflow), without crashing.
#ifndef SHARDKIT_CORE_VERIFY_H_
#define SHARDKIT_CORE_VERIFY_H_

#include "shardkit/core/verify_collective.h"
#include "shardkit/core/verify_debug_info.h"
#include "shardkit/core/verify_mesh.h"
#include "shardkit/core/verify_rule.h"
#include "shardkit/core/verify_sharding.h"
#include "shardkit/core/verify_unreduced.h"

#endif  // SHARDKIT_CORE_VERIFY_H_

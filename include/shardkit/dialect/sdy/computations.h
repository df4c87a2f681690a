// Named and manual computations (`sdy.named_computation`,
// `sdy.manual_computation`): which op a body argument belongs to, and how a
// sharding looks on either side of a manual computation's boundary. Outside,
// a sharding names the manual axes; inside the body they are gone: the manual
// axes that lead each dimension, and the manual replicated and unreduced
// axes, are what splits the computation, not how its values are sharded.
#ifndef SHARDKIT_DIALECT_SDY_COMPUTATIONS_H_
#define SHARDKIT_DIALECT_SDY_COMPUTATIONS_H_

#include "shardkit/core/collective_params.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// The named or manual computation whose body's entry block has `arg`, or
// null (also for a value that is not a block argument).
Op computationOfArgument(Value arg);

// The manual axes of a manual computation (empty for any other op).
ManualAxes manualAxesOf(Op op);

// `sharding` as the body of a manual computation with `manual` axes sees it.
TensorSharding withoutManualAxes(const TensorSharding& sharding,
                                 const ManualAxes& manual);

// The inverse: `local` (a sharding inside the body) with the manual axes
// that lead each dimension of `outer` put back in front. Mesh, open/closed
// and priorities come from `local`; replicated and unreduced axes (and the
// reduction kind) from `outer`.
TensorSharding withManualAxesOf(const TensorSharding& outer,
                                const TensorSharding& local,
                                const ManualAxes& manual);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_SDY_COMPUTATIONS_H_

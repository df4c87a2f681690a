// Typed handles of the ops the interpreter adds to the StableHLO ones: the
// checks of StableHLO's test dialect and the interpreter's own ops
// (registered by registerInterpreterDialects, interpreter.h).
#ifndef SHARDKIT_INTERP_OPS_H_
#define SHARDKIT_INTERP_OPS_H_

#include "shardkit/export.h"
#include "shardkit/ir/op_base.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::check {

// `check.expect_eq %actual, %expected : type`: exactly equal.
using ExpectEqOp = PlainOp<"check.expect_eq">;
// `check.expect_eq_const %actual, dense<...> : type`.
using ExpectEqConstOp = PlainOp<"check.expect_eq_const">;
// Equal within `tolerance` (default 1e-4), floats and complex only.
using ExpectAlmostEqOp = PlainOp<"check.expect_almost_eq">;
using ExpectAlmostEqConstOp = PlainOp<"check.expect_almost_eq_const">;
// Within [min_ulp_difference, max_ulp_difference] units in the last place.
using ExpectCloseOp = PlainOp<"check.expect_close">;
// Against a tensor an earlier run serialized (`probe_id`, `iteration`).
using ExpectSerializedEqOp = PlainOp<"check.expect_serialized_eq">;

}  // namespace shardkit::check

namespace shardkit::interpreter {

// `"interpreter.run_parallel"(inputs) {programs = [[@a, @b], [@c, @d]]}`:
// runs a grid of replicas (outer) by partitions (inner) processes.
using RunParallelOp = PlainOp<"interpreter.run_parallel">;
// `interpreter.print %x : type`: prints the value.
using PrintOp = PlainOp<"interpreter.print">;
// `interpreter.probe %x, probe_id = "p" : type`: returns its operand.
using ProbeOp = PlainOp<"interpreter.probe">;

}  // namespace shardkit::interpreter

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_INTERP_OPS_H_

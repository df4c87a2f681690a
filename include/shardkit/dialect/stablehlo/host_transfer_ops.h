// The StableHLO host transfer ops, singled out by the mpmd sharding passes,
// which keep their shardings on the op.
#ifndef SHARDKIT_DIALECT_STABLEHLO_HOST_TRANSFER_OPS_H_
#define SHARDKIT_DIALECT_STABLEHLO_HOST_TRANSFER_OPS_H_

#include "shardkit/export.h"
#include "shardkit/ir/op_base.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::stablehlo {

using SendOp = PlainOp<"stablehlo.send">;
using RecvOp = PlainOp<"stablehlo.recv">;

}  // namespace shardkit::stablehlo

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_STABLEHLO_HOST_TRANSFER_OPS_H_

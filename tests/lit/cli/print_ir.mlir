// -mlir-print-ir-*: the module on stderr around the passes, under MLIR's
// banners; stdout keeps the final module alone.

// RUN: shardkit-opt %s -sdy-add-data-flow-edges -sdy-basic-propagate -mlir-print-ir-after-all 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=ALL
// ALL:      // -----// IR Dump After sdy-add-data-flow-edges //----- //
// ALL-NEXT: module {
// ALL:        %0 = stablehlo.tanh %arg0 : tensor<8x8xf32>
// ALL:      // -----// IR Dump After sdy-basic-propagate //----- //
// ALL-NEXT: module {
// ALL:        %0 = stablehlo.tanh %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}
// ALL-NOT:  IR Dump

// Only the named pass, before it; -mlir-print-ir-after= takes a list.
// RUN: shardkit-opt %s -sdy-add-data-flow-edges -sdy-basic-propagate -mlir-print-ir-before=sdy-basic-propagate 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=BEFORE --implicit-check-not='IR Dump'
// BEFORE:     // -----// IR Dump Before sdy-basic-propagate //----- //
// BEFORE:       %0 = stablehlo.tanh %arg0 : tensor<8x8xf32>
// RUN: shardkit-opt %s -sdy-add-data-flow-edges -sdy-basic-propagate -mlir-print-ir-after=sdy-basic-propagate,sdy-add-data-flow-edges 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=AFTER --implicit-check-not='IR Dump'
// AFTER: IR Dump After sdy-add-data-flow-edges
// AFTER: IR Dump After sdy-basic-propagate

// The same with a --pass-pipeline, and in generic form with the flag for it.
// RUN: shardkit-opt %s --pass-pipeline='builtin.module(sdy-basic-propagate)' -mlir-print-ir-before-all --mlir-print-op-generic 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=GENERIC
// GENERIC: // -----// IR Dump Before sdy-basic-propagate //----- //
// GENERIC: "stablehlo.tanh"(%arg0)

sdy.mesh @mesh = <["x"=4]>

func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.tanh %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

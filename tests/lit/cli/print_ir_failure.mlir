// -mlir-print-ir-after-failure: the module as a failed pass left it, under
// the `Failed` banner, then the pass's error; nothing without the flag.

// RUN: not shardkit-opt %s -sdy-import-gspmd-shardings -mlir-print-ir-after-failure 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FAILED
// FAILED:      // -----// IR Dump After sdy-import-gspmd-shardings Failed //----- //
// FAILED-NEXT: module {
// FAILED:      error: -sdy-import-gspmd-shardings:
// RUN: not shardkit-opt %s -sdy-import-gspmd-shardings -mlir-print-ir-after-all 2>&1 \
// RUN:   | FileCheck %s --check-prefix=QUIET --implicit-check-not='IR Dump'
// QUIET: error: -sdy-import-gspmd-shardings:

func.func @main(%arg0: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> tensor<8x8xf32> {
  return %arg0 : tensor<8x8xf32>
}

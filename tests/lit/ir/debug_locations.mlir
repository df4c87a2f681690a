// loc(...) is read (aliases resolved), kept through passes (ops a pass makes
// take the location of the op they come from) and printed with
// -mlir-print-debuginfo; without the flag the output has no locations.
// RUN: shardkit-opt %s -sdy-propagation-pipeline -mlir-print-debuginfo \
// RUN:   | FileCheck %s
// RUN: shardkit-opt %s -sdy-propagation-pipeline | FileCheck %s --check-prefix=PLAIN

sdy.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: func @main
// CHECK:         stablehlo.add %arg0, %arg1 {{.*}} loc("dense"("model.py":3:9))
// The constraint became a reshard: it keeps the constraint's location.
// CHECK:         sdy.reshard {{.*}} loc("model.py":4:7)
// CHECK:         return {{.*}} loc(unknown)
// CHECK:       } loc("model.py":1:1)
// PLAIN-NOT: loc(
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %b: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<8x16xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x16xf32> loc(#loc1)
  %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> : tensor<8x16xf32> loc("model.py":4:7)
  return %1 : tensor<8x16xf32>
} loc(#loc0)
#loc0 = loc("model.py":1:1)
#loc1 = loc("dense"(#loc2))
#loc2 = loc("model.py":3:9)

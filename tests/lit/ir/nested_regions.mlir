// RUN: shardkit-opt %s | FileCheck %s
// RUN: shardkit-opt %s --mlir-print-op-generic | shardkit-opt - | FileCheck %s

// CHECK-LABEL: module @nested attributes {mhlo.num_partitions = 4 : i32, test.list = [1, "two", 3.000000e+00 : f32], test.unit} {
// CHECK-NEXT:   sdy.mesh @mesh = <["x"=4]>
// CHECK-NEXT:   func.func @nested(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:     %0 = "test.outer"(%arg0) ({
// CHECK-NEXT:       %1 = "test.middle"() ({
// CHECK-NEXT:         %2 = "test.inner"(%arg0) ({
// CHECK-NEXT:           %3 = stablehlo.while(%iterArg = %arg0) : tensor<4xf32>
// CHECK-NEXT:            cond {
// CHECK-NEXT:             %4 = "test.pred"(%iterArg) : (tensor<4xf32>) -> tensor<i1>
// CHECK-NEXT:             stablehlo.return %4 : tensor<i1>
// CHECK-NEXT:           } do {
// CHECK-NEXT:             %4 = sdy.sharding_constraint %iterArg <@mesh, [{"x"}]> : tensor<4xf32>
// CHECK-NEXT:             stablehlo.return %4 : tensor<4xf32>
// CHECK-NEXT:           }
// CHECK-NEXT:           "test.yield"(%3) : (tensor<4xf32>) -> ()
// CHECK-NEXT:         }) {depth = 3 : i64} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:         "test.yield"(%2) : (tensor<4xf32>) -> ()
// CHECK-NEXT:       }, {
// CHECK-NEXT:         "test.empty_block"() : () -> ()
// CHECK-NEXT:       }) : () -> tensor<4xf32>
// CHECK-NEXT:       "test.yield"(%1) : (tensor<4xf32>) -> ()
// CHECK-NEXT:     }) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:     return %0 : tensor<4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Regions nested in regions, in generic and pretty ops, with values from
// enclosing regions used inside (generic ops are not isolated from above).
module @nested attributes {mhlo.num_partitions = 4 : i32, test.list = [1, "two", 3.0 : f32], test.unit} {
  sdy.mesh @mesh = <["x"=4]>
  func.func @nested(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = "test.outer"(%arg0) ({
      %inner = "test.middle"() ({
        %deep = "test.inner"(%arg0) ({
          %w = stablehlo.while(%i = %arg0) : tensor<4xf32>
           cond {
            %p = "test.pred"(%i) : (tensor<4xf32>) -> tensor<i1>
            stablehlo.return %p : tensor<i1>
          } do {
            %s = sdy.sharding_constraint %i <@mesh, [{"x"}]> : tensor<4xf32>
            stablehlo.return %s : tensor<4xf32>
          }
          "test.yield"(%w) : (tensor<4xf32>) -> ()
        }) {depth = 3 : i64} : (tensor<4xf32>) -> tensor<4xf32>
        "test.yield"(%deep) : (tensor<4xf32>) -> ()
      }, {
        "test.empty_block"() : () -> ()
      }) : () -> tensor<4xf32>
      "test.yield"(%inner) : (tensor<4xf32>) -> ()
    }) : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

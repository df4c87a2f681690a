// Shapes whose element counts do not fit in int64 propagate without
// overflowing: the aggressive strategy compares tensor sizes with saturating
// products (checked under UBSan in the sanitizer build). A reshape of such a
// shape has no sharding rule: a located error.

// RUN: not shardkit-opt %s -split-input-file -sdy-propagation-pipeline 2>/dev/null | FileCheck %s
// RUN: not shardkit-opt %s -split-input-file -sdy-aggressive-propagate 2>/dev/null | FileCheck %s
// RUN: not shardkit-opt %s -split-input-file -sdy-insert-explicit-reshards=enable-full-version -canonicalize 2>/dev/null | FileCheck %s --check-prefix=EXPORT
// EXPORT: func.func @huge
// RUN: shardkit-opt %s -split-input-file -sdy-aggressive-propagate -verify-diagnostics > /dev/null

sdy.mesh @mesh = <["a"=2, "b"=4294967296]>

// CHECK-LABEL: func @huge
// CHECK: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"{{.*}}}, {{{.*}}}]>]>}
// CHECK: stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"{{.*}}}, {{{.*}}}]>]>}
func.func @huge(%arg0: tensor<9223372036854775807x4611686018427387904xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>},
                %arg1: tensor<4611686018427387904x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>})
    -> tensor<9223372036854775807x8xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<9223372036854775807x4611686018427387904xf32>, tensor<4611686018427387904x8xf32>) -> tensor<9223372036854775807x8xf32>
  %1 = stablehlo.add %0, %0 : tensor<9223372036854775807x8xf32>
  return %1 : tensor<9223372036854775807x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>

func.func @reshape(%arg0: tensor<9223372036854775807x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<8x9223372036854775807xf32> {
  // expected-error @+1 {{reshape operand has too many elements}}
  %0 = stablehlo.reshape %arg0 : (tensor<9223372036854775807x8xf32>) -> tensor<8x9223372036854775807xf32>
  return %0 : tensor<8x9223372036854775807xf32>
}

// -sdy-pad-for-divisibility: padded types, widened slices, shrunk pads,
// zero masks before contractions, and the collectives' pads and trims; the
// errors are in pad_for_divisibility_errors.mlir.
// RUN: shardkit-opt %s -split-input-file -sdy-pad-for-divisibility | FileCheck %s

sdy.mesh @m3 = <["a"=3, "b"=2]>

// A slice that keeps every device's piece size widens to the padded size;
// the tanh follows; the gather trims the padding off again.
// CHECK-LABEL: func.func @widen_then_gather
// CHECK-NEXT: %[[S:.*]] = stablehlo.slice %arg0 [0:9, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"a"}, {}]>]>} : (tensor<9x4xf32>) -> tensor<9x4xf32>
// CHECK-NEXT: %[[T:.*]] = stablehlo.tanh %[[S]] {{.*}} : tensor<9x4xf32>
// CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"a"}, {}] %[[T]] out_sharding=<@m3, [{}, {}]> : tensor<9x4xf32>
// CHECK-NEXT: %[[TRIM:.*]] = stablehlo.slice %[[G]] [0:8, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{}, {}]>]>} : (tensor<9x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %[[TRIM]] : tensor<8x4xf32>
func.func @widen_then_gather(%arg0: tensor<9x4xf32> {sdy.sharding = #sdy.sharding<@m3, [{"a"}, {}]>}) -> tensor<8x4xf32> {
  %0 = stablehlo.slice %arg0 [0:8, 0:4] {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"a"}, {}]>]>} : (tensor<9x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.tanh %0 {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"a"}, {}]>]>} : tensor<8x4xf32>
  %2 = sdy.all_gather [{"a"}, {}] %1 out_sharding=<@m3, [{}, {}]> : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// -----

sdy.mesh @m3 = <["a"=3, "b"=2]>

// all_slice pads with zeros, so the contraction over the padded dimension
// needs no mask; after an exp the padding is unknown and is masked.
// CHECK-LABEL: func.func @contract_padded
// CHECK:      %[[P0:.*]] = stablehlo.pad %arg0, %{{.*}}, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<2x5xf32>, tensor<f32>) -> tensor<2x6xf32>
// CHECK-NEXT: %[[L:.*]] = sdy.all_slice [{}, {"a"}] %[[P0]] out_sharding=<@m3, [{}, {"a"}]> : tensor<2x6xf32>
// CHECK:      %[[P1:.*]] = stablehlo.pad %arg1, %{{.*}}, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<5x3xf32>, tensor<f32>) -> tensor<6x3xf32>
// CHECK-NEXT: %[[R:.*]] = sdy.all_slice [{"a"}, {}] %[[P1]]
// CHECK-NEXT: %[[E:.*]] = stablehlo.exponential %[[R]] {{.*}} : tensor<6x3xf32>
// CHECK-NEXT: %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[IOTA:.*]] = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"a"}, {}]>]>} : tensor<6x3xi32>
// CHECK-NEXT: %[[FIVE:.*]] = stablehlo.constant dense<5> : tensor<i32>
// CHECK-NEXT: %[[BOUND:.*]] = stablehlo.broadcast_in_dim %[[FIVE]], dims = []
// CHECK-NEXT: %[[MASK:.*]] = stablehlo.compare  LT, %[[IOTA]], %[[BOUND]]
// CHECK-NEXT: %[[FILL:.*]] = stablehlo.broadcast_in_dim %[[ZERO]], dims = []
// CHECK-NEXT: %[[SEL:.*]] = stablehlo.select %[[MASK]], %[[E]], %[[FILL]]
// CHECK-NEXT: %[[DOT:.*]] = stablehlo.dot_general %[[L]], %[[SEL]], contracting_dims = [1] x [0] {{.*}} : (tensor<2x6xf32>, tensor<6x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: sdy.all_reduce {"a"} %[[DOT]]
func.func @contract_padded(%arg0: tensor<2x5xf32>, %arg1: tensor<5x3xf32>) -> tensor<2x3xf32> {
  %0 = sdy.all_slice [{}, {"a"}] %arg0 out_sharding=<@m3, [{}, {"a"}]> : tensor<2x5xf32>
  %1 = sdy.all_slice [{"a"}, {}] %arg1 out_sharding=<@m3, [{"a"}, {}]> : tensor<5x3xf32>
  %2 = stablehlo.exponential %1 {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"a"}, {}]>]>} : tensor<5x3xf32>
  %3 = stablehlo.dot_general %0, %2, contracting_dims = [1] x [0] {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{}, {}]>]>} : (tensor<2x5xf32>, tensor<5x3xf32>) -> tensor<2x3xf32>
  %4 = sdy.all_reduce {"a"} %3 out_sharding=<@m3, [{}, {}]> : tensor<2x3xf32>
  return %4 : tensor<2x3xf32>
}

// -----

sdy.mesh @m3 = <["a"=3, "b"=2]>

// The padded input is longer than the pad's input: with interior padding
// the high padding shrinks, and the input's padding rows are first set to
// the padding value.
// CHECK-LABEL: func.func @pad_shrinks_high
// CHECK-NEXT: %[[S:.*]] = stablehlo.slice %arg0 [0:6, 0:2] {{.*}} -> tensor<6x2xf32>
// CHECK-NEXT: %[[IOTA:.*]] = stablehlo.iota dim = 0
// CHECK-NEXT: %[[FIVE:.*]] = stablehlo.constant dense<5> : tensor<i32>
// CHECK-NEXT: %[[BOUND:.*]] = stablehlo.broadcast_in_dim %[[FIVE]]
// CHECK-NEXT: %[[MASK:.*]] = stablehlo.compare  LT, %[[IOTA]], %[[BOUND]]
// CHECK-NEXT: %[[FILL:.*]] = stablehlo.broadcast_in_dim %arg1, dims = []
// CHECK-NEXT: %[[SEL:.*]] = stablehlo.select %[[MASK]], %[[S]], %[[FILL]]
// CHECK-NEXT: %[[PAD:.*]] = stablehlo.pad %[[SEL]], %arg1, low = [0, 0], high = [1, 0], interior = [1, 0] {{.*}} : (tensor<6x2xf32>, tensor<f32>) -> tensor<12x2xf32>
// CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"a"}, {}] %[[PAD]] out_sharding=<@m3, [{}, {}]> : tensor<12x2xf32>
// CHECK-NEXT: stablehlo.slice %[[G]] [0:11, 0:2] {{.*}} : (tensor<12x2xf32>) -> tensor<11x2xf32>
func.func @pad_shrinks_high(%arg0: tensor<6x2xf32> {sdy.sharding = #sdy.sharding<@m3, [{"a"}, {}]>}, %pv: tensor<f32>) -> tensor<11x2xf32> {
  %0 = stablehlo.slice %arg0 [0:5, 0:2] {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"a"}, {}]>]>} : (tensor<6x2xf32>) -> tensor<5x2xf32>
  %1 = stablehlo.pad %0, %pv, low = [0, 0], high = [2, 0], interior = [1, 0] {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{"a"}, {}]>]>} : (tensor<5x2xf32>, tensor<f32>) -> tensor<11x2xf32>
  %2 = sdy.all_gather [{"a"}, {}] %1 out_sharding=<@m3, [{}, {}]> : tensor<11x2xf32>
  return %2 : tensor<11x2xf32>
}

// -----

sdy.mesh @m3 = <["a"=3, "b"=2]>

// A reduce_scatter pads its operand. The all_to_all would pad dimension 0,
// which its operand already shards by "b": it becomes a gather (of "b" and
// of the moving "a"), the trim, a pad where the dimension is whole, and a
// slice by "b" and "a".
// CHECK-LABEL: func.func @collectives
// CHECK-NEXT: %[[Z0:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[P0:.*]] = stablehlo.pad %arg0, %[[Z0]], low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4x6xf32>
// CHECK-NEXT: %[[RS:.*]] = sdy.reduce_scatter [{"b"}, {"a"}] %[[P0]] out_sharding=<@m3, [{"b"}, {"a"}]> : tensor<4x6xf32>
// CHECK-NEXT: %[[G0:.*]] = sdy.all_gather [{"b"}, {"a"}] %[[RS]] out_sharding=<@m3, [{}, {}]> : tensor<4x6xf32>
// CHECK-NEXT: %[[T0:.*]] = stablehlo.slice %[[G0]] [0:4, 0:5] {{.*}} : (tensor<4x6xf32>) -> tensor<4x5xf32>
// CHECK-NEXT: %[[Z1:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[P1:.*]] = stablehlo.pad %[[T0]], %[[Z1]], low = [0, 0], high = [2, 0], interior = [0, 0] {sdy.sharding = #sdy.sharding_per_value<[<@m3, [{}, {}]>]>} : (tensor<4x5xf32>, tensor<f32>) -> tensor<6x5xf32>
// CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{"b", "a"}, {}] %[[P1]] out_sharding=<@m3, [{"b", "a"}, {}]> : tensor<6x5xf32>
// CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{"b", "a"}, {}] %[[S]] out_sharding=<@m3, [{}, {}]> : tensor<6x5xf32>
// CHECK-NEXT: %[[T2:.*]] = stablehlo.slice %[[G]] [0:4, 0:5] {{.*}} : (tensor<6x5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT: return %[[T2]]
func.func @collectives(%arg0: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %0 = sdy.reduce_scatter [{"b"}, {"a"}] %arg0 out_sharding=<@m3, [{"b"}, {"a"}]> : tensor<4x5xf32>
  %1 = sdy.all_to_all [{"a"}: 1->0] %0 out_sharding=<@m3, [{"b", "a"}, {}]> : tensor<4x5xf32>
  %2 = sdy.all_gather [{"b", "a"}, {}] %1 out_sharding=<@m3, [{}, {}]> : tensor<4x5xf32>
  return %2 : tensor<4x5xf32>
}

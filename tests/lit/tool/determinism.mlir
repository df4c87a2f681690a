// The same input gives byte-identical output from run to run (hash maps are
// seeded per process, so an output that followed their order would differ),
// and propagating a module's independent functions in another order gives
// the same functions.

// RUN: for i in 1 2 3 4; do shardkit-opt %s -sdy-propagation-pipeline | cmp - <(shardkit-opt %s -sdy-propagation-pipeline) || exit 1; done
// RUN: for f in $(dirname %s)/../../../examples/propagation.mlir $(dirname %s)/../propagation/*.mlir; do \
// RUN:   a=$(shardkit-opt $f -split-input-file -sdy-propagation-pipeline 2>&1); \
// RUN:   for i in 1 2 3; do [ "$a" = "$(shardkit-opt $f -split-input-file -sdy-propagation-pipeline 2>&1)" ] || exit 1; done; done
// RUN: T=$(mktemp -d) && shardkit-opt %s -o $T/in.mlir \
// RUN:   && python3 $(dirname %s)/function_order.py reverse $T/in.mlir > $T/reversed.mlir \
// RUN:   && shardkit-opt $T/in.mlir -sdy-propagation-pipeline | python3 $(dirname %s)/function_order.py sort - > $T/a \
// RUN:   && shardkit-opt $T/reversed.mlir -sdy-propagation-pipeline | python3 $(dirname %s)/function_order.py sort - > $T/b \
// RUN:   && cmp $T/a $T/b && ! cmp -s $T/in.mlir $T/reversed.mlir && rm -rf $T

sdy.mesh @mesh = <["data"=4, "model"=2]>
sdy.mesh @other = <["x"=2, "y"=2, "z"=2]>

func.func @mlp(%x: tensor<32x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
               %w1: tensor<128x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>},
               %w2: tensor<256x64xf32>) -> tensor<32x64xf32> {
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<32x128xf32>, tensor<128x256xf32>) -> tensor<32x256xf32>
  %a = stablehlo.tanh %h : tensor<32x256xf32>
  %y = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<32x256xf32>, tensor<256x64xf32>) -> tensor<32x64xf32>
  return %y : tensor<32x64xf32>
}

func.func @conflicts(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {"y"}]>},
                     %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@other, [{"y"}, {"x"}]>},
                     %c: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@other, [{"z", ?}, {?}]>}) -> tensor<8x8xf32> {
  %0 = stablehlo.add %a, %b : tensor<8x8xf32>
  %1 = stablehlo.multiply %0, %c : tensor<8x8xf32>
  %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = stablehlo.reshape %2 : (tensor<8x8xf32>) -> tensor<64xf32>
  %4 = stablehlo.reshape %3 : (tensor<64xf32>) -> tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}

func.func @groups_and_constraints(%a: tensor<16x4xf32>, %b: tensor<16x4xf32>) -> (tensor<16x4xf32>, tensor<16x4xf32>) {
  sdy.sharding_group %a group_id=7 : tensor<16x4xf32>
  sdy.sharding_group %b group_id=7 : tensor<16x4xf32>
  %0 = sdy.sharding_constraint %a <@mesh, [{"data", "model"}, {}]> : tensor<16x4xf32>
  %1 = stablehlo.negate %b : tensor<16x4xf32>
  %2 = stablehlo.abs %0 : tensor<16x4xf32>
  return %2, %1 : tensor<16x4xf32>, tensor<16x4xf32>
}

func.func @loop(%init: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %n: tensor<i32>) -> tensor<8x4xf32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%iter = %c, %acc = %init) : tensor<i32>, tensor<8x4xf32>
    cond {
    %1 = stablehlo.compare LT, %iter, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %2 = stablehlo.add %acc, %acc : tensor<8x4xf32>
    stablehlo.return %iter, %2 : tensor<i32>, tensor<8x4xf32>
  }
  return %0#1 : tensor<8x4xf32>
}

func.func @manual(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}) -> tensor<16x8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"data"}, {}]>] out_shardings=[<@mesh, [{"data"}, {}]>] manual_axes={"data"} (%arg1: tensor<4x8xf32>) {
    %1 = stablehlo.abs %arg1 : tensor<4x8xf32>
    sdy.return %1 : tensor<4x8xf32>
  } : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = stablehlo.exponential %0 : tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}

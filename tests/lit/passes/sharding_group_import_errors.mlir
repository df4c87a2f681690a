// RUN: shardkit-opt %s -split-input-file -sdy-sharding-group-import -verify-diagnostics

sdy.mesh @mesh = <["a"=2]>

func.func @group_crosses_manual_computation(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}]>] out_shardings=[<@mesh, [{?}]>] manual_axes={} (%arg1: tensor<8xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<8xf32>
    sdy.sharding_group %1 group_id = 5 : tensor<8xf32>
    sdy.return %1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  // expected-error @+1 {{ShardingGroupOps values cannot cross ManualComputationOp boundaries for groupId: 5}}
  sdy.sharding_group %0 group_id = 5 : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @group_mixes_shapes(%arg0: tensor<8xf32>, %arg1: tensor<4x2xf32>) {
  sdy.sharding_group %arg0 group_id = 3 : tensor<8xf32>
  // expected-error @+1 {{ShardingGroupOps values must have the same shape for groupId: 3}}
  sdy.sharding_group %arg1 group_id = 3 : tensor<4x2xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["a"=2]>

// Values of one manual computation body may share a group, also through a
// while inside it.
func.func @same_manual_computation(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{?}]>] out_shardings=[<@mesh, [{?}]>] manual_axes={} (%arg1: tensor<8xf32>) {
    %1 = stablehlo.negate %arg1 : tensor<8xf32>
    sdy.sharding_group %1 group_id = 5 : tensor<8xf32>
    %2 = stablehlo.abs %1 : tensor<8xf32>
    sdy.sharding_group %2 group_id = 5 : tensor<8xf32>
    sdy.return %2 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

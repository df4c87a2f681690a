module {
  "sdy.mesh"() <{mesh = #sdy.mesh<["a"=4, "b"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}], function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<8x8xf32>):
    %0 = "sdy.all_gather"(%arg0) <{gathering_axes = #sdy<list_of_axis_ref_lists[{"a"}, {}]>, out_sharding = #sdy.sharding<@mesh, [{}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = "sdy.manual_computation"(%0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>, manual_axes = #sdy<manual_axes{"b"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"b"}, {}]>]>}> ({
    ^bb0(%arg1: tensor<4x8xf32>):
      %3 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %4 = "stablehlo.reduce"(%arg1, %3) <{dimensions = array<i64: 1>}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %6 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%6) : (tensor<f32>) -> ()
      }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
      %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x8xf32>
      "sdy.return"(%5) : (tensor<4x8xf32>) -> ()
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %2 = "sdy.propagation_barrier"(%1) <{allowed_direction = #sdy<propagation_direction FORWARD>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%2) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}

module @named attributes {mhlo.num_partitions = 8 : i32, sdy.foo = [1, 2]} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  sdy.mesh @empty = <[]>
  sdy.mesh @maximal = <[], device_ids=[3]>
  sdy.mesh @ids = <["a"=2], device_ids=[1, 0]>
  func.func private @decl(tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, i32) -> (tensor<4xf32> {x.y})
  func.func @f(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
    %1 = stablehlo.negate %0 : tensor<8x8xf32>
    %2 = sdy.data_flow_edge %1 sharding=<@mesh, [{"x", ?}, {?}]> : tensor<8x8xf32>
    %3 = sdy.propagation_barrier %2 allowed_direction=FORWARD : tensor<8x8xf32>
    sdy.sharding_group %3 group_id=3 : tensor<8x8xf32>
    %4 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
    %5 = sdy.all_slice [{}, {"x"}] %4 out_sharding=<@mesh, [{}, {"y", "x"}]> : tensor<8x8xf32>
    %6 = sdy.all_reduce {"x"} %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
    %7 = sdy.reduce_scatter [{"x"}, {}] %6 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %8 = sdy.all_to_all [{"x"}: 0->1] %7 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>
    %9 = sdy.collective_permute %8 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>
    %10 = sdy.all_reduce max {"y"} %9 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>
    %11 = sdy.constant dense<2.000000e+00> : tensor<8x8xf32>
    %12 = sdy.manual_computation(%11, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg2: tensor<4x8xf32>, %arg3: tensor<8x2xf32>) {
      sdy.return %arg2 : tensor<4x8xf32>
    } : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %13:2 = sdy.named_computation<"foo">(%12, %10) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] (%arg2: tensor<8x8xf32>, %arg3: tensor<8x8xf32>) {
      %16 = stablehlo.add %arg2, %arg3 : tensor<8x8xf32>
      sdy.return %16, %arg3 : tensor<8x8xf32>, tensor<8x8xf32>
    } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
    %14 = stablehlo.multiply %13#0, %13#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    %15 = call @g(%14) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %14, %15 : tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func @g(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    return %arg0 : tensor<8x8xf32>
  }
}

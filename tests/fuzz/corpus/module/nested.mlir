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

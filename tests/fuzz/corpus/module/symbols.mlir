module @"my module" attributes {s = @"a b", t = @"x y"::@z} {
  sdy.mesh @"mesh 1" = <["a"=2]>
  func.func @"f g"(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@"mesh 1", [{"a"}]>}) -> tensor<2xf32> {
    %0 = call @"f g"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    %1 = "t.r"() ({
    ^bb0:
    }, {
    }) : () -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

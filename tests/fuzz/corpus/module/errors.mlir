func.func @f(%arg0: tensor<i32>) -> tensor<i32> {
  %0:2 = "t.x"(%arg0) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
  %1 = stablehlo.abs %0#2 : tensor<i32>
  return %1 : tensor<f32>
}

func.func @w(%arg0: tensor<4x4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
  %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<4x4xf32>, tensor<i32>
   cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %2 = stablehlo.compare  LT, %iterArg_0, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  } do {
    stablehlo.return %iterArg, %iterArg_0 : tensor<4x4xf32>, tensor<i32>
  }
  %1 = stablehlo.reduce(%0#0 init: %cst) across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)  {
    %2 = stablehlo.maximum %arg2, %arg3 : tensor<f32>
    %3 = stablehlo.negate %2 : tensor<f32>
    stablehlo.return %3 : tensor<f32>
  }
  return %1 : tensor<4xf32>
}

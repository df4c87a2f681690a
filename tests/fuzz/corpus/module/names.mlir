// Input names are not kept: results print as %0, %1, ... (a group of results
// as %N:count, used as %N#i), block arguments as %argN, constants as %c/%cst,
// while loop arguments as %iterArg, with _N suffixes against conflicts.
// Nested regions continue the numbering where their parent region ended;
// sibling regions restart from the same point.
func.func @names(%x: tensor<i32>, %y: tensor<i32>) -> tensor<i32> {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  %half = stablehlo.constant dense<0.5> : tensor<f32>
  %pair:2 = "test.pair"(%x) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
  %a, %b = "test.pair"(%y) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
  %loop:2 = stablehlo.while(%i = %pair#1, %j = %b) : tensor<i32>, tensor<i32>
   cond {
    %lt = stablehlo.compare LT, %i, %j : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %inner = stablehlo.while(%k = %i) : tensor<i32>
     cond {
      %t = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      stablehlo.return %k : tensor<i32>
    }
    %sum = stablehlo.add %inner, %one : tensor<i32>
    stablehlo.return %sum, %j : tensor<i32>, tensor<i32>
  }
  %regions = "test.regions"(%a) ({
    %r1 = stablehlo.abs %a : tensor<i32>
    "test.yield"(%r1) : (tensor<i32>) -> ()
  }, {
  ^entry(%blockarg: tensor<i32>):
    %r2 = stablehlo.negate %blockarg : tensor<i32>
    "test.yield"(%r2) : (tensor<i32>) -> ()
  ^second(%other: tensor<i32>):
    "test.yield"(%other) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  %last = stablehlo.add %loop#0, %regions : tensor<i32>
  return %last : tensor<i32>
}

func.func @restarts_per_function(%arg7: tensor<i32>) -> tensor<i32> {
  %z = stablehlo.abs %arg7 : tensor<i32>
  return %z : tensor<i32>
}

// RUN: shardkit-opt %s | FileCheck %s
// RUN: shardkit-opt %s | shardkit-opt - | FileCheck %s
// RUN: shardkit-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: module {
// CHECK-NEXT:   func.func @names(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
// CHECK-NEXT:     %c = stablehlo.constant dense<1> : tensor<i32>
// CHECK-NEXT:     %c_0 = stablehlo.constant dense<2> : tensor<i32>
// CHECK-NEXT:     %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:     %0:2 = "test.pair"(%arg0) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
// CHECK-NEXT:     %1:2 = "test.pair"(%arg1) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
// CHECK-NEXT:     %2:2 = stablehlo.while(%iterArg = %0#1, %iterArg_1 = %1#1) : tensor<i32>, tensor<i32>
// CHECK-NEXT:      cond {
// CHECK-NEXT:       %5 = stablehlo.compare  LT, %iterArg, %iterArg_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
// CHECK-NEXT:       stablehlo.return %5 : tensor<i1>
// CHECK-NEXT:     } do {
// CHECK-NEXT:       %5 = stablehlo.while(%iterArg_2 = %iterArg) : tensor<i32>
// CHECK-NEXT:        cond {
// CHECK-NEXT:         %c_3 = stablehlo.constant dense<true> : tensor<i1>
// CHECK-NEXT:         stablehlo.return %c_3 : tensor<i1>
// CHECK-NEXT:       } do {
// CHECK-NEXT:         stablehlo.return %iterArg_2 : tensor<i32>
// CHECK-NEXT:       }
// CHECK-NEXT:       %6 = stablehlo.add %5, %c : tensor<i32>
// CHECK-NEXT:       stablehlo.return %6, %iterArg_1 : tensor<i32>, tensor<i32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %3 = "test.regions"(%1#0) ({
// CHECK-NEXT:       %5 = stablehlo.abs %1#0 : tensor<i32>
// CHECK-NEXT:       "test.yield"(%5) : (tensor<i32>) -> ()
// CHECK-NEXT:     }, {
// CHECK-NEXT:     ^bb0(%arg2: tensor<i32>):
// CHECK-NEXT:       %5 = stablehlo.negate %arg2 : tensor<i32>
// CHECK-NEXT:       "test.yield"(%5) : (tensor<i32>) -> ()
// CHECK-NEXT:     ^bb1(%arg3: tensor<i32>):
// CHECK-NEXT:       "test.yield"(%arg3) : (tensor<i32>) -> ()
// CHECK-NEXT:     }) : (tensor<i32>) -> tensor<i32>
// CHECK-NEXT:     %4 = stablehlo.add %2#0, %3 : tensor<i32>
// CHECK-NEXT:     return %4 : tensor<i32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.func @restarts_per_function(%arg0: tensor<i32>) -> tensor<i32> {
// CHECK-NEXT:     %0 = stablehlo.abs %arg0 : tensor<i32>
// CHECK-NEXT:     return %0 : tensor<i32>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// GENERIC-LABEL: module {
// GENERIC-NEXT:   "func.func"() <{function_type = (tensor<i32>, tensor<i32>) -> tensor<i32>, sym_name = "names"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: tensor<i32>, %arg1: tensor<i32>):
// GENERIC-NEXT:     %0 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
// GENERIC-NEXT:     %1 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
// GENERIC-NEXT:     %2 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
// GENERIC-NEXT:     %3:2 = "test.pair"(%arg0) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
// GENERIC-NEXT:     %4:2 = "test.pair"(%arg1) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
// GENERIC-NEXT:     %5:2 = "stablehlo.while"(%3#1, %4#1) ({
// GENERIC-NEXT:     ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
// GENERIC-NEXT:       %8 = "stablehlo.compare"(%arg2, %arg3) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
// GENERIC-NEXT:       "stablehlo.return"(%8) : (tensor<i1>) -> ()
// GENERIC-NEXT:     }, {
// GENERIC-NEXT:     ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
// GENERIC-NEXT:       %8 = "stablehlo.while"(%arg2) ({
// GENERIC-NEXT:       ^bb0(%arg4: tensor<i32>):
// GENERIC-NEXT:         %10 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
// GENERIC-NEXT:         "stablehlo.return"(%10) : (tensor<i1>) -> ()
// GENERIC-NEXT:       }, {
// GENERIC-NEXT:       ^bb0(%arg4: tensor<i32>):
// GENERIC-NEXT:         "stablehlo.return"(%arg4) : (tensor<i32>) -> ()
// GENERIC-NEXT:       }) : (tensor<i32>) -> tensor<i32>
// GENERIC-NEXT:       %9 = "stablehlo.add"(%8, %0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// GENERIC-NEXT:       "stablehlo.return"(%9, %arg3) : (tensor<i32>, tensor<i32>) -> ()
// GENERIC-NEXT:     }) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
// GENERIC-NEXT:     %6 = "test.regions"(%4#0) ({
// GENERIC-NEXT:       %8 = "stablehlo.abs"(%4#0) : (tensor<i32>) -> tensor<i32>
// GENERIC-NEXT:       "test.yield"(%8) : (tensor<i32>) -> ()
// GENERIC-NEXT:     }, {
// GENERIC-NEXT:     ^bb0(%arg2: tensor<i32>):
// GENERIC-NEXT:       %8 = "stablehlo.negate"(%arg2) : (tensor<i32>) -> tensor<i32>
// GENERIC-NEXT:       "test.yield"(%8) : (tensor<i32>) -> ()
// GENERIC-NEXT:     ^bb1(%arg3: tensor<i32>):
// GENERIC-NEXT:       "test.yield"(%arg3) : (tensor<i32>) -> ()
// GENERIC-NEXT:     }) : (tensor<i32>) -> tensor<i32>
// GENERIC-NEXT:     %7 = "stablehlo.add"(%5#0, %6) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// GENERIC-NEXT:     "func.return"(%7) : (tensor<i32>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT:   "func.func"() <{function_type = (tensor<i32>) -> tensor<i32>, sym_name = "restarts_per_function"}> ({
// GENERIC-NEXT:   ^bb0(%arg0: tensor<i32>):
// GENERIC-NEXT:     %0 = "stablehlo.abs"(%arg0) : (tensor<i32>) -> tensor<i32>
// GENERIC-NEXT:     "func.return"(%0) : (tensor<i32>) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }

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

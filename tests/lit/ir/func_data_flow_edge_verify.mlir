// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["x"=2]>

// An edge on an entry-block argument or a call result, with a sharding.
func.func @callee(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @caller(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = func.call @callee(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.func_data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2]>

// Its sharding is verified like any op's.
func.func @bad_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{unknown axis name}}
  %0 = sdy.func_data_flow_edge %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"z"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @token(%arg0: !stablehlo.token) -> !stablehlo.token {
  // expected-error @+1 {{expected sdy.func_data_flow_edge to have a static-shaped result}}
  %0 = sdy.func_data_flow_edge %arg0 : !stablehlo.token
  return %0 : !stablehlo.token
}

// -----

func.func @used_twice(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected operand of sdy.func_data_flow_edge to have a single user}}
  %0 = sdy.func_data_flow_edge %arg0 : tensor<8xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

func.func @not_a_call(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  // expected-error @+1 {{expected operand of sdy.func_data_flow_edge to be a result of call op.}}
  %1 = sdy.func_data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

func.func @while_argument(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.while(%iterArg = %arg0) : tensor<8xf32>
    cond {
    %1 = stablehlo.custom_call @done(%iterArg) : (tensor<8xf32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    // expected-error @+1 {{expected operand of sdy.func_data_flow_edge to be a block argument of a func op.}}
    %1 = sdy.func_data_flow_edge %iterArg : tensor<8xf32>
    stablehlo.return %1 : tensor<8xf32>
  }
  return %0 : tensor<8xf32>
}

// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// Structural errors only the generic form can spell: missing attributes,
// operands, results or regions of the sdy ops, and function signatures that
// do not match their bodies.

"sdy.mesh"() <{mesh = #sdy.mesh<["a"=2]>, sym_name = "mesh"}> : () -> ()
func.func @valid(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "sdy.reshard"(%arg0) <{sharding = #sdy.sharding<@mesh, [{"a"}]>}> : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "sdy.all_gather"(%0) <{gathering_axes = #sdy<list_of_axis_ref_lists[{"a"}]>, out_sharding = #sdy.sharding<@mesh, [{}]>}> : (tensor<8xf32>) -> tensor<8xf32>
  "func.return"(%1) : (tensor<8xf32>) -> ()
}

// -----

// expected-error @+1 {{'sdy.mesh' op requires 'sym_name' and 'mesh' attributes}}
"sdy.mesh"() <{sym_name = "mesh"}> : () -> ()

// -----

func.func @constraint_without_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op requires one operand, one result and a 'sharding'}}
  %0 = "sdy.sharding_constraint"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @edge_without_operand() -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.data_flow_edge' op requires one operand and one result}}
  %0 = "sdy.data_flow_edge"() : () -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @manual_without_axes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.manual_computation' op requires in_shardings, out_shardings, manual_axes and one body block}}
  %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[]>, out_shardings = #sdy.sharding_per_value<[]>}> ({
  ^bb0(%arg1: tensor<8xf32>):
    "sdy.return"(%arg1) : (tensor<8xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @named_without_body(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.named_computation' op requires one body block}}
  %0 = "sdy.named_computation"(%arg0) <{name = "n"}> : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @collective_without_out_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op requires one operand, one result and an 'out_sharding'}}
  %0 = "sdy.collective_permute"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @gather_without_axes(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op requires 'gathering_axes'}}
  %0 = "sdy.all_gather"(%arg0) <{out_sharding = #sdy.sharding<@mesh, [{}]>}> : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @all_to_all_without_params(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op requires 'params'}}
  %0 = "sdy.all_to_all"(%arg0) <{out_sharding = #sdy.sharding<@mesh, [{"a"}]>}> : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=2]>
func.func @all_reduce_without_axes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op requires 'reduction_axes'}}
  %0 = "sdy.all_reduce"(%arg0) <{out_sharding = #sdy.sharding<@mesh, [{}]>}> : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op entry block arguments don't match the function type}}
"func.func"() <{function_type = (tensor<8xf32>) -> (), sym_name = "arity"}> ({
^bb0(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>):
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op type of entry block argument #0('tensor<4xf32>') must match the type of the corresponding argument in function signature('tensor<8xf32>')}}
"func.func"() <{function_type = (tensor<8xf32>) -> (), sym_name = "arg_type"}> ({
^bb0(%arg0: tensor<4xf32>):
  "func.return"() : () -> ()
}) : () -> ()

// -----

sdy.mesh @mesh = <["a"=2]>
// expected-error @+1 {{'func.func' op result 0 - should have a sharding attribute of type TensorShardingAttr}}
func.func @result_sharding_kind(%arg0: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = [1]}) {
  return %arg0 : tensor<8xf32>
}

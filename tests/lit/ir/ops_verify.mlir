// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// sdy.sharding_constraint, sdy.reshard, sdy.data_flow_edge,
// sdy.propagation_barrier and sdy.sharding_group.

sdy.mesh @mesh = <["a"=4, "b"=2]>

func.func @valid(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}, {?}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"b"}], unreduced={"a"}> : tensor<8x8xf32>
  %2 = stablehlo.abs %1 : tensor<8x8xf32>
  %3 = sdy.data_flow_edge %2 sharding=<@mesh, [{"a"}, {}]> : tensor<8x8xf32>
  %4 = sdy.propagation_barrier %3 allowed_direction=BACKWARD : tensor<8x8xf32>
  sdy.sharding_group %4 group_id=0 : tensor<8x8xf32>
  return %4 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @constraint_rank(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op sharding doesn't match tensor rank: 1 != 2}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"a"}]> : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @reshard_unknown_axis(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.reshard' op unknown axis name: "c"}}
  %0 = sdy.reshard %arg0 <@mesh, [{"c"}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @reshard_unknown_mesh(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.reshard' op unknown mesh: @other}}
  %0 = sdy.reshard %arg0 <@other, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @unreduced_kind_changes(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}], unreduced={"a"}> : tensor<8xf32>
  // expected-error @+1 {{'sdy.reshard' op cannot change the reduction operator of kept unreduced axes from sum to max.}}
  %1 = sdy.reshard %0 <@mesh, [{}], unreduced=max{"a"}> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @unreduced_introduced_not_sum(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.sharding_constraint' op cannot introduce 'min' unreduced axes. Expected 'sum'.}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}], unreduced=min{"a"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @unreduced_from_unsharded(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // An operand without a sharding has no unreduced axes to compare with.
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}], unreduced=min{"a"}> : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @constraint_type_differs(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{type tensor<4xf32> differs from the operand's type tensor<8xf32>}}
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}]> : tensor<4xf32>
  return %arg0 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @edge_dynamic(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %0 = stablehlo.abs %arg0 : tensor<?xf32>
  // expected-error @+1 {{'sdy.data_flow_edge' op expected sdy.data_flow_edge to have a static-shaped result. type: 'tensor<?xf32>'}}
  %1 = sdy.data_flow_edge %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @edge_two_users(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  // expected-error @+1 {{'sdy.data_flow_edge' op expected input of sdy.data_flow_edge to have a single user}}
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  %2 = stablehlo.add %0, %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @edge_of_sdy_op(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
  // expected-error @+1 {{'sdy.data_flow_edge' op expected input of sdy.data_flow_edge to not be defined by an SdyDialect op (other than an sdy.named_computation).}}
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @edge_bad_sharding(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  // expected-error @+1 {{'sdy.data_flow_edge' op duplicate axis ref: "a"}}
  %1 = sdy.data_flow_edge %0 sharding=<@mesh, [{"a", "a"}]> : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["a"=4, "b"=2]>
func.func @edge_of_named_computation(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // The result of a named computation may feed an edge.
  %0 = sdy.named_computation<"f">(%arg0) (%arg1: tensor<8xf32>) {
    sdy.return %arg1 : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %1 = sdy.data_flow_edge %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

func.func @barrier_both(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'sdy.propagation_barrier' op cannot specify `BOTH` as the direction. Not blocking propagation direction makes the op redundant.}}
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BOTH : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @barrier_none_and_forward(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : tensor<8xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=FORWARD : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

func.func @barrier_unknown_direction(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected NONE, FORWARD, BACKWARD or BOTH, got 'SIDEWAYS'}}
  %0 = sdy.propagation_barrier %arg0 allowed_direction=SIDEWAYS : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @group_type(%arg0: tensor<8xf32>) {
  // expected-error @+1 {{operand #0 has type tensor<8xf32> but the op's signature says tensor<4xf32>}}
  sdy.sharding_group %arg0 group_id=1 : tensor<4xf32>
  return
}

// Malformed mpmd programs; each must fail with a located error.
func.func @main(%arg0: !mpmd.mesh_tensor<"m3", tensor<4xf32>>) -> tensor<4xf32> attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.unassign %arg0 : (!mpmd.mesh_tensor<"m3", tensor<4xf32>>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mpmd.reduce<xor> %arg0 : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.assign %arg0 : (tensor<4xf32>) -> !mpmd.mesh_tensor<"m1", tensor<8xf32>>
  %1 = mpmd.unassign %0 : (!mpmd.mesh_tensor<"m1", tensor<8xf32>>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  mpmd.return %arg0 : tensor<4xf32>
}

// -----

func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>, memory_kind=>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// -----

func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>> attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m2", origin=[]> (%arg0) (%a: tensor<4xf32>) {
    mpmd.return %a : tensor<4xf32>
  } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
  return %0 : !mpmd.mesh_tensor<"m1", tensor<4xf32>>
}

// -----

func.func @main(%arg0: !mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>> attributes {
    topology = #mpmd.topology<<"m1": <["x"=2]>>>} {
  %0 = mpmd.fragment<mesh="m1", origin=[]> (%arg0) (%a: tensor<4xf32>) {
    %u = mpmd.unassign %a : (tensor<4xf32>) -> tensor<4xf32>
    mpmd.return %u : tensor<4xf32>
  } : (!mpmd.mesh_tensor<"m1", tensor<4xf32>>) -> !mpmd.mesh_tensor<"m1", tensor<4xf32>>
  return %0 : !mpmd.mesh_tensor<"m1", tensor<4xf32>>
}

// -----

func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mpmd.reduce<none> %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = mpmd.named_computation<"outer"> (%0) (%a: tensor<4xf32>) {
    %c = mpmd.call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
    mpmd.return %c : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

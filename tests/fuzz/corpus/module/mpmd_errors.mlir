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

// Sizes derived from the input are checked against a budget before they are
// allocated: a small input that asks for gigabytes gets a located error
// naming the budget, quickly (docs/reliability.md, "Budgets").

// A collective_permute over 2^28 devices: its cost would compare every
// device's shard. The same sharding of the same devices moves nothing,
// without comparing.
// RUN: not shardkit-opt %s -split-input-file -o /dev/null --comm-report=/dev/null 2>&1 | FileCheck %s --check-prefix=PERMUTE
// PERMUTE: budgets.mlir:[[# @LINE + 4]]:3: error: 'sdy.collective_permute' op the cost of a collective_permute over 268435456 devices exceeds the budget of 1048576 devices compared one by one
sdy.mesh @big = <["a"=16384, "b"=16384]>
func.func @permute(%arg0: tensor<16384x16384xf32> {sdy.sharding = #sdy.sharding<@big, [{"a"}, {"b"}]>})
    -> tensor<16384x16384xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@big, [{"b"}, {"a"}]> : tensor<16384x16384xf32>
  return %0 : tensor<16384x16384xf32>
}

// -----

// A cost past int64 is an error, not a wrapped number.
// PERMUTE: budgets.mlir:[[# @LINE + 4]]:3: error: 'sdy.all_gather' op the local bytes of the collective overflows int64
sdy.mesh @mesh = <["x"=2]>
func.func @overflow(%arg0: tensor<4611686018427387904x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> tensor<4611686018427387904x4xf32> {
  %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<4611686018427387904x4xf32>
  return %0 : tensor<4611686018427387904x4xf32>
}

// -----

// A GSPMD iota tile assignment of 2^28 devices is checked before its
// devices are listed.
// RUN: not shardkit-opt %s -split-input-file -sdy-import-gspmd-shardings -o /dev/null 2>&1 | FileCheck %s --check-prefix=GSPMD
// GSPMD: budgets.mlir:[[# @LINE + 2]]:1: error: argument 0: GSPMD: the sharding's 268435456 devices exceed the budget of 1048576 devices listed one by one
sdy.mesh @big = <["a"=16384, "b"=16384]>
func.func @iota(%arg0: tensor<16384x16384xf32> {mhlo.sharding = "{devices=[16384,16384]<=[268435456]}"}) -> tensor<16384x16384xf32> {
  return %arg0 : tensor<16384x16384xf32>
}

// -----

// A tile count that is not the mesh's is found without listing the tiles.
// GSPMD: budgets.mlir:[[# @LINE + 2]]:1: error: argument 0: GSPMD: the sharding has 1099511627776 devices, the mesh 4
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @mismatch(%arg0: tensor<1048576x1048576xf32> {mhlo.sharding = "{devices=[1048576,1048576]<=[1099511627776]}"}) -> tensor<1048576x1048576xf32> {
  return %arg0 : tensor<1048576x1048576xf32>
}

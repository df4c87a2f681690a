// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// Valid meshes: named axes, an empty mesh, a maximal mesh and explicit
// device ids that are not the iota order.
sdy.mesh @mesh = <["data"=4, "model"=2]>
sdy.mesh @empty = <[]>
sdy.mesh @maximal = <[], device_ids=[7]>
sdy.mesh @permuted = <["a"=2, "b"=2], device_ids=[3, 1, 2, 0]>

// -----

// expected-error @+2 {{custom op 'sdy.mesh' axis size must be at least 1, got: 0}}
// expected-error @+1 {{custom op 'sdy.mesh' failed to parse Sdy_Mesh parameter 'axes' which is to be a `::llvm::ArrayRef<MeshAxisAttr>`}}
sdy.mesh @zero = <["a"=0]>

// -----

// expected-error @+1 {{custom op 'sdy.mesh' duplicate axis name: "a"}}
sdy.mesh @dup = <["a"=2, "a"=4]>

// -----

// expected-error @+1 {{custom op 'sdy.mesh' device id must be non-negative, got: -1}}
sdy.mesh @negative_id = <["a"=2], device_ids=[0, -1]>

// -----

// expected-error @+1 {{custom op 'sdy.mesh' total product of axis sizes must match total number of device ids, got: 4 != 3}}
sdy.mesh @too_few_ids = <["a"=2, "b"=2], device_ids=[0, 1, 2]>

// -----

// expected-error @+1 {{custom op 'sdy.mesh' sorted device ids must be iota(product(axes)), got: 0, 1, 1, 3}}
sdy.mesh @not_permutation = <["a"=4], device_ids=[0, 1, 1, 3]>

// -----

// expected-error @+1 {{custom op 'sdy.mesh' axes is empty and device_ids has more than one element}}
sdy.mesh @two_maximal_ids = <[], device_ids=[0, 1]>

// -----

// expected-error @+1 {{custom op 'sdy.mesh' total product of axis sizes overflows int64}}
sdy.mesh @overflow = <["a"=4294967296, "b"=4294967296]>

// -----

// expected-note @+1 {{see existing symbol definition here}}
sdy.mesh @twice = <["a"=2]>
// expected-error @+1 {{redefinition of symbol named 'twice'}}
sdy.mesh @twice = <["b"=2]>

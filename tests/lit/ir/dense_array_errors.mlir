// RUN: shardkit-opt %s -split-input-file -verify-diagnostics

// A dense array element must fit its element type.

// expected-error @+1 {{integer constant out of range for 'i8'}}
module attributes {a = array<i8: 256>} {}

// -----

// expected-error @+1 {{integer constant out of range for 'i8'}}
module attributes {a = array<i8: -129>} {}

// -----

// expected-error @+1 {{integer constant out of range for 'si8'}}
module attributes {a = array<si8: 128>} {}

// -----

// expected-error @+1 {{integer constant out of range for 'ui8'}}
module attributes {a = array<ui8: -1>} {}

// -----

// expected-error @+1 {{integer constant out of range for 'i1'}}
module attributes {a = array<i1: 46>} {}

// -----

// expected-error @+1 {{element type bitwidth must be a multiple of 8}}
module attributes {a = array<i3: 1>} {}

// -----

// expected-error @+1 {{dense arrays of 'i128' (wider than 64 bits) are not supported}}
module attributes {a = array<i128: 1>} {}

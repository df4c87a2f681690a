// A location alias that is never defined is an error at the op.
// RUN: not shardkit-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: debug_locations_errors.mlir:[[@LINE+2]]:3: error: undefined location alias '#nowhere'
func.func @f() {
  return loc(#nowhere)
}

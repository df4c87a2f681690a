// A mapped input file cut short while it is read is an input error with
// exit code 1 and that one message, never a crash (SIGBUS) nor a parse
// error about the NULs a cut inside a page leaves. The script cuts a 15 MB
// module at a page boundary and mid-page, five runs, and checks every run
// (tests/lit/tool/truncate_while_reading.py).
// RUN: python3 $(dirname %s)/truncate_while_reading.py shardkit-opt | FileCheck %s
// CHECK: runs cut while reading

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

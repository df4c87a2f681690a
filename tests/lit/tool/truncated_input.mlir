// A mapped input file cut short while it is read is an input error with
// exit code 1, never a crash (SIGBUS). The script cuts a 15 MB module as
// soon as the tool has mapped it, five times, and checks every run
// (tests/lit/tool/truncate_while_reading.py).
// RUN: python3 $(dirname %s)/truncate_while_reading.py shardkit-opt | FileCheck %s
// CHECK: runs cut while reading

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// The input is read up to --max-input-size (default 1G): an endless stream
// or a file above the limit is an error, before it fills memory.
// RUN: not shardkit-opt --max-input-size=1M < /dev/zero 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: (head -c 2000000 /dev/zero || true) | not shardkit-opt - --max-input-size=1M 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: T=$(mktemp -d) && head -c 1048577 /dev/zero > $T/big && not shardkit-opt $T/big --max-input-size=1M 2>&1 | FileCheck %s --check-prefix=BIGFILE && rm -rf $T
// BIG: shardkit-opt: error: cannot read '-': the input is larger than 1048576 bytes (--max-input-size raises the limit)
// BIGFILE: shardkit-opt: error: cannot read '{{.*}}big': the input is larger than 1048576 bytes (--max-input-size raises the limit)

// The limit is an option checked before any input is read.
// RUN: not shardkit-opt --max-input-size=0 < /dev/zero 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not shardkit-opt --max-input-size=12Q < /dev/zero 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not shardkit-opt --max-input-size=99999999999999999999 < /dev/zero 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: shardkit-opt: error: --max-input-size takes a byte count (N, NK, NM or NG, at most 2^50 bytes), got

// An input at the limit reads.
// RUN: shardkit-opt %s --max-input-size=$(wc -c < %s) | FileCheck %s
// CHECK: func.func @main
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

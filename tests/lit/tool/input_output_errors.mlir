// Input and output problems are file-level errors with exit 1, never a crash,
// an empty module or a damaged output file.

// A write error (no space left) is an error.
// RUN: not shardkit-opt %s -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: shardkit-opt: error: cannot write '/dev/full': No space left on device

// A write that fails half-way (here: past the file size limit, as on a full
// disk) leaves the target as it was and no temporary file.
// RUN: T=$(mktemp -d) && python3 -c "print(''.join('func.func @f%d() {\n  return\n}\n' % i for i in range(4000)))" > $T/big.mlir \
// RUN:   && echo previous > $T/out.mlir && cp $T/out.mlir $T/copy \
// RUN:   && (ulimit -f 16; ! shardkit-opt $T/big.mlir -o $T/out.mlir 2> $T/err) \
// RUN:   && grep -q "error: cannot write '.*out.mlir': File too large" $T/err \
// RUN:   && cmp $T/out.mlir $T/copy && test "$(ls $T | wc -l)" = 4 && rm -rf $T

// A closed stdout is an error too.
// RUN: not shardkit-opt %s 2>&1 >&- | FileCheck %s --check-prefix=CLOSED
// CLOSED: shardkit-opt: error: cannot write to stdout: Bad file descriptor

// A directory is not a module.
// RUN: not shardkit-opt $(dirname %s) 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: shardkit-opt: error: cannot read '{{.*}}': is a directory

// A closed stdin is not an empty module.
// RUN: not shardkit-opt - <&- 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: shardkit-opt: error: cannot read '-': Bad file descriptor

// A regular file is mapped unless its size is a whole number of pages (no
// zero fill would then end it); either way, and from stdin, a text that
// stops in the middle of an op is an error at its end, and a whole module
// reads the same. The NUL written after a mapped text stays in memory: the
// file is unchanged.
// RUN: T=$(mktemp -d) && printf 'func.func @f() {\n  return\n}\nfunc.func @g(' > $T/cut.mlir \
// RUN:   && python3 -c "import sys; t = open(sys.argv[1]).read(); sys.stdout.write(' ' * (4096 - len(t)) + t)" $T/cut.mlir > $T/cut4k.mlir \
// RUN:   && test "$(wc -c < $T/cut4k.mlir)" = 4096 \
// RUN:   && (! shardkit-opt $T/cut.mlir; ! shardkit-opt $T/cut4k.mlir; ! shardkit-opt - < $T/cut.mlir) 2>&1 | FileCheck %s --check-prefix=CUT \
// RUN:   && python3 -c "import sys; t = 'func.func @f() {\n  return\n}\n'; sys.stdout.write(t + ' ' * (8192 - len(t)))" > $T/paged.mlir \
// RUN:   && test "$(wc -c < $T/paged.mlir)" = 8192 && shardkit-opt $T/paged.mlir > $T/a \
// RUN:   && shardkit-opt - < $T/paged.mlir > $T/b && cmp $T/a $T/b && grep -q "func.func @f()" $T/a \
// RUN:   && head -c 8000 $T/paged.mlir > $T/mapped.mlir && cp $T/mapped.mlir $T/copy \
// RUN:   && shardkit-opt $T/mapped.mlir > $T/c && cmp $T/a $T/c && cmp $T/mapped.mlir $T/copy && rm -rf $T
// CUT: cut.mlir:4:14: error: expected type, got end of input
// CUT-NEXT: cut4k.mlir:4:14: error: expected type, got end of input
// CUT-NEXT: <stdin>:4:14: error: expected type, got end of input

// Output goes to the file in full on success, identical to stdout.
// RUN: T=$(mktemp -d) && shardkit-opt %s -o $T/out.mlir && shardkit-opt %s > $T/expected && cmp $T/out.mlir $T/expected && test "$(ls $T | wc -l)" = 2 && rm -rf $T

// A failing run leaves its output untouched, even when it is the input, and
// leaves no temporary file behind.
// RUN: T=$(mktemp -d) && printf 'func.func @f(%%a: tensor<2xf32>) {\n  return %%b : tensor<2xf32>\n}\n' > $T/bad.mlir && cp $T/bad.mlir $T/copy && not shardkit-opt $T/bad.mlir -o $T/bad.mlir 2>/dev/null && cmp $T/bad.mlir $T/copy && test "$(ls $T | wc -l)" = 2 && rm -rf $T

// A -split-input-file run whose later chunk fails writes no partial file.
// RUN: T=$(mktemp -d) && printf 'func.func @f() {\n  return\n}\n// -----\nfunc.func @g() {\n  return %%x : tensor<f32>\n}\n' > $T/in.mlir && not shardkit-opt $T/in.mlir -split-input-file -o $T/out.mlir 2>/dev/null && test "$(ls $T)" = in.mlir && rm -rf $T

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

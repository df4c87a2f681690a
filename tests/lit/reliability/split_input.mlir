// -split-input-file is linear in the input: chunks are views that keep the
// line they start on, not copies padded with the lines before them (30,000
// chunks of a 600 KB input took 2 GB and half a minute). Diagnostics and
// -verify-diagnostics keep the file's line numbers.
// RUN: python3 -c "print('\n// -----\n'.join('func.func @f%d() {\n  return\n}' % i for i in range(30000)))" \
// RUN:   | timeout 60 shardkit-opt - -split-input-file -o /dev/null
// RUN: python3 -c "print('func.func @f() {\n  return\n}\n// -----\n' * 20000 + 'func.func @g() {\n  return %x : tensor<f32>\n}')" \
// RUN:   | not shardkit-opt - -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINE
// LINE: <stdin>:80002:10: error: use of undeclared SSA value '%x'
// RUN: shardkit-opt %s -split-input-file -verify-diagnostics -o /dev/null
func.func @f() {
  return
}

// -----

func.func @g() {
  // expected-error @+1 {{use of undeclared SSA value}}
  return %y : tensor<f32>
}

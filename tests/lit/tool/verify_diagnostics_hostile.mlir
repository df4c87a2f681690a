// -verify-diagnostics reads any annotation in linear time and checks every
// severity; hostile annotations are mismatches, never a crash.

// A 300,000-character annotation (this once overflowed the stack).
// RUN: python3 -c "print('// expected-error {{' + 'a' * 300000 + '}}')" \
// RUN:   | not shardkit-opt - -verify-diagnostics 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=LONG
// LONG: <stdin>:1:4: error: expected error "aaaa{{a*}}" was not produced

// A 300,000-character message that is expected.
// RUN: python3 -c "n = 'b' * 300000; print('// expected-error@+1 {{' + n + '}}'); print('\"x.op\"() {sdy.sharding = #sdy.sharding_per_value<[<@' + n + ', []>]>} : () -> tensor<f32>')" \
// RUN:   | shardkit-opt - -verify-diagnostics

// Offsets past either end of the file (and past int64), and @above on the
// first line, match nothing.
// RUN: printf '// expected-error@above {{w}} expected-error@+9223372036854775807 {{x}}\n// expected-error@-9223372036854775807 {{y}}\n// expected-error@-5 {{z}}\n' \
// RUN:   | not shardkit-opt - -verify-diagnostics 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=OFFSET
// OFFSET: <stdin>:1:4: error: expected error "w" was not produced
// OFFSET-NEXT: <stdin>:1:31: error: expected error "x" was not produced
// OFFSET-NEXT: <stdin>:2:4: error: expected error "y" was not produced
// OFFSET-NEXT: <stdin>:3:4: error: expected error "z" was not produced

// @above, @below and a second annotation on one line; warnings are checked
// as warnings.
// RUN: not shardkit-opt %s -verify-diagnostics 2>&1 >/dev/null \
// RUN:   | FileCheck %s --check-prefix=FILE
// FILE: verify_diagnostics_hostile.mlir:[[# @LINE + 5]]:4: error: expected warning "no such warning" was not produced
// FILE-NOT: error

sdy.mesh @mesh = <["x"=2]>

// expected-warning@+1 {{no such warning}}
func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@below {{cannot specify `BOTH`}}
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BOTH : tensor<4xf32>
  %1 = sdy.propagation_barrier %0 allowed_direction=BOTH : tensor<4xf32>
  // expected-error@above {{cannot specify `BOTH`}}
  return %1 : tensor<4xf32>
}

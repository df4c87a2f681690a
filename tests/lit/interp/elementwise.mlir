// Elementwise ops: integer arithmetic wraps to the type's width, division
// by zero gives XLA's values, floats round to their type, compare and
// select, conversions. Each chunk's checks must hold except the twin
// chunk's, whose wrong expectations must each be reported.
// RUN: not shardkit-opt --interpret -split-input-file %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:

func.func @main() {
  %a = stablehlo.constant dense<[100, -128, 7, -7]> : tensor<4xi8>
  %b = stablehlo.constant dense<[100, -1, 2, 2]> : tensor<4xi8>
  %sum = stablehlo.add %a, %b : tensor<4xi8>
  check.expect_eq_const %sum, dense<[-56, 127, 9, -5]> : tensor<4xi8>
  %prod = stablehlo.multiply %a, %b : tensor<4xi8>
  check.expect_eq_const %prod, dense<[16, -128, 14, -14]> : tensor<4xi8>
  %quot = stablehlo.divide %a, %b : tensor<4xi8>
  check.expect_eq_const %quot, dense<[1, -128, 3, -3]> : tensor<4xi8>
  %rem = stablehlo.remainder %a, %b : tensor<4xi8>
  check.expect_eq_const %rem, dense<[0, 0, 1, -1]> : tensor<4xi8>
  %zero = stablehlo.constant dense<0> : tensor<4xi8>
  %q0 = stablehlo.divide %a, %zero : tensor<4xi8>
  check.expect_eq_const %q0, dense<-1> : tensor<4xi8>
  %r0 = stablehlo.remainder %a, %zero : tensor<4xi8>
  check.expect_eq_const %r0, dense<[100, -128, 7, -7]> : tensor<4xi8>
  %max = stablehlo.maximum %a, %b : tensor<4xi8>
  check.expect_eq_const %max, dense<[100, -1, 7, 2]> : tensor<4xi8>
  %neg = stablehlo.negate %a : tensor<4xi8>
  check.expect_eq_const %neg, dense<[-100, -128, -7, 7]> : tensor<4xi8>
  %abs = stablehlo.abs %a : tensor<4xi8>
  check.expect_eq_const %abs, dense<[100, -128, 7, 7]> : tensor<4xi8>
  %sl = stablehlo.shift_left %a, %b : tensor<4xi8>
  check.expect_eq_const %sl, dense<[0, 0, 28, -28]> : tensor<4xi8>
  %sra = stablehlo.shift_right_arithmetic %a, %b : tensor<4xi8>
  check.expect_eq_const %sra, dense<[0, -1, 1, -2]> : tensor<4xi8>
  %srl = stablehlo.shift_right_logical %a, %b : tensor<4xi8>
  check.expect_eq_const %srl, dense<[0, 0, 1, 62]> : tensor<4xi8>
  %x = stablehlo.xor %a, %b : tensor<4xi8>
  check.expect_eq_const %x, dense<[0, 127, 5, -5]> : tensor<4xi8>
  %n = stablehlo.not %b : tensor<4xi8>
  check.expect_eq_const %n, dense<[-101, 0, -3, -3]> : tensor<4xi8>
  %pc = stablehlo.popcnt %b : tensor<4xi8>
  check.expect_eq_const %pc, dense<[3, 8, 1, 1]> : tensor<4xi8>
  %clz = stablehlo.count_leading_zeros %b : tensor<4xi8>
  check.expect_eq_const %clz, dense<[1, 0, 6, 6]> : tensor<4xi8>
  %p = stablehlo.power %b, %b : tensor<4xi8>
  check.expect_eq_const %p, dense<[0, -1, 4, 4]> : tensor<4xi8>
  return
}

// -----

// Unsigned integers compare, divide and shift as unsigned.
func.func @main() {
  %a = stablehlo.constant dense<[250, 3]> : tensor<2xui8>
  %b = stablehlo.constant dense<[10, 200]> : tensor<2xui8>
  %sum = stablehlo.add %a, %b : tensor<2xui8>
  check.expect_eq_const %sum, dense<[4, 203]> : tensor<2xui8>
  %q = stablehlo.divide %a, %b : tensor<2xui8>
  check.expect_eq_const %q, dense<[25, 0]> : tensor<2xui8>
  %lt = stablehlo.compare LT, %a, %b, UNSIGNED : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xi1>
  check.expect_eq_const %lt, dense<[false, true]> : tensor<2xi1>
  %amount = stablehlo.constant dense<[1, 9]> : tensor<2xui8>
  %sra = stablehlo.shift_right_arithmetic %a, %amount : tensor<2xui8>
  check.expect_eq_const %sra, dense<[253, 0]> : tensor<2xui8>
  %big = stablehlo.constant dense<18446744073709551615> : tensor<ui64>
  %one = stablehlo.constant dense<1> : tensor<ui64>
  %wrap = stablehlo.add %big, %one : tensor<ui64>
  check.expect_eq_const %wrap, dense<0> : tensor<ui64>
  %gt = stablehlo.compare GT, %big, %one, UNSIGNED : (tensor<ui64>, tensor<ui64>) -> tensor<i1>
  check.expect_eq_const %gt, dense<true> : tensor<i1>
  return
}

// -----

// Floats: f16 and bf16 round each result; NaN propagates through maximum;
// compare with NaN is unordered except in TOTALORDER.
func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2048.0, 65504.0]> : tensor<3xf16>
  %b = stablehlo.constant dense<[0.0004882812, 1.0, 65504.0]> : tensor<3xf16>
  %s = stablehlo.add %a, %b : tensor<3xf16>
  check.expect_eq_const %s, dense<[1.0, 2048.0, 0x7C00]> : tensor<3xf16>
  %c = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xbf16>
  %d = stablehlo.constant dense<[0.00390625, 0.0078125]> : tensor<2xbf16>
  %e = stablehlo.add %c, %d : tensor<2xbf16>
  check.expect_eq_const %e, dense<[1.0, 3.0]> : tensor<2xbf16>
  %f = stablehlo.constant dense<[1.0, 0x7FC00000, -0.0]> : tensor<3xf32>
  %g = stablehlo.constant dense<[2.0, 1.0, 0.0]> : tensor<3xf32>
  %m = stablehlo.maximum %f, %g : tensor<3xf32>
  %m_nan = stablehlo.compare NE, %m, %m : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %m_nan, dense<[false, true, false]> : tensor<3xi1>
  %eq = stablehlo.compare EQ, %f, %f, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %eq, dense<[true, false, true]> : tensor<3xi1>
  %lt = stablehlo.compare LT, %f, %g, TOTALORDER : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  check.expect_eq_const %lt, dense<[true, false, true]> : tensor<3xi1>
  %sq = stablehlo.sqrt %g : tensor<3xf32>
  check.expect_almost_eq_const %sq, dense<[1.414214, 1.0, 0.0]> : tensor<3xf32>
  %fl = stablehlo.constant dense<[-1.5, 2.5, 0.5]> : tensor<3xf32>
  %r1 = stablehlo.round_nearest_even %fl : tensor<3xf32>
  check.expect_eq_const %r1, dense<[-2.0, 2.0, 0.0]> : tensor<3xf32>
  %r2 = stablehlo.round_nearest_afz %fl : tensor<3xf32>
  check.expect_eq_const %r2, dense<[-2.0, 3.0, 1.0]> : tensor<3xf32>
  %fo = stablehlo.floor %fl : tensor<3xf32>
  check.expect_eq_const %fo, dense<[-2.0, 2.0, 0.0]> : tensor<3xf32>
  %sg = stablehlo.sign %fl : tensor<3xf32>
  check.expect_eq_const %sg, dense<[-1.0, 1.0, 1.0]> : tensor<3xf32>
  return
}

// -----

// Conversions: floats to integers truncate and saturate, NaN gives 0;
// integers to floats round; bitcast keeps the bits.
func.func @main() {
  %f = stablehlo.constant dense<[-1.9, 300.0, 0x7FC00000, -300.0]> : tensor<4xf32>
  %i = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xi8>
  check.expect_eq_const %i, dense<[-1, 127, 0, -128]> : tensor<4xi8>
  %u = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xui8>
  check.expect_eq_const %u, dense<[0, 255, 0, 0]> : tensor<4xui8>
  %big = stablehlo.constant dense<16777217> : tensor<i32>
  %bf = stablehlo.convert %big : (tensor<i32>) -> tensor<f32>
  check.expect_eq_const %bf, dense<16777216.0> : tensor<f32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %bits = stablehlo.bitcast_convert %one : (tensor<f32>) -> tensor<i32>
  check.expect_eq_const %bits, dense<1065353216> : tensor<i32>
  %halves = stablehlo.bitcast_convert %bits : (tensor<i32>) -> tensor<2xui16>
  check.expect_eq_const %halves, dense<[0, 16256]> : tensor<2xui16>
  %b = stablehlo.convert %f : (tensor<4xf32>) -> tensor<4xi1>
  check.expect_eq_const %b, dense<[true, true, true, true]> : tensor<4xi1>
  %p = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %x = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %y = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
  %sel = stablehlo.select %p, %x, %y : tensor<2xi1>, tensor<2xi32>
  check.expect_eq_const %sel, dense<[1, 4]> : tensor<2xi32>
  %lo = stablehlo.constant dense<2> : tensor<i32>
  %hi = stablehlo.constant dense<3> : tensor<i32>
  %cl = stablehlo.clamp %lo, %x, %hi : (tensor<i32>, tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  check.expect_eq_const %cl, dense<[2, 2]> : tensor<2xi32>
  return
}

// -----

// Narrow integers, bits of booleans, complex numbers in the short form.
func.func @main() {
  %a = stablehlo.constant dense<[7, -8]> : tensor<2xi4>
  %one = stablehlo.constant dense<1> : tensor<2xi4>
  %s = stablehlo.add %a, %one : tensor<2xi4>
  check.expect_eq_const %s, dense<[-8, -7]> : tensor<2xi4>
  %u = stablehlo.constant dense<3> : tensor<ui2>
  %uone = stablehlo.constant dense<1> : tensor<ui2>
  %us = stablehlo.add %u, %uone : tensor<ui2>
  check.expect_eq_const %us, dense<0> : tensor<ui2>
  %six = stablehlo.constant dense<6> : tensor<i8>
  %bits = stablehlo.bitcast_convert %six : (tensor<i8>) -> tensor<8xi1>
  check.expect_eq_const %bits, dense<[false, true, true, false, false, false, false, false]> : tensor<8xi1>
  %re = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %im = stablehlo.constant dense<[3.0, -4.0]> : tensor<2xf32>
  %z = stablehlo.complex %re, %im : tensor<2xcomplex<f32>>
  %zz = stablehlo.multiply %z, %z : tensor<2xcomplex<f32>>
  %r = stablehlo.real %zz : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_eq_const %r, dense<[-8.0, -12.0]> : tensor<2xf32>
  %i = stablehlo.imag %zz : tensor<2xcomplex<f32>>
  check.expect_eq_const %i, dense<[6.0, -16.0]> : tensor<2xf32>
  %m = stablehlo.abs %z : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  check.expect_eq_const %m, dense<[3.1622777, 4.472136]> : tensor<2xf32>
  return
}

// -----

// The twin: wrong expectations, each of which must be reported.
func.func @main() {
  %a = stablehlo.constant dense<[100, -128]> : tensor<2xi8>
  %b = stablehlo.constant dense<[100, -1]> : tensor<2xi8>
  %sum = stablehlo.add %a, %b : tensor<2xi8>
  // A saturating add would give 127.
  // CHECK: elementwise.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: -56 (actual) vs 127 (expected) at index [0]
  check.expect_eq_const %sum, dense<[127, 127]> : tensor<2xi8>
  return
}

// -----

func.func @main() {
  %c = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xbf16>
  %d = stablehlo.constant dense<[0.00390625, 0.0078125]> : tensor<2xbf16>
  %e = stablehlo.add %c, %d : tensor<2xbf16>
  // Rounding the tie away from zero instead of to even.
  // CHECK: elementwise.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: 1.000000e+00 (actual) vs 1.007812e+00 (expected) at index [0]
  check.expect_eq_const %e, dense<[1.0078125, 3.0]> : tensor<2xbf16>
  %f = stablehlo.constant dense<-1.9> : tensor<f32>
  %i = stablehlo.convert %f : (tensor<f32>) -> tensor<i8>
  // CHECK: elementwise.mlir:[[@LINE+1]]:3: error: 'check.expect_eq_const' op Element values don't match: -1 (actual) vs -2 (expected) at index []
  check.expect_eq_const %i, dense<-2> : tensor<i8>
  return
}

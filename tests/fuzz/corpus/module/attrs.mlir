#alias = {k = [1, 2.5 : f32, "s", @sym::@nested, array<i32: 1, 2>, dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>]}
!t = tuple<tensor<2x?xbf16>, !stablehlo.token, tensor<*xi1>>
module @m attributes {a = #alias, b = unit, c = true, d = 0x1F : ui8, e = -3.25e-2 : f16, f = (i32) -> (i32, i1), g = #foo.bar<1, [2]>, h = dense<"0xDEADBEEF"> : tensor<1xi32>, i = dense<(1.0, 2.0)> : tensor<complex<f32>>} {
  func.func private @decl(!t {x.y = 1 : i32}, tensor<0xf32>) -> (!t {z})
} loc(#loc)
#loc = loc("x.py":1:2)

module {
  %0 = "top.level"() ({
  ^bb0(%a: i32, %b: f32):
    "t.br"(%a) : (i32) -> ()
  ^bb1:
    %1 = "t.y"() <{p = 1 : i64}> {q} : () -> (i32)
    "t.end"(%1, %b) : (i32, f32) -> ()
  }, {
  }) : () -> tensor<i32>
}

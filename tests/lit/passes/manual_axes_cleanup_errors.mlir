// RUN: shardkit-opt %s -split-input-file -sdy-manual-axes-cleanup -verify-diagnostics

sdy.mesh @mesh = <["a"=2]>

func.func @manual_axes_without_shardings() {
  // expected-error @+1 {{has manual_axes when there are no in/out shardings and the body is not empty}}
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
    %0 = sdy.constant dense<2.000000e+00> : tensor<4xf32>
    sdy.return
  } : () -> ()
  func.return
}

// -----

sdy.mesh @mesh = <["a"=2]>

// An empty body is fine.
func.func @manual_axes_without_shardings_empty_body() {
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={"a"} () {
    sdy.return
  } : () -> ()
  func.return
}

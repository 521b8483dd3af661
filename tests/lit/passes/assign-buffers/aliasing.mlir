// RUN: xlir-opt %s --split-input-file -p assign-buffers | filecheck %s

// `tf.aliasing_output = N` donates a parameter to output N: the output may
// be computed in the parameter's buffer ("alias bytes").

// The update w - 0.01 * g is written over the donated w.
// CHECK-LABEL: func.func @donated
// CHECK-SAME:  hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 8192, outputs = 4096, alias = 4096, constants = 0>
// CHECK:       hlo.fusion kind = loop {{.*}}[#hlo.buffer<out 0, arg 0>]
func.func @donated(%w: tensor<1024xf32> {tf.aliasing_output = 0 : i32}, %g: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = hlo.fusion kind = loop (%w, %g) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%a: tensor<1024xf32>, %b: tensor<1024xf32>):
    %lr = stablehlo.constant dense<0.01> : tensor<1024xf32>
    %s = stablehlo.multiply %lr, %b : tensor<1024xf32>
    %d = stablehlo.subtract %a, %s : tensor<1024xf32>
    hlo.yield %d : tensor<1024xf32>
  }
  func.return %r : tensor<1024xf32>
}

// -----

// Without the attribute the same parameter is never written.
// CHECK-LABEL: func.func @not_donated
// CHECK-SAME:  alias = 0
// CHECK:       hlo.fusion kind = loop {{.*}}[#hlo.buffer<out 0>]
func.func @not_donated(%w: tensor<1024xf32>, %g: tensor<1024xf32>) -> tensor<1024xf32> {
  %r = hlo.fusion kind = loop (%w, %g) : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%a: tensor<1024xf32>, %b: tensor<1024xf32>):
    %d = stablehlo.subtract %a, %b : tensor<1024xf32>
    hlo.yield %d : tensor<1024xf32>
  }
  func.return %r : tensor<1024xf32>
}

// -----

// Donated to output 1, the parameter does not hold output 0, nor a temp.
// CHECK-LABEL: func.func @other_output
// CHECK-SAME:  alias = 0
// CHECK:       stablehlo.negate {{.*}}[#hlo.buffer<out 0>]
// CHECK-NEXT:  stablehlo.exponential {{.*}}[#hlo.buffer<out 1>]
func.func @other_output(%w: tensor<1024xf32> {tf.aliasing_output = 1 : i32}) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %n = stablehlo.negate %w : tensor<1024xf32>
  %e = stablehlo.exponential %n : tensor<1024xf32>
  func.return %n, %e : tensor<1024xf32>, tensor<1024xf32>
}

// -----

// A donated parameter still read after the op is not overwritten there.
// CHECK-LABEL: func.func @donated_but_live
// CHECK-SAME:  alias = 0
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<out 0>]
// CHECK-NEXT:  stablehlo.multiply {{.*}}[#hlo.buffer<out 1>]
func.func @donated_but_live(%w: tensor<1024xf32> {tf.aliasing_output = 0 : i32}) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %e = stablehlo.exponential %w : tensor<1024xf32>
  %m = stablehlo.multiply %w, %e : tensor<1024xf32>
  func.return %e, %m : tensor<1024xf32>, tensor<1024xf32>
}

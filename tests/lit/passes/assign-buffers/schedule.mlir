// RUN: xlir-opt %s --split-input-file -p assign-buffers | filecheck %s

// Ops are planned in program order and in a memory-minimizing list schedule;
// the smaller arena wins, and the function is left in that order.

// Program order keeps %a and %b (4 KiB each) alive together; the schedule
// reduces %a before making %b, so they share one buffer.
// CHECK-LABEL: func.func @consume_early
// CHECK-SAME:  arena = 4096
// CHECK:       %[[A:.*]] = stablehlo.exponential %p {{.*}}offset = 0, size = 4096
// CHECK-NEXT:  stablehlo.reduce(%[[A]]
// CHECK:       %[[B:.*]] = stablehlo.exponential %q {{.*}}offset = 0, size = 4096
// CHECK-NEXT:  stablehlo.reduce(%[[B]]
func.func @consume_early(%p: tensor<1024xf32>, %q: tensor<1024xf32>) -> (tensor<f32>, tensor<f32>) {
  %a = stablehlo.exponential %p : tensor<1024xf32>
  %b = stablehlo.exponential %q : tensor<1024xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %c = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<1024xf32>, tensor<f32>) -> tensor<f32>
  %d = stablehlo.reduce(%b init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<1024xf32>, tensor<f32>) -> tensor<f32>
  func.return %c, %d : tensor<f32>, tensor<f32>
}

// -----

// A tie keeps the program's order.
// CHECK-LABEL: func.func @tie
// CHECK-SAME:  arena = 8196
// CHECK:       stablehlo.exponential %p
// CHECK-NEXT:  stablehlo.exponential %q
func.func @tie(%p: tensor<1024xf32>, %q: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = stablehlo.exponential %p : tensor<1024xf32>
  %b = stablehlo.exponential %q : tensor<1024xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %c = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<1024xf32>, tensor<f32>) -> tensor<f32>
  %bc = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<1024xf32>
  %e = stablehlo.add %b, %bc : tensor<1024xf32>
  %f = stablehlo.add %e, %a : tensor<1024xf32>
  func.return %f : tensor<1024xf32>
}

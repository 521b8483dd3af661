// RUN: xlir-opt %s --split-input-file -p assign-buffers | filecheck %s

// The reduce result of an input fusion may overwrite an operand that dies
// there when the fusion reads it only at the output's own index (broadcast
// along the reduced dims, through unit-dim reshapes): softmax as `fuse` makes
// it, three fusions, keeps one row vector in the arena.

// CHECK-LABEL: func.func @softmax_multi_output
// CHECK-SAME:  arena = 4096
// CHECK:       %[[MAX:.*]] = hlo.fusion kind = input {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK:       hlo.fusion kind = input (%[[MAX]], %x) {{.*}}[#hlo.buffer<out 0>, #hlo.buffer<temp, offset = 0, size = 4096>]
func.func @softmax_multi_output(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %max = hlo.fusion kind = input (%x) : (tensor<1024x1024xf32>) -> tensor<1024xf32> {
  ^bb0(%a: tensor<1024x1024xf32>):
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%a init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    hlo.yield %0 : tensor<1024xf32>
  }
  %e, %sum = hlo.fusion kind = input (%max, %x) : (tensor<1024xf32>, tensor<1024x1024xf32>) -> (tensor<1024x1024xf32>, tensor<1024xf32>) {
  ^bb0(%m: tensor<1024xf32>, %a: tensor<1024x1024xf32>):
    %r = stablehlo.reshape %m : (tensor<1024xf32>) -> tensor<1024x1xf32>
    %b = stablehlo.broadcast_in_dim %r, dims = [0, 1] : (tensor<1024x1xf32>) -> tensor<1024x1024xf32>
    %s = stablehlo.subtract %a, %b : tensor<1024x1024xf32>
    %ex = stablehlo.exponential %s : tensor<1024x1024xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %0 = stablehlo.reduce(%ex init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    hlo.yield %ex, %0 : tensor<1024x1024xf32>, tensor<1024xf32>
  }
  %out = hlo.fusion kind = loop (%e, %sum) : (tensor<1024x1024xf32>, tensor<1024xf32>) -> tensor<1024x1024xf32> {
  ^bb0(%a: tensor<1024x1024xf32>, %m: tensor<1024xf32>):
    %b = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<1024xf32>) -> tensor<1024x1024xf32>
    %d = stablehlo.divide %a, %b : tensor<1024x1024xf32>
    hlo.yield %d : tensor<1024x1024xf32>
  }
  func.return %out : tensor<1024x1024xf32>
}

// -----

// Not when the operand is broadcast along the kept dim (row i reads all of
// it), nor when it is the reduce's init value: the operands stay in the
// arena while the results go (in place through the adds) to the outputs.
// CHECK-LABEL: func.func @read_elsewhere
// CHECK:       %[[V:.*]] = stablehlo.exponential %v {{.*}}[#hlo.buffer<temp, offset = 0, size = 256>]
// CHECK-NEXT:  hlo.fusion kind = input (%[[V]], %x) {{.*}}[#hlo.buffer<out 0>]
// CHECK:       %[[I:.*]] = stablehlo.exponential %i {{.*}}[#hlo.buffer<temp, offset = 0, size = 4>]
// CHECK-NEXT:  hlo.fusion kind = input (%[[I]], %y) {{.*}}[#hlo.buffer<out 1>]
func.func @read_elsewhere(%v: tensor<64xf32>, %x: tensor<64x64xf32>, %i: tensor<f32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<f32>) {
  %w = stablehlo.exponential %v : tensor<64xf32>
  %0 = hlo.fusion kind = input (%w, %x) : (tensor<64xf32>, tensor<64x64xf32>) -> tensor<64xf32> {
  ^bb0(%m: tensor<64xf32>, %a: tensor<64x64xf32>):
    %b = stablehlo.broadcast_in_dim %m, dims = [1] : (tensor<64xf32>) -> tensor<64x64xf32>
    %s = stablehlo.subtract %a, %b : tensor<64x64xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %r = stablehlo.reduce(%s init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
    hlo.yield %r : tensor<64xf32>
  }
  %j = stablehlo.exponential %i : tensor<f32>
  %1 = hlo.fusion kind = input (%j, %y) : (tensor<f32>, tensor<64xf32>) -> tensor<f32> {
  ^bb0(%init: tensor<f32>, %a: tensor<64xf32>):
    %r = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
    hlo.yield %r : tensor<f32>
  }
  %2 = stablehlo.add %0, %0 : tensor<64xf32>
  %3 = stablehlo.add %1, %1 : tensor<f32>
  func.return %2, %3 : tensor<64xf32>, tensor<f32>
}

// -----

// An input fusion's output shaped like its reduce's input is stored as the
// reduction walks that input, at the element just read: it may overwrite an
// operand that dies there and is read only at that element (the backward
// relu mask writing over the incoming gradient, while summing it).
// The chain exp -> mask -> negate ends in output 1, so it runs in that
// buffer: no temp at all.
// CHECK-LABEL: func.func @passenger_in_place
// CHECK-SAME:  arena = 0
// CHECK:       %[[G:.*]] = stablehlo.exponential {{.*}}[#hlo.buffer<out 1>]
// CHECK:       hlo.fusion kind = input (%x, %[[G]]) {{.*}}[#hlo.buffer<out 1>, #hlo.buffer<out 0>]
func.func @passenger_in_place(%x: tensor<32x32xf32>, %y: tensor<32x32xf32>) -> (tensor<32xf32>, tensor<32x32xf32>) {
  %g = stablehlo.exponential %y : tensor<32x32xf32>
  %s, %sum = hlo.fusion kind = input (%x, %g) : (tensor<32x32xf32>, tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32xf32>) {
  ^bb0(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>):
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %z = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %m = stablehlo.compare GT, %a, %z, FLOAT : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xi1>
    %sel = stablehlo.select %m, %b, %z : tensor<32x32xi1>, tensor<32x32xf32>
    %r = stablehlo.reduce(%sel init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<32x32xf32>, tensor<f32>) -> tensor<32xf32>
    hlo.yield %sel, %r : tensor<32x32xf32>, tensor<32xf32>
  }
  %t = stablehlo.negate %s : tensor<32x32xf32>
  func.return %sum, %t : tensor<32xf32>, tensor<32x32xf32>
}

// -----

// Not when the fusion has no reduce output to ride on: the passenger would be
// computed in a nest of its own, after or before the reduction reads %b.
// CHECK-LABEL: func.func @no_reduce_output
// CHECK-SAME:  arena = 4096
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK:       hlo.fusion kind = input {{.*}}[#hlo.buffer<out 1>, #hlo.buffer<out 0>]
func.func @no_reduce_output(%x: tensor<32x32xf32>, %y: tensor<32x32xf32>) -> (tensor<f32>, tensor<32x32xf32>) {
  %g = stablehlo.exponential %y : tensor<32x32xf32>
  %s, %total = hlo.fusion kind = input (%x, %g) : (tensor<32x32xf32>, tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<f32>) {
  ^bb0(%a: tensor<32x32xf32>, %b: tensor<32x32xf32>):
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %z = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<32x32xf32>
    %m = stablehlo.compare GT, %a, %z, FLOAT : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xi1>
    %sel = stablehlo.select %m, %b, %z : tensor<32x32xi1>, tensor<32x32xf32>
    %r = stablehlo.reduce(%sel init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<32x32xf32>, tensor<f32>) -> tensor<32xf32>
    %t = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<32xf32>, tensor<f32>) -> tensor<f32>
    hlo.yield %sel, %t : tensor<32x32xf32>, tensor<f32>
  }
  %u = stablehlo.negate %s : tensor<32x32xf32>
  func.return %total, %u : tensor<f32>, tensor<32x32xf32>
}

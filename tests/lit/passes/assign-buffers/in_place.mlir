// RUN: xlir-opt --allow-unregistered-dialect %s --split-input-file -p assign-buffers | filecheck %s

// In-place reuse: a result takes the buffer of an operand that dies at its op,
// when the op reads element i of it only to write element i.

// An elementwise op writes over its dying operand; a chain of them that ends
// in an output is computed in the output's buffer: no temp at all.
// CHECK-LABEL: func.func @chain_into_output
// CHECK-SAME:  arena = 0
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<out 0>]
// CHECK-NEXT:  stablehlo.negate {{.*}}[#hlo.buffer<out 0>]
// CHECK-NEXT:  stablehlo.add {{.*}}[#hlo.buffer<out 0>]
func.func @chain_into_output(%p: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = stablehlo.exponential %p : tensor<1024xf32>
  %b = stablehlo.negate %a : tensor<1024xf32>
  %c = stablehlo.add %b, %b : tensor<1024xf32>
  func.return %c : tensor<1024xf32>
}

// -----

// Not in place when the operand is read later: %b cannot take %a's bytes.
// (%c still writes over %a, which dies at %c.)
// CHECK-LABEL: func.func @operand_still_live
// CHECK-SAME:  arena = 4096
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<out 0>]
// CHECK-NEXT:  stablehlo.negate {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK-NEXT:  stablehlo.multiply {{.*}}[#hlo.buffer<out 0>]
func.func @operand_still_live(%p: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = stablehlo.exponential %p : tensor<1024xf32>
  %b = stablehlo.negate %a : tensor<1024xf32>
  %c = stablehlo.multiply %a, %b : tensor<1024xf32>
  func.return %c : tensor<1024xf32>
}

// -----

// Not in place for ops that read other elements than the one they write
// (transpose, dot, reduce), nor when the byte sizes differ (compare to i1).
// CHECK-LABEL: func.func @not_in_place
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 0, size = 16384>]
// CHECK-NEXT:  stablehlo.transpose {{.*}}[#hlo.buffer<temp, offset = 16384, size = 16384>]
// CHECK-NEXT:  stablehlo.dot_general {{.*}}[#hlo.buffer<temp, offset = 0, size = 16384>]
// CHECK-NEXT:  stablehlo.compare {{.*}}[#hlo.buffer<temp, offset = 16384, size = 4096>]
// CHECK-NEXT:  stablehlo.constant {{.*}}[#hlo.buffer<const>]
// CHECK-NEXT:  stablehlo.reduce{{.*}}[#hlo.buffer<out 0>]
func.func @not_in_place(%p: tensor<64x64xf32>) -> tensor<64xi1> {
  %a = stablehlo.exponential %p : tensor<64x64xf32>
  %t = stablehlo.transpose %a, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %d = stablehlo.dot_general %t, %t, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %z = stablehlo.compare GT, %d, %d, FLOAT : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xi1>
  %true = stablehlo.constant dense<true> : tensor<i1>
  %r = stablehlo.reduce(%z init: %true) applies stablehlo.and across dimensions = [1] : (tensor<64x64xi1>, tensor<i1>) -> tensor<64xi1>
  func.return %r : tensor<64xi1>
}

// -----

// Softmax after fusion (XLA's figure: 4096 temp bytes). exp(x - max) is
// computed into the output buffer and divided by the row sums in place; only
// the 1024-float rows of max, then of sums, use the arena, at the same offset.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME:  arena = 4096
// CHECK:       %[[MAX:.*]] = hlo.fusion kind = input {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK:       %[[E:.*]] = hlo.fusion kind = loop {{.*}}[#hlo.buffer<out 0>]
// CHECK:       %[[SUM:.*]] = hlo.fusion kind = input {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK:       hlo.fusion kind = loop (%[[E]], %[[SUM]]) {{.*}}[#hlo.buffer<out 0>]
func.func @softmax(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %max = hlo.fusion kind = input (%x) : (tensor<1024x1024xf32>) -> tensor<1024xf32> {
  ^bb0(%a: tensor<1024x1024xf32>):
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%a init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    hlo.yield %0 : tensor<1024xf32>
  }
  %e = hlo.fusion kind = loop (%x, %max) : (tensor<1024x1024xf32>, tensor<1024xf32>) -> tensor<1024x1024xf32> {
  ^bb0(%a: tensor<1024x1024xf32>, %m: tensor<1024xf32>):
    %b = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<1024xf32>) -> tensor<1024x1024xf32>
    %s = stablehlo.subtract %a, %b : tensor<1024x1024xf32>
    %ex = stablehlo.exponential %s : tensor<1024x1024xf32>
    hlo.yield %ex : tensor<1024x1024xf32>
  }
  %sum = hlo.fusion kind = input (%e) : (tensor<1024x1024xf32>) -> tensor<1024xf32> {
  ^bb0(%a: tensor<1024x1024xf32>):
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %0 = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1024x1024xf32>, tensor<f32>) -> tensor<1024xf32>
    hlo.yield %0 : tensor<1024xf32>
  }
  %r = hlo.fusion kind = loop (%e, %sum) : (tensor<1024x1024xf32>, tensor<1024xf32>) -> tensor<1024x1024xf32> {
  ^bb0(%a: tensor<1024x1024xf32>, %m: tensor<1024xf32>):
    %b = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<1024xf32>) -> tensor<1024x1024xf32>
    %d = stablehlo.divide %a, %b : tensor<1024x1024xf32>
    hlo.yield %d : tensor<1024x1024xf32>
  }
  func.return %r : tensor<1024x1024xf32>
}

// -----

// A loop fusion may write over an input it reads only elementwise (%t, via a
// reshape), but not over one it broadcasts (%v) or reads transposed (%u).
// CHECK-LABEL: func.func @loop_fusion
// CHECK:       %[[T:.*]] = stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 0, size = 16384>]
// CHECK-NEXT:  %[[U:.*]] = stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 16384, size = 16384>]
// CHECK-NEXT:  %[[V:.*]] = stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 32768, size = 256>]
// CHECK-NEXT:  hlo.fusion kind = loop (%[[T]], %[[U]], %[[V]]) {{.*}}[#hlo.buffer<temp, offset = 0, size = 16384>]
func.func @loop_fusion(%p: tensor<4096xf32>, %q: tensor<64x64xf32>, %w: tensor<64xf32>) -> tensor<f32> {
  %t = stablehlo.exponential %p : tensor<4096xf32>
  %u = stablehlo.exponential %q : tensor<64x64xf32>
  %v = stablehlo.exponential %w : tensor<64xf32>
  %f = hlo.fusion kind = loop (%t, %u, %v) : (tensor<4096xf32>, tensor<64x64xf32>, tensor<64xf32>) -> tensor<64x64xf32> {
  ^bb0(%a: tensor<4096xf32>, %b: tensor<64x64xf32>, %c: tensor<64xf32>):
    %ra = stablehlo.reshape %a : (tensor<4096xf32>) -> tensor<64x64xf32>
    %tb = stablehlo.transpose %b, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %bc = stablehlo.broadcast_in_dim %c, dims = [0] : (tensor<64xf32>) -> tensor<64x64xf32>
    %s = stablehlo.add %ra, %tb : tensor<64x64xf32>
    %m = stablehlo.multiply %s, %bc : tensor<64x64xf32>
    hlo.yield %m : tensor<64x64xf32>
  }
  %r = "test.op"(%f) : (tensor<64x64xf32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// A loop fusion that reads its input reversed cannot write over it.
// CHECK-LABEL: func.func @loop_fusion_reverse
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 0, size = 256>]
// CHECK-NEXT:  hlo.fusion kind = loop {{.*}}[#hlo.buffer<temp, offset = 256, size = 256>]
func.func @loop_fusion_reverse(%w: tensor<64xf32>) -> tensor<f32> {
  %v = stablehlo.exponential %w : tensor<64xf32>
  %f = hlo.fusion kind = loop (%v) : (tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%c: tensor<64xf32>):
    %rev = stablehlo.reverse %c, dims = [0] : tensor<64xf32>
    %s = stablehlo.add %rev, %c : tensor<64xf32>
    hlo.yield %s : tensor<64xf32>
  }
  %r = "test.op"(%f) : (tensor<64xf32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// dynamic_update_slice writes into its dying operand; the update does not.
// CHECK-LABEL: func.func @dynamic_update_slice
// CHECK-SAME:  arena = 64
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<out 0>]
// CHECK-NEXT:  stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 0, size = 64>]
// CHECK-NEXT:  stablehlo.dynamic_update_slice {{.*}}[#hlo.buffer<out 0>]
func.func @dynamic_update_slice(%p: tensor<1024xf32>, %u: tensor<16xf32>, %i: tensor<i32>) -> tensor<1024xf32> {
  %a = stablehlo.exponential %p : tensor<1024xf32>
  %b = stablehlo.exponential %u : tensor<16xf32>
  %r = stablehlo.dynamic_update_slice %a, %b, %i : (tensor<1024xf32>, tensor<16xf32>, tensor<i32>) -> tensor<1024xf32>
  func.return %r : tensor<1024xf32>
}

// -----

// A loop fusion's dynamic_update_slice writes its window in a loop of its
// own: it writes over its operand only where nothing else in the fusion reads
// that operand (here the multiply does, so the fusion gets a buffer of its
// own); where the slice is the operand's only reader, it writes in place.
// CHECK-LABEL: func.func @loop_fusion_update_read_elsewhere
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 0, size = 256>]
// CHECK-NEXT:  hlo.fusion kind = loop {{.*}}[#hlo.buffer<temp, offset = 256, size = 256>]
// CHECK-LABEL: func.func @loop_fusion_update_only_reader
// CHECK:       stablehlo.exponential {{.*}}[#hlo.buffer<temp, offset = 0, size = 256>]
// CHECK-NEXT:  hlo.fusion kind = loop {{.*}}[#hlo.buffer<temp, offset = 0, size = 256>]
func.func @loop_fusion_update_read_elsewhere(%w: tensor<64xf32>, %u: tensor<3xf32>, %i: tensor<i32>) -> tensor<f32> {
  %v = stablehlo.exponential %w : tensor<64xf32>
  %f = hlo.fusion kind = loop (%v, %u, %i) : (tensor<64xf32>, tensor<3xf32>, tensor<i32>) -> tensor<64xf32> {
  ^bb0(%c: tensor<64xf32>, %d: tensor<3xf32>, %j: tensor<i32>):
    %s = stablehlo.dynamic_update_slice %c, %d, %j : (tensor<64xf32>, tensor<3xf32>, tensor<i32>) -> tensor<64xf32>
    %m = stablehlo.multiply %s, %c : tensor<64xf32>
    hlo.yield %m : tensor<64xf32>
  }
  %r = "test.op"(%f) : (tensor<64xf32>) -> tensor<f32>
  func.return %r : tensor<f32>
}
func.func @loop_fusion_update_only_reader(%w: tensor<64xf32>, %u: tensor<3xf32>, %i: tensor<i32>) -> tensor<f32> {
  %v = stablehlo.exponential %w : tensor<64xf32>
  %f = hlo.fusion kind = loop (%v, %u, %i) : (tensor<64xf32>, tensor<3xf32>, tensor<i32>) -> tensor<64xf32> {
  ^bb0(%c: tensor<64xf32>, %d: tensor<3xf32>, %j: tensor<i32>):
    %s = stablehlo.dynamic_update_slice %c, %d, %j : (tensor<64xf32>, tensor<3xf32>, tensor<i32>) -> tensor<64xf32>
    %m = stablehlo.multiply %s, %s : tensor<64xf32>
    hlo.yield %m : tensor<64xf32>
  }
  %r = "test.op"(%f) : (tensor<64xf32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// An output's buffer holds values of its element type only (at the loop level
// it is one typed memref): the i32 sum is not computed in the f32 output, but
// in a temp the convert then reads.
// CHECK-LABEL: func.func @output_keeps_its_type
// CHECK-SAME:  arena = 4096
// CHECK:       stablehlo.add {{.*}}[#hlo.buffer<temp, offset = 0, size = 4096>]
// CHECK-NEXT:  stablehlo.convert {{.*}}[#hlo.buffer<out 0>]
func.func @output_keeps_its_type(%p: tensor<1024xi32>) -> tensor<1024xf32> {
  %a = stablehlo.add %p, %p : tensor<1024xi32>
  %b = stablehlo.convert %a : (tensor<1024xi32>) -> tensor<1024xf32>
  func.return %b : tensor<1024xf32>
}

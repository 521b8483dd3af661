// RUN: not xlir-opt -p convert-loop-to-qdsp,qdsp-allocate-registers %s 2>&1 | filecheck %s

// Sixteen values live at once, beside the loop's counter: more than Q4's
// sixteen registers, which the allocator says (Q4 does not spill).
loop.kernel @sum16(%x: memref<16xf32>, %y: memref<4xf32>) {
  loop.parallel (%i) = (0) to (4) step (1) {
    %c0 = arith.constant 0 : index
    %v0 = loop.load %x[%c0] : memref<16xf32>
    %c1 = arith.constant 1 : index
    %v1 = loop.load %x[%c1] : memref<16xf32>
    %c2 = arith.constant 2 : index
    %v2 = loop.load %x[%c2] : memref<16xf32>
    %c3 = arith.constant 3 : index
    %v3 = loop.load %x[%c3] : memref<16xf32>
    %c4 = arith.constant 4 : index
    %v4 = loop.load %x[%c4] : memref<16xf32>
    %c5 = arith.constant 5 : index
    %v5 = loop.load %x[%c5] : memref<16xf32>
    %c6 = arith.constant 6 : index
    %v6 = loop.load %x[%c6] : memref<16xf32>
    %c7 = arith.constant 7 : index
    %v7 = loop.load %x[%c7] : memref<16xf32>
    %c8 = arith.constant 8 : index
    %v8 = loop.load %x[%c8] : memref<16xf32>
    %c9 = arith.constant 9 : index
    %v9 = loop.load %x[%c9] : memref<16xf32>
    %c10 = arith.constant 10 : index
    %v10 = loop.load %x[%c10] : memref<16xf32>
    %c11 = arith.constant 11 : index
    %v11 = loop.load %x[%c11] : memref<16xf32>
    %c12 = arith.constant 12 : index
    %v12 = loop.load %x[%c12] : memref<16xf32>
    %c13 = arith.constant 13 : index
    %v13 = loop.load %x[%c13] : memref<16xf32>
    %c14 = arith.constant 14 : index
    %v14 = loop.load %x[%c14] : memref<16xf32>
    %c15 = arith.constant 15 : index
    %v15 = loop.load %x[%c15] : memref<16xf32>
    %s14 = arith.addf %v15, %v14 : f32
    %s13 = arith.addf %s14, %v13 : f32
    %s12 = arith.addf %s13, %v12 : f32
    %s11 = arith.addf %s12, %v11 : f32
    %s10 = arith.addf %s11, %v10 : f32
    %s9 = arith.addf %s10, %v9 : f32
    %s8 = arith.addf %s9, %v8 : f32
    %s7 = arith.addf %s8, %v7 : f32
    %s6 = arith.addf %s7, %v6 : f32
    %s5 = arith.addf %s6, %v5 : f32
    %s4 = arith.addf %s5, %v4 : f32
    %s3 = arith.addf %s4, %v3 : f32
    %s2 = arith.addf %s3, %v2 : f32
    %s1 = arith.addf %s2, %v1 : f32
    %s0 = arith.addf %s1, %v0 : f32
    loop.store %s0, %y[%i] : memref<4xf32>
  }
  loop.return
}

// CHECK: error: @sum16 needs more than 16 registers

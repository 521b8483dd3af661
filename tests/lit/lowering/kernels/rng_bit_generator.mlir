// RUN: xlir-opt %s -p assign-buffers,hlo-to-loop --split-input-file | filecheck %s

// Threefry-2x32: the key words are split off state[0] once, before a
// loop.parallel over the 7 full 2-word blocks; block b encrypts the counter
// state[1] + b (its low and high words) and stores one ui32 per word, at 2b
// and 2b + 1 of the flattened output. The 15th element comes from block 7,
// computed after the loop; the next state advances the counter by 8 blocks.

// CHECK-LABEL: loop.kernel @rng_bit_generator_1(
// CHECK-SAME: %[[STATE:.*]]: memref<2xi64>, %[[NEXT:.*]]: memref<2xi64>, %[[BITS:.*]]: memref<3x5xi32>)
// CHECK:       %[[KEY:.*]] = loop.load %[[STATE]][%[[C0:.*]]] : memref<2xi64>
// CHECK:       %[[COUNTER:.*]] = loop.load %[[STATE]][%[[C1:.*]]] : memref<2xi64>
// CHECK:       %[[K0:.*]] = arith.trunci %[[KEY]] : i64 to i32
// CHECK-NEXT:  %[[C32:.*]] = arith.constant 32 : i64
// CHECK-NEXT:  %[[KH:.*]] = arith.shrui %[[KEY]], %[[C32]] : i64
// CHECK-NEXT:  %[[K1:.*]] = arith.trunci %[[KH]] : i64 to i32
// CHECK-NEXT:  %[[FLAT:.*]] = loop.reshape %[[BITS]] : memref<3x5xi32> -> memref<15xi32>
// CHECK-NEXT:  %[[PARITY:.*]] = arith.constant 466688986 : i32
// CHECK-NEXT:  %[[K01:.*]] = arith.xori %[[K0]], %[[K1]] : i32
// CHECK-NEXT:  %[[K2:.*]] = arith.xori %[[K01]], %[[PARITY]] : i32
// CHECK:       loop.parallel (%[[B:.*]]) = (0) to (7) step (1) {
// CHECK-NEXT:    %[[B64:.*]] = arith.index_cast %[[B]] : index to i64
// CHECK-NEXT:    %[[CTR:.*]] = arith.addi %[[COUNTER]], %[[B64]] : i64
// CHECK-NEXT:    %[[LO:.*]] = arith.trunci %[[CTR]] : i64 to i32
// CHECK-NEXT:    %[[CH:.*]] = arith.shrui %[[CTR]], %[[C32]] : i64
// CHECK-NEXT:    %[[HI:.*]] = arith.trunci %[[CH]] : i64 to i32
// CHECK-NEXT:    %[[X0:.*]] = arith.addi %[[LO]], %[[K0]] : i32
// CHECK-NEXT:    %[[X1:.*]] = arith.addi %[[HI]], %[[K1]] : i32
// CHECK-NEXT:    %[[Y0:.*]] = arith.addi %[[X0]], %[[X1]] : i32
// CHECK-NEXT:    %[[L:.*]] = arith.shli %[[X1]], %{{.*}} : i32
// CHECK-NEXT:    %[[R:.*]] = arith.shrui %[[X1]], %{{.*}} : i32
// CHECK-NEXT:    %[[ROT:.*]] = arith.ori %[[L]], %[[R]] : i32
// CHECK-NEXT:    %{{.*}} = arith.xori %[[ROT]], %[[Y0]] : i32
// CHECK:         %[[AT:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK-NEXT:    loop.store %[[W0:.*]], %[[FLAT]][%[[AT]]] : memref<15xi32>
// CHECK-NEXT:    %[[AT1:.*]] = arith.addi %[[AT]], %[[C1]] : index
// CHECK-NEXT:    loop.store %{{.*}}, %[[FLAT]][%[[AT1]]] : memref<15xi32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[C7:.*]] = arith.constant 7 : index
// CHECK-NEXT:  %{{.*}} = arith.index_cast %[[C7]] : index to i64
// CHECK:       %[[C14:.*]] = arith.constant 14 : index
// CHECK-NEXT:  loop.store %{{.*}}, %[[FLAT]][%[[C14]]] : memref<15xi32>
// CHECK-NEXT:  %[[BLOCKS:.*]] = arith.constant 8 : i64
// CHECK-NEXT:  %[[END:.*]] = arith.addi %[[COUNTER]], %[[BLOCKS]] : i64
// CHECK-NEXT:  loop.store %[[KEY]], %[[NEXT]][%[[C0]]] : memref<2xi64>
// CHECK-NEXT:  loop.store %[[END]], %[[NEXT]][%[[C1]]] : memref<2xi64>
// CHECK-NEXT:  loop.return
func.func @main(%state: tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui32>) {
  %s, %bits = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui32>)
  return %s, %bits : tensor<2xui64>, tensor<3x5xui32>
}

// -----

// Philox-4x32 with a 3-element state: the 128-bit counter is state[1]
// (low) and state[2] (high) plus the block, with carry; each round takes
// two 32x32->64 products; a ui64 element joins two words, low word first.
// The key schedule depends on the state only: computed before the loop.

// CHECK-LABEL: loop.kernel @rng_bit_generator_1(
// CHECK-SAME: %[[STATE:.*]]: memref<3xi64>, %[[NEXT:.*]]: memref<3xi64>, %[[BITS:.*]]: memref<4xi64>)
// CHECK:       loop.load %[[STATE]][%{{.*}}] : memref<3xi64>
// CHECK-NEXT:  %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:  %[[LOW:.*]] = loop.load %[[STATE]][%{{.*}}] : memref<3xi64>
// CHECK-NEXT:  %{{.*}} = arith.constant 2 : index
// CHECK-NEXT:  %[[HIGH:.*]] = loop.load %[[STATE]][%{{.*}}] : memref<3xi64>
// CHECK:       %[[M0:.*]] = arith.constant 3528531795 : i64
// CHECK-NEXT:  %[[M1:.*]] = arith.constant 3449720151 : i64
// CHECK-NEXT:  %[[WEYL0:.*]] = arith.constant -1640531527 : i32
// CHECK-NEXT:  %{{.*}} = arith.addi %{{.*}}, %[[WEYL0]] : i32
// CHECK:       loop.parallel (%[[B:.*]]) = (0) to (2) step (1) {
// CHECK-NOT:     arith.constant
// CHECK:         %[[CTR:.*]] = arith.addi %[[LOW]], %{{.*}} : i64
// CHECK-NEXT:    %[[WRAP:.*]] = arith.cmpi ult, %[[CTR]], %[[LOW]] : i64
// CHECK-NEXT:    %[[CARRY:.*]] = arith.extui %[[WRAP]] : i1 to i64
// CHECK-NEXT:    %{{.*}} = arith.addi %[[HIGH]], %[[CARRY]] : i64
// CHECK:         %[[C0:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK-NEXT:    %[[P0:.*]] = arith.muli %[[C0]], %[[M0]] : i64
// CHECK-NEXT:    %{{.*}} = arith.trunci %[[P0]] : i64 to i32
// CHECK-NEXT:    %[[P0H:.*]] = arith.shrui %[[P0]], %{{.*}} : i64
// CHECK-NEXT:    %{{.*}} = arith.trunci %[[P0H]] : i64 to i32
// CHECK-NEXT:    %[[C2:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK-NEXT:    %{{.*}} = arith.muli %[[C2]], %[[M1]] : i64
// CHECK:         %[[SH:.*]] = arith.shli %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    %[[E:.*]] = arith.ori %{{.*}}, %[[SH]] : i64
// CHECK:         loop.store %[[E]], %[[BITS]][%{{.*}}] : memref<4xi64>
// CHECK:         loop.store %{{.*}}, %[[BITS]][%{{.*}}] : memref<4xi64>
// CHECK-NEXT:  }
// CHECK-NOT:   arith.muli
// CHECK:       %[[BLOCKS:.*]] = arith.constant 2 : i64
// CHECK-NEXT:  %[[END:.*]] = arith.addi %[[LOW]], %[[BLOCKS]] : i64
// CHECK-NEXT:  %[[ENDWRAP:.*]] = arith.cmpi ult, %[[END]], %[[LOW]] : i64
// CHECK-NEXT:  %[[ENDCARRY:.*]] = arith.extui %[[ENDWRAP]] : i1 to i64
// CHECK-NEXT:  %[[ENDHIGH:.*]] = arith.addi %[[HIGH]], %[[ENDCARRY]] : i64
// CHECK:       loop.store %[[END]], %[[NEXT]][%{{.*}}] : memref<3xi64>
// CHECK-NEXT:  loop.store %[[ENDHIGH]], %[[NEXT]][%{{.*}}] : memref<3xi64>
// CHECK-NEXT:  loop.return
func.func @main(%state: tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui64>) {
  %s, %bits = stablehlo.rng_bit_generator %state, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui64>)
  return %s, %bits : tensor<3xui64>, tensor<4xui64>
}

// -----

// Narrow elements are cut from a word, low bytes first; floats are the bits
// bitcast. Three bf16 fill less than a block: no loop, one block of
// DEFAULT (Philox) at counter offset 0, and the counter advances by one.

// CHECK-LABEL: loop.kernel @rng_bit_generator_1(
// CHECK-SAME: %{{.*}}: memref<2xi64>, %{{.*}}: memref<2xi64>, %[[BITS:.*]]: memref<3xbf16>)
// CHECK-NOT:   loop.parallel
// CHECK:       %[[H0:.*]] = arith.trunci %[[W0:.*]] : i32 to i16
// CHECK-NEXT:  %[[F0:.*]] = arith.bitcast %[[H0]] : i16 to bf16
// CHECK-NEXT:  loop.store %[[F0]], %[[BITS]][%{{.*}}] : memref<3xbf16>
// CHECK-NEXT:  %[[C16:.*]] = arith.constant 16 : i32
// CHECK-NEXT:  %[[UP:.*]] = arith.shrui %[[W0]], %[[C16]] : i32
// CHECK-NEXT:  %[[H1:.*]] = arith.trunci %[[UP]] : i32 to i16
// CHECK-NEXT:  %[[F1:.*]] = arith.bitcast %[[H1]] : i16 to bf16
// CHECK-NEXT:  loop.store %[[F1]], %[[BITS]][%{{.*}}] : memref<3xbf16>
// CHECK-NEXT:  %[[H2:.*]] = arith.trunci %[[W1:.*]] : i32 to i16
// CHECK:       arith.constant 1 : i64
// CHECK-NOT:   loop.store %{{.*}} : memref<3xbf16>
// CHECK:       loop.return
func.func @main(%state: tensor<2xui64>) -> (tensor<2xui64>, tensor<3xbf16>) {
  %s, %bits = stablehlo.rng_bit_generator %state, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xbf16>)
  return %s, %bits : tensor<2xui64>, tensor<3xbf16>
}

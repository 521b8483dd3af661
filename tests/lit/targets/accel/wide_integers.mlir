// RUN: xlir-opt %s -p loop-to-accel | filecheck %s

// An i64 is two 32-bit words, low word first (manual table 2.7): a buffer
// of them moves raw with twice the bytes, each element is two `lw`/`sw`
// at offsets 0 and 4, and an add carries into the high word through
// `sltu` (the sum's low word below an addend's).
// CHECK-LABEL: accel.kernel "add", 3
// CHECK:         %[[BYTES:.*]] = accel.addi %{{.*}}, 8
// CHECK:         accel.dma.ld %{{.*}}, %{{.*}}, %[[BYTES]], 0
// CHECK:         %[[A0:.*]] = accel.lw 0(
// CHECK-NEXT:    %[[A1:.*]] = accel.lw 4(
// CHECK:         %[[B0:.*]] = accel.lw 64(
// CHECK:         %[[B1:.*]] = accel.lw 68(
// CHECK-NEXT:    %[[LOW:.*]] = accel.add %[[A0]], %[[B0]]
// CHECK-NEXT:    %[[CARRY:.*]] = accel.sltu %[[LOW]], %[[A0]]
// CHECK-NEXT:    %[[HIGH:.*]] = accel.add %[[A1]], %[[B1]]
// CHECK-NEXT:    %[[SUM:.*]] = accel.add %[[HIGH]], %[[CARRY]]
// CHECK:         accel.sw %[[LOW]], 128(
// CHECK:         accel.sw %[[SUM]], 132(
loop.kernel @add(%x: memref<i64>, %y: memref<i64>, %z: memref<i64>) {
  loop.parallel () = () to () step () {
    %a = loop.load %x[] : memref<i64>
    %b = loop.load %y[] : memref<i64>
    %c = arith.addi %a, %b : i64
    loop.store %c, %z[] : memref<i64>
  }
  loop.return
}

// A shift by a constant 32 or more moves one word into the other: the
// guarded shift of rng_bit_generator's split (a select of constants)
// folds to the high word stored as the low one (the low word is not
// even loaded), and no shift.
// CHECK-LABEL: accel.kernel "high_word", 2
// CHECK-NOT:     accel.lw 0(
// CHECK:         %[[HI:.*]] = accel.lw 4(
// CHECK-NOT:     accel.s{{(rl|ra|ll)}}
// CHECK:         accel.sw %[[HI]], 64(
// CHECK-NOT:     accel.s{{(rl|ra|ll)}}
// CHECK:         accel.halt
loop.kernel @high_word(%x: memref<i64>, %y: memref<i32>) {
  %n = arith.constant 32 : i64
  %limit = arith.constant 64 : i64
  %zero = arith.constant 0 : i64
  loop.parallel () = () to () step () {
    %a = loop.load %x[] : memref<i64>
    %in = arith.cmpi ult, %n, %limit : i64
    %amount = arith.select %in, %n, %zero : i64
    %s = arith.shrui %a, %amount : i64
    %r = arith.select %in, %s, %zero : i64
    %t = arith.trunci %r : i64 to i32
    loop.store %t, %y[] : memref<i32>
  }
  loop.return
}

// An i64 a loop carries is two carried words.
// CHECK-LABEL: accel.kernel "count", 1
// CHECK:         %{{.*}}, %{{.*}} = "accel.for"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{step = 1 : i32, hardware, operandSegmentSizes = array<i32: 1, 1, 2>}>
// CHECK:           accel.yield %{{.*}}, %{{.*}} : !accel.x, !accel.x
loop.kernel @count(%y: memref<i64>) {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  loop.parallel () = () to () step () {
    %n = loop.for %i = 0 to 10 step 1 iter_args(%c = %zero) -> (i64) {
      %d = arith.addi %c, %one : i64
      loop.yield %d : i64
    }
    loop.store %n, %y[] : memref<i64>
  }
  loop.return
}

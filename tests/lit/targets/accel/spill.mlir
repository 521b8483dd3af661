// RUN: xlir-opt %s -p accel-registers | filecheck %s
// RUN: xlir-opt %s -p accel-registers -o %t.mlir && xlir-accel run %t.mlir --kernel carry | filecheck %s --check-prefix=SIM

// A branch loop carrying 30 scalars, with its counter and bound: more than
// the 28 allocatable x registers. What does not fit lives in a spill slot
// below sp: each instruction reloads what it reads into a held-back register
// (s4, s5) and stores what it writes, the loop's counter and bound too (read
// by the lowered loop's branches); no register is left beyond the file.

// CHECK-LABEL: accel.kernel "carry", 0 attributes {spilled_values = {{[1-9][0-9]*}} : i64}
// CHECK-NOT:   _inf
// CHECK:       accel.bge %{{.*}}, %{{.*}}, ".Lfor1" : !accel.x<s4>, !accel.x<s5>
// CHECK-NEXT:  accel.label ".Lbody2"
// CHECK-NEXT:  %[[SP0:.*]] = accel.get_register : !accel.x<sp>
// CHECK-NEXT:  %[[D0:.*]] = accel.lw -{{[0-9]+}}(%[[SP0]]) : (!accel.x<sp>) -> !accel.x<s4>
// CHECK:       %e0 = accel.add %[[D0]], %{{.*}} : (!accel.x<s4>, !accel.x<s5>) -> !accel.x<s4>
// CHECK-NEXT:  accel.sw %e0, -{{[0-9]+}}(%{{.*}}) : !accel.x<s4>, !accel.x<sp>
// The counter's advance: reload, add, store, and the compare reloads the bound.
// CHECK:       %e29 = accel.add
// CHECK-NEXT:  %{{.*}} = accel.get_register : !accel.x<sp>
// CHECK-NEXT:  %[[I:.*]] = accel.lw -[[COUNTER:[0-9]+]](%{{.*}}) : (!accel.x<sp>) -> !accel.x<s4>
// CHECK-NEXT:  %[[SP1:.*]] = accel.get_register : !accel.x<sp>
// CHECK-NEXT:  %[[NEXT:.*]] = accel.addi %[[I]], 1 : (!accel.x<s4>) -> !accel.x<s4>
// CHECK-NEXT:  accel.sw %[[NEXT]], -[[COUNTER]](%[[SP1]])
// CHECK:       %[[BOUND:.*]] = accel.lw -{{[0-9]+}}(%{{.*}}) : (!accel.x<sp>) -> !accel.x<s5>
// CHECK-NEXT:  accel.blt %[[NEXT]], %[[BOUND]], ".Lbody2" : !accel.x<s4>, !accel.x<s5>
// CHECK-NEXT:  accel.label ".Lfor1"
// CHECK-NOT:   _inf
// CHECK:       accel.halt

// SIM: kernel carry: {{[0-9]+}} cycles

accel.kernel "carry", 0 {
  %z = accel.get_register : !accel.x<zero>
  %c0 = accel.addi %z, 1 : (!accel.x<zero>) -> !accel.x
  %c1 = accel.addi %z, 2 : (!accel.x<zero>) -> !accel.x
  %c2 = accel.addi %z, 3 : (!accel.x<zero>) -> !accel.x
  %c3 = accel.addi %z, 4 : (!accel.x<zero>) -> !accel.x
  %c4 = accel.addi %z, 5 : (!accel.x<zero>) -> !accel.x
  %c5 = accel.addi %z, 6 : (!accel.x<zero>) -> !accel.x
  %c6 = accel.addi %z, 7 : (!accel.x<zero>) -> !accel.x
  %c7 = accel.addi %z, 8 : (!accel.x<zero>) -> !accel.x
  %c8 = accel.addi %z, 9 : (!accel.x<zero>) -> !accel.x
  %c9 = accel.addi %z, 10 : (!accel.x<zero>) -> !accel.x
  %c10 = accel.addi %z, 11 : (!accel.x<zero>) -> !accel.x
  %c11 = accel.addi %z, 12 : (!accel.x<zero>) -> !accel.x
  %c12 = accel.addi %z, 13 : (!accel.x<zero>) -> !accel.x
  %c13 = accel.addi %z, 14 : (!accel.x<zero>) -> !accel.x
  %c14 = accel.addi %z, 15 : (!accel.x<zero>) -> !accel.x
  %c15 = accel.addi %z, 16 : (!accel.x<zero>) -> !accel.x
  %c16 = accel.addi %z, 17 : (!accel.x<zero>) -> !accel.x
  %c17 = accel.addi %z, 18 : (!accel.x<zero>) -> !accel.x
  %c18 = accel.addi %z, 19 : (!accel.x<zero>) -> !accel.x
  %c19 = accel.addi %z, 20 : (!accel.x<zero>) -> !accel.x
  %c20 = accel.addi %z, 21 : (!accel.x<zero>) -> !accel.x
  %c21 = accel.addi %z, 22 : (!accel.x<zero>) -> !accel.x
  %c22 = accel.addi %z, 23 : (!accel.x<zero>) -> !accel.x
  %c23 = accel.addi %z, 24 : (!accel.x<zero>) -> !accel.x
  %c24 = accel.addi %z, 25 : (!accel.x<zero>) -> !accel.x
  %c25 = accel.addi %z, 26 : (!accel.x<zero>) -> !accel.x
  %c26 = accel.addi %z, 27 : (!accel.x<zero>) -> !accel.x
  %c27 = accel.addi %z, 28 : (!accel.x<zero>) -> !accel.x
  %c28 = accel.addi %z, 29 : (!accel.x<zero>) -> !accel.x
  %c29 = accel.addi %z, 30 : (!accel.x<zero>) -> !accel.x
  %lo = accel.addi %z, 0 : (!accel.x<zero>) -> !accel.x
  %hi = accel.addi %z, 3 : (!accel.x<zero>) -> !accel.x
  %r:30 = "accel.for"(%lo, %hi, %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %c12, %c13, %c14, %c15, %c16, %c17, %c18, %c19, %c20, %c21, %c22, %c23, %c24, %c25, %c26, %c27, %c28, %c29) <{step = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 30>}> ({
  ^bb0(%i: !accel.x, %d0: !accel.x, %d1: !accel.x, %d2: !accel.x, %d3: !accel.x, %d4: !accel.x, %d5: !accel.x, %d6: !accel.x, %d7: !accel.x, %d8: !accel.x, %d9: !accel.x, %d10: !accel.x, %d11: !accel.x, %d12: !accel.x, %d13: !accel.x, %d14: !accel.x, %d15: !accel.x, %d16: !accel.x, %d17: !accel.x, %d18: !accel.x, %d19: !accel.x, %d20: !accel.x, %d21: !accel.x, %d22: !accel.x, %d23: !accel.x, %d24: !accel.x, %d25: !accel.x, %d26: !accel.x, %d27: !accel.x, %d28: !accel.x, %d29: !accel.x):
    %e0 = accel.add %d0, %d1 : (!accel.x, !accel.x) -> !accel.x
    %e1 = accel.add %d1, %d2 : (!accel.x, !accel.x) -> !accel.x
    %e2 = accel.add %d2, %d3 : (!accel.x, !accel.x) -> !accel.x
    %e3 = accel.add %d3, %d4 : (!accel.x, !accel.x) -> !accel.x
    %e4 = accel.add %d4, %d5 : (!accel.x, !accel.x) -> !accel.x
    %e5 = accel.add %d5, %d6 : (!accel.x, !accel.x) -> !accel.x
    %e6 = accel.add %d6, %d7 : (!accel.x, !accel.x) -> !accel.x
    %e7 = accel.add %d7, %d8 : (!accel.x, !accel.x) -> !accel.x
    %e8 = accel.add %d8, %d9 : (!accel.x, !accel.x) -> !accel.x
    %e9 = accel.add %d9, %d10 : (!accel.x, !accel.x) -> !accel.x
    %e10 = accel.add %d10, %d11 : (!accel.x, !accel.x) -> !accel.x
    %e11 = accel.add %d11, %d12 : (!accel.x, !accel.x) -> !accel.x
    %e12 = accel.add %d12, %d13 : (!accel.x, !accel.x) -> !accel.x
    %e13 = accel.add %d13, %d14 : (!accel.x, !accel.x) -> !accel.x
    %e14 = accel.add %d14, %d15 : (!accel.x, !accel.x) -> !accel.x
    %e15 = accel.add %d15, %d16 : (!accel.x, !accel.x) -> !accel.x
    %e16 = accel.add %d16, %d17 : (!accel.x, !accel.x) -> !accel.x
    %e17 = accel.add %d17, %d18 : (!accel.x, !accel.x) -> !accel.x
    %e18 = accel.add %d18, %d19 : (!accel.x, !accel.x) -> !accel.x
    %e19 = accel.add %d19, %d20 : (!accel.x, !accel.x) -> !accel.x
    %e20 = accel.add %d20, %d21 : (!accel.x, !accel.x) -> !accel.x
    %e21 = accel.add %d21, %d22 : (!accel.x, !accel.x) -> !accel.x
    %e22 = accel.add %d22, %d23 : (!accel.x, !accel.x) -> !accel.x
    %e23 = accel.add %d23, %d24 : (!accel.x, !accel.x) -> !accel.x
    %e24 = accel.add %d24, %d25 : (!accel.x, !accel.x) -> !accel.x
    %e25 = accel.add %d25, %d26 : (!accel.x, !accel.x) -> !accel.x
    %e26 = accel.add %d26, %d27 : (!accel.x, !accel.x) -> !accel.x
    %e27 = accel.add %d27, %d28 : (!accel.x, !accel.x) -> !accel.x
    %e28 = accel.add %d28, %d29 : (!accel.x, !accel.x) -> !accel.x
    %e29 = accel.add %d29, %i : (!accel.x, !accel.x) -> !accel.x
    accel.yield %e0, %e1, %e2, %e3, %e4, %e5, %e6, %e7, %e8, %e9, %e10, %e11, %e12, %e13, %e14, %e15, %e16, %e17, %e18, %e19, %e20, %e21, %e22, %e23, %e24, %e25, %e26, %e27, %e28, %e29 : !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x
  }) : (!accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x) -> (!accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x)
  accel.sw %r#0, 0(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#1, 4(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#2, 8(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#3, 12(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#4, 16(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#5, 20(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#6, 24(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#7, 28(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#8, 32(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#9, 36(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#10, 40(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#11, 44(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#12, 48(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#13, 52(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#14, 56(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#15, 60(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#16, 64(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#17, 68(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#18, 72(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#19, 76(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#20, 80(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#21, 84(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#22, 88(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#23, 92(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#24, 96(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#25, 100(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#26, 104(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#27, 108(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#28, 112(%z) : !accel.x, !accel.x<zero>
  accel.sw %r#29, 116(%z) : !accel.x, !accel.x<zero>
  accel.halt
}

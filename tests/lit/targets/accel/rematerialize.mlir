// RUN: xlir-opt %s -p accel-registers | filecheck %s
// RUN: xlir-opt %s -p accel-registers -o %t.mlir && xlir-accel run %t.mlir --kernel constants --output 1xi32 | filecheck %s --check-prefix=SIM

// A branch loop carrying 10 scalars whose body reads 20 constants made
// before it: with its counter and bound, 32 values live through the loop,
// more than the 28 allocatable x registers. Each read of a constant in the
// body gets its own copy, made right before it (rematerialize.py): then
// everything fits and nothing spills; the constants themselves are gone.

// CHECK-LABEL: accel.kernel "constants", 1 attributes {spilled_values = 0 : i64}
// CHECK-NOT:   accel.addi %{{.*}}, 1 :
// CHECK:       accel.label ".Lbody2"
// CHECK-NEXT:  %[[K0:.*]] = accel.addi %{{.*}}, 1 : (!accel.x<zero>) -> !accel.x<[[R:.*]]>
// CHECK-NEXT:  %{{.*}} = accel.add %{{.*}}, %[[K0]] : (!accel.x<{{.*}}>, !accel.x<[[R]]>)
// CHECK-NOT:   !accel.x<sp>
// CHECK:       accel.halt

// SIM: kernel constants: {{[0-9]+}} cycles

accel.kernel "constants", 1 {
^bb0(%out : !accel.x<a0>):
  %z = accel.get_register : !accel.x<zero>
  %k0 = accel.addi %z, 1 : (!accel.x<zero>) -> !accel.x
  %k1 = accel.addi %z, 2 : (!accel.x<zero>) -> !accel.x
  %k2 = accel.addi %z, 3 : (!accel.x<zero>) -> !accel.x
  %k3 = accel.addi %z, 4 : (!accel.x<zero>) -> !accel.x
  %k4 = accel.addi %z, 5 : (!accel.x<zero>) -> !accel.x
  %k5 = accel.addi %z, 6 : (!accel.x<zero>) -> !accel.x
  %k6 = accel.addi %z, 7 : (!accel.x<zero>) -> !accel.x
  %k7 = accel.addi %z, 8 : (!accel.x<zero>) -> !accel.x
  %k8 = accel.addi %z, 9 : (!accel.x<zero>) -> !accel.x
  %k9 = accel.addi %z, 10 : (!accel.x<zero>) -> !accel.x
  %k10 = accel.addi %z, 11 : (!accel.x<zero>) -> !accel.x
  %k11 = accel.addi %z, 12 : (!accel.x<zero>) -> !accel.x
  %k12 = accel.addi %z, 13 : (!accel.x<zero>) -> !accel.x
  %k13 = accel.addi %z, 14 : (!accel.x<zero>) -> !accel.x
  %k14 = accel.addi %z, 15 : (!accel.x<zero>) -> !accel.x
  %k15 = accel.addi %z, 16 : (!accel.x<zero>) -> !accel.x
  %k16 = accel.addi %z, 17 : (!accel.x<zero>) -> !accel.x
  %k17 = accel.addi %z, 18 : (!accel.x<zero>) -> !accel.x
  %k18 = accel.addi %z, 19 : (!accel.x<zero>) -> !accel.x
  %k19 = accel.addi %z, 20 : (!accel.x<zero>) -> !accel.x
  %c0 = accel.addi %z, 10 : (!accel.x<zero>) -> !accel.x
  %c1 = accel.addi %z, 10 : (!accel.x<zero>) -> !accel.x
  %c2 = accel.addi %z, 10 : (!accel.x<zero>) -> !accel.x
  %c3 = accel.addi %z, 10 : (!accel.x<zero>) -> !accel.x
  %c4 = accel.addi %z, 10 : (!accel.x<zero>) -> !accel.x
  %c5 = accel.addi %z, 10 : (!accel.x<zero>) -> !accel.x
  %c6 = accel.addi %z, 10 : (!accel.x<zero>) -> !accel.x
  %c7 = accel.addi %z, 10 : (!accel.x<zero>) -> !accel.x
  %c8 = accel.addi %z, 10 : (!accel.x<zero>) -> !accel.x
  %c9 = accel.addi %z, 10 : (!accel.x<zero>) -> !accel.x
  %lo = accel.addi %z, 0 : (!accel.x<zero>) -> !accel.x
  %hi = accel.addi %z, 3 : (!accel.x<zero>) -> !accel.x
  %r:10 = "accel.for"(%lo, %hi, %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9) <{step = 1 : i32, operandSegmentSizes = array<i32: 1, 1, 10>}> ({
  ^bb1(%i: !accel.x, %d0: !accel.x, %d1: !accel.x, %d2: !accel.x, %d3: !accel.x, %d4: !accel.x, %d5: !accel.x, %d6: !accel.x, %d7: !accel.x, %d8: !accel.x, %d9: !accel.x):
    %e0 = accel.add %d0, %k0 : (!accel.x, !accel.x) -> !accel.x
    %e1 = accel.add %d1, %k1 : (!accel.x, !accel.x) -> !accel.x
    %e2 = accel.add %d2, %k2 : (!accel.x, !accel.x) -> !accel.x
    %e3 = accel.add %d3, %k3 : (!accel.x, !accel.x) -> !accel.x
    %e4 = accel.add %d4, %k4 : (!accel.x, !accel.x) -> !accel.x
    %e5 = accel.add %d5, %k5 : (!accel.x, !accel.x) -> !accel.x
    %e6 = accel.add %d6, %k6 : (!accel.x, !accel.x) -> !accel.x
    %e7 = accel.add %d7, %k7 : (!accel.x, !accel.x) -> !accel.x
    %e8 = accel.add %d8, %k8 : (!accel.x, !accel.x) -> !accel.x
    %e9 = accel.add %d9, %k9 : (!accel.x, !accel.x) -> !accel.x
    %e10 = accel.add %e0, %k10 : (!accel.x, !accel.x) -> !accel.x
    %e11 = accel.add %e1, %k11 : (!accel.x, !accel.x) -> !accel.x
    %e12 = accel.add %e2, %k12 : (!accel.x, !accel.x) -> !accel.x
    %e13 = accel.add %e3, %k13 : (!accel.x, !accel.x) -> !accel.x
    %e14 = accel.add %e4, %k14 : (!accel.x, !accel.x) -> !accel.x
    %e15 = accel.add %e5, %k15 : (!accel.x, !accel.x) -> !accel.x
    %e16 = accel.add %e6, %k16 : (!accel.x, !accel.x) -> !accel.x
    %e17 = accel.add %e7, %k17 : (!accel.x, !accel.x) -> !accel.x
    %e18 = accel.add %e8, %k18 : (!accel.x, !accel.x) -> !accel.x
    %e19 = accel.add %e9, %k19 : (!accel.x, !accel.x) -> !accel.x
    accel.yield %e10, %e11, %e12, %e13, %e14, %e15, %e16, %e17, %e18, %e19 : !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x
  }) : (!accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x) -> (!accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x, !accel.x)
  %s0 = accel.add %r#0, %r#1 : (!accel.x, !accel.x) -> !accel.x
  %s1 = accel.add %s0, %r#2 : (!accel.x, !accel.x) -> !accel.x
  %s2 = accel.add %s1, %r#3 : (!accel.x, !accel.x) -> !accel.x
  %s3 = accel.add %s2, %r#4 : (!accel.x, !accel.x) -> !accel.x
  %s4 = accel.add %s3, %r#5 : (!accel.x, !accel.x) -> !accel.x
  %s5 = accel.add %s4, %r#6 : (!accel.x, !accel.x) -> !accel.x
  %s6 = accel.add %s5, %r#7 : (!accel.x, !accel.x) -> !accel.x
  %s7 = accel.add %s6, %r#8 : (!accel.x, !accel.x) -> !accel.x
  %s8 = accel.add %s7, %r#9 : (!accel.x, !accel.x) -> !accel.x
  accel.sw %s8, 0(%z) : !accel.x, !accel.x<zero>
  %four = accel.addi %z, 4 : (!accel.x<zero>) -> !accel.x
  accel.dma.st %z, %out, %four, 0 : !accel.x<zero>, !accel.x<a0>, !accel.x
  accel.dma.wait 0
  accel.halt
}

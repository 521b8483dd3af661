// `xlir-opt -t asm`: the kernels of a target's own assembly dialect (here
// XA-1's) as assembly, one line per op, the ops around them left out; a
// module without such a kernel, or a kernel holding an op with no assembly,
// is a diagnostic.
// RUN: xlir-opt -t asm %s | filecheck %s
// RUN: not xlir-opt -t asm %S/Inputs/softmax.mlir 2>&1 | filecheck %s --check-prefix=NONE
// RUN: not xlir-opt -t asm %S/Inputs/asm_not_lowered.mlir 2>&1 | filecheck %s --check-prefix=LEFT

func.func @host() {
  func.return
}

accel.kernel "scale", 2 {
^bb0(%a0 : !accel.x<a0>, %a1 : !accel.x<a1>):
  %z = accel.get_register : !accel.x<zero>
  %t0 = accel.addi %z, 1 : (!accel.x<zero>) -> !accel.x<t0>
  %t1 = accel.lui 1 : !accel.x<t1>
  accel.halt
}

// CHECK:      .kernel scale, 2
// CHECK-NEXT:     addi t0, zero, 1
// CHECK-NEXT:     lui t1, 1
// CHECK-NEXT:     halt
// CHECK-NOT:  {{.}}

// NONE: error: no op of the module has assembly; expected the kernels of a target's assembly dialect (run its lowering first)

// LEFT: asm_not_lowered.mlir:5:3: error: 'arith.constant' has no assembly: its kernel is not fully lowered

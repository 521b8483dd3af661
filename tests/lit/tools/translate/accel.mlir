// XA-1's translations, registered by targets/accel (entry-point group
// xlir.translations): the accel dialect to assembly text and to an object
// file, and an object file back to assembly, whose reassembly gives the
// same bytes.

// RUN: xlir-translate %s --target accel-asm | filecheck %s --check-prefix=ASM
// ASM:      .kernel double, 1
// ASM-NEXT:     vld v0, 0(a0)
// ASM-NEXT:     vfadd v1, v0, v0
// ASM-NEXT:     vst v1, 64(zero)
// ASM-NEXT:     halt

// RUN: xlir-translate %s --target accel-obj -o %t.xa1
// RUN: xlir-translate --disassemble %t.xa1 | filecheck %s --check-prefix=DISASM
// RUN: xlir-translate --target accel-disasm %t.xa1 -o %t.s
// RUN: xlir-translate --target accel-obj %t.s -o %t.again.xa1
// RUN: cmp %t.xa1 %t.again.xa1
// DISASM:      .kernel double, 1
// DISASM-NEXT:     vld v0, 0(a0)          {{ *}}# 0x0000: a00a0000
// DISASM-NEXT:     vfadd v1, v0, v0       {{ *}}# 0x0004: b4200000
// DISASM-NEXT:     vst v1, 64(zero)       {{ *}}# 0x0008: a4200040
// DISASM-NEXT:     halt                   {{ *}}# 0x000c: 74000000

// The listing names every translation with its one line.
// RUN: xlir-translate --list-translations | filecheck %s --check-prefix=LIST
// LIST: Translations (--target NAME):
// LIST: accel-asm {{ +}}XA-1 assembly text of an accel-dialect module
// LIST: accel-disasm {{ +}}XA-1 assembly text of an object file (.xa1)
// LIST: accel-obj {{ +}}XA-1 object file (.xa1)
// LIST: asm {{ +}}the LLVM backend's assembly
// LIST: llvmir {{ +}}LLVM IR
// LIST: obj {{ +}}the LLVM backend's object file

accel.kernel "double", 1 {
^bb0(%a0 : !accel.x<a0>):
  %z = accel.get_register : !accel.x<zero>
  %v = accel.vld 0(%a0) : (!accel.x<a0>) -> !accel.v<v0>
  %w = accel.vfadd %v, %v : (!accel.v<v0>, !accel.v<v0>) -> !accel.v<v1>
  accel.vst %w, 64(%z) : !accel.v<v1>, !accel.x<zero>
  accel.halt
}

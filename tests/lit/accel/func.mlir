// A kernel calling a device-side function (manual sections 8.3, 9): the
// accel.func / accel.call / accel.ret ops round-trip, print as `.func`,
// `call` and `ret`, assemble to a kind-1 symbol, and the kernel runs on the
// simulator to the cycle count derived below.
// RUN: xlir-opt %s | xlir-opt | filecheck %s --check-prefix=IR
// RUN: xlir-accel asm %s | filecheck %s --check-prefix=ASM
// RUN: xlir-accel obj %s -o %t.xa1 && xlir-accel disasm %t.xa1 | filecheck %s --check-prefix=BIN
// RUN: xlir-accel run %s --kernel main --output 17xf32 | filecheck %s --check-prefix=PROFILE
// RUN: not xlir-accel run %s --kernel sumsq 2>&1 | filecheck %s --check-prefix=NOT-A-KERNEL

// out[0..15] = out[16] = the sum of squares of 0..15 (1240.0).
accel.kernel "main", 1 {
^bb0(%a0 : !accel.x<a0>):
  %z = accel.get_register : !accel.x<zero>
  %out = accel.addi %a0, 0 : (!accel.x<a0>) -> !accel.x<s0>
  %i = accel.vidx : !accel.v<v1>
  %f = accel.vcvt.f32.i32 %i : (!accel.v<v1>) -> !accel.v<v1>
  accel.vst %f, 0(%z) : !accel.v<v1>, !accel.x<zero>
  %arg = accel.addi %z, 0 : (!accel.x<zero>) -> !accel.x<a0>
  %sum, %lanes = accel.call @sumsq(%arg) : (!accel.x<a0>) -> (!accel.x<a0>, !accel.v<v0>)
  accel.vst %lanes, 64(%z) : !accel.v<v0>, !accel.x<zero>
  accel.sw %sum, 128(%z) : !accel.x<a0>, !accel.x<zero>
  %one = accel.addi %z, 1 : (!accel.x<zero>) -> !accel.x<t0>
  accel.dma.cfg %one, %z, %z, "raw" : !accel.x<t0>, !accel.x<zero>, !accel.x<zero>
  %bytes = accel.addi %z, 68 : (!accel.x<zero>) -> !accel.x<t1>
  %from = accel.addi %z, 64 : (!accel.x<zero>) -> !accel.x<t2>
  accel.dma.st %from, %out, %bytes, 0 : !accel.x<t2>, !accel.x<s0>, !accel.x<t1>
  accel.dma.wait 0
  accel.halt
}

// a0 = the scratchpad address of 16 f32: v0 = their sum of squares in every
// lane, a0 = its bits.
accel.func "sumsq", 1 {
^bb0(%a0 : !accel.x<a0>):
  %v = accel.vld 0(%a0) : (!accel.x<a0>) -> !accel.v<v0>
  %sq = accel.vfmul %v, %v : (!accel.v<v0>, !accel.v<v0>) -> !accel.v<v0>
  %r = accel.vredsum.f %sq : (!accel.v<v0>) -> !accel.v<v0>
  %s = accel.vext %r, 0 : (!accel.v<v0>) -> !accel.x<a0>
  accel.ret %s, %r : !accel.x<a0>, !accel.v<v0>
}

// IR:      accel.kernel "main", 1 {
// IR:        %{{.*}}, %{{.*}} = accel.call @sumsq(%{{.*}}) : (!accel.x<a0>) -> (!accel.x<a0>, !accel.v<v0>)
// IR:      accel.func "sumsq", 1 {
// IR-NEXT: ^{{.*}}(%{{.*}}: !accel.x<a0>):
// IR:        accel.ret %{{.*}}, %{{.*}} : !accel.x<a0>, !accel.v<v0>

// ASM:      .kernel main, 1
// ASM:          addi a0, zero, 0
// ASM-NEXT:     call sumsq
// ASM-NEXT:     vst v0, 64(zero)
// ASM:          halt
// ASM-NEXT: .func sumsq, 1
// ASM-NEXT:     vld v0, 0(a0)
// ASM-NEXT:     vfmul v0, v0, v0
// ASM-NEXT:     vredsum.f v0, v0
// ASM-NEXT:     vext a0, v0, 0
// ASM-NEXT:     ret

// BIN:      .kernel main, 1
// BIN:          jal ra, 10 {{ *}}# 0x0014: 6820000a -> 0x003c
// BIN:      .func sumsq, 1
// BIN:          jalr zero, ra, 0 {{ *}}# 0x004c: 6c010000

// Cycles: 6 kernel instructions up to the call (the jal) + the function's 8
// (vredsum.f costs 4) + 6 more = 20; dma.st issues at 20 and completes at
// 20 + ceil(68/32) + 100 = 123; dma.wait issues then (t = 124), halt at 124.
// PROFILE:      kernel main: 125 cycles
// PROFILE-NEXT:   instructions: 20 (scalar 9, vector 8, matrix 0, dma 3)

// NOT-A-KERNEL: error: 'sumsq' is a function, not a kernel

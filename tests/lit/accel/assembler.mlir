// The assembler's diagnostics carry the line and column of the text; the
// manual's example A runs on the simulator to its exact cycle count.
// RUN: not xlir-accel obj %S/Inputs/errors.s -o %t.xa1 2>&1 | filecheck %s --check-prefix=ERR
// RUN: xlir-accel run %S/../../accel/vadd4096.s --kernel vadd4096 --output 4096xf32 --output 4096xf32 --output 4096xf32 | filecheck %s --check-prefix=PROFILE
// RUN: not xlir-accel run %S/../../accel/vadd4096.s --kernel vadd4096 2>&1 | filecheck %s --check-prefix=ARGS
// RUN: not xlir-accel run %S/Inputs/hazard.s --kernel hazard 2>&1 | filecheck %s --check-prefix=HAZARD
// RUN: not xlir-accel asm %S/Inputs/unallocated.mlir 2>&1 | filecheck %s --check-prefix=UNALLOCATED

// ERR:      errors.s:2:18: error: signed 16-bit immediate 40000 is out of range [-32768, 32767]
// ERR-NEXT: errors.s:3:14: error: expected a vector register, found scalar register 't0'
// ERR-NEXT: errors.s:4:5: error: unknown mnemonic 'frobnicate'
// ERR-NEXT: errors.s:5:17: error: unknown label 'nowhere'
// ERR-NEXT: errors.s:6:14: error: expected a scalar register, found vector register 'v3'
// ERR-NEXT: errors.s:7:11: error: expected a matrix register, found 'm4'
// ERR-NEXT: errors.s:8:25: error: expected a DMA mode (raw, i8, u8, i16, u16, f16, bf16), found 'f64'
// ERR-NEXT: errors.s:9:18: error: shift amount 32 is out of range [0, 31]
// ERR-NEXT: errors.s:10:5: error: 'add' takes 3 operands, found 2
// ERR-NEXT: errors.s:12:5: error: '.align' is not allowed in .text
// ERR-NOT:  error

// PROFILE:      kernel vadd4096: 3910 cycles
// PROFILE-NEXT:   instructions: 1586 (scalar 541, vector 1024, matrix 0, dma 21)
// PROFILE:        DMA busy: 1536 cycles (39.3 %), 49152 DRAM bytes

// ARGS: xlir-accel: error: kernel 'vadd4096' takes 3 arguments, got 0

// HAZARD: hazard.s: error: DMA_HAZARD in kernel 'hazard' at pc 0x8 (vld v0, 0(zero)), cycle 2: reads [0x0, 0x40), in the footprint of an outstanding dma.ld with tag 0

// UNALLOCATED: unallocated.mlir:3:3: error: 'accel.addi' has an unallocated !accel.x register (assembly needs register allocation first)

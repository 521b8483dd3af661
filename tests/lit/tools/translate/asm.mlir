// Assembly for the host, and for other triples with their CPU and features.

// RUN: xlir-translate %S/Inputs/fma_kernel.mlir --target asm | filecheck %s --check-prefix=HOST
// HOST: {{_?}}main:

// RUN: xlir-translate %S/Inputs/fma_kernel.mlir --target asm -O3 --triple aarch64-linux-gnu | filecheck %s --check-prefix=AARCH64
// AARCH64: main:
// AARCH64: fmla v{{[0-9]+}}.4s, v{{[0-9]+}}.4s, v{{[0-9]+}}.4s
// AARCH64: ret

// A generic x86-64 has no FMA instruction: fmaf is called. A CPU or a
// feature that has it gets vfmadd.
// RUN: xlir-translate %S/Inputs/fma_kernel.mlir --target asm -O3 --triple x86_64-linux-gnu | filecheck %s --check-prefix=X86-GENERIC
// X86-GENERIC: main:
// X86-GENERIC-NOT: vfmadd
// X86-GENERIC: call{{q?}} fmaf
// X86-GENERIC-NOT: vfmadd
// RUN: xlir-translate %S/Inputs/fma_kernel.mlir --target asm -O3 --triple x86_64-linux-gnu --cpu haswell | filecheck %s --check-prefix=X86-FMA
// RUN: xlir-translate %S/Inputs/fma_kernel.mlir --target asm -O3 --triple x86_64-linux-gnu --features +avx,+fma | filecheck %s --check-prefix=X86-FMA
// X86-FMA: main:
// X86-FMA-NOT: fmaf
// X86-FMA: vfmadd{{[0-9]+}}ps {{.*}}%ymm
// X86-FMA-NOT: fmaf

// RUN: xlir-translate %S/Inputs/fma_kernel.mlir --target asm -O3 --triple riscv64-linux-gnu --features=+f,+d,+v | filecheck %s --check-prefix=RISCV
// RISCV: main:
// RISCV: vfmacc.vv
// RISCV: ret

// Every mistake is one diagnostic and exit status 1, never a traceback.

// RUN: not xlir-compile %s --triple z80-none-elf -o %t.o 2>&1 | filecheck %s --check-prefix=TRIPLE
// TRIPLE: error: no LLVM target for triple 'z80-none-elf' ({{.*}}); this LLVM has: x86_64, {{.*}}aarch64, {{.*}}riscv64

// RUN: not xlir-compile %s --target interpreter -o %t.o 2>&1 | filecheck %s --check-prefix=NOT-AOT
// NOT-AOT: error: target 'interpreter' does not compile ahead of time (targets that do: {{.*}}cpu{{.*}})

// RUN: not xlir-compile %s --entry 2fast -o %t.o 2>&1 | filecheck %s --check-prefix=ENTRY
// ENTRY: error: entry name '2fast' is not a C identifier

// RUN: not xlir-compile %s --function nope -o %t.o 2>&1 | filecheck %s --check-prefix=FUNCTION
// FUNCTION: error: there is no function @nope in the module (functions: @main)

// RUN: not xlir-compile %s --triple aarch64-linux-gnu --cpu native -o %t.o 2>&1 | filecheck %s --check-prefix=NATIVE
// NATIVE: error: --cpu native needs the host triple (no --triple)

// RUN: not xlir-compile %S/Inputs/bad_syntax.mlir -o %t.o 2>&1 | filecheck %s --check-prefix=SYNTAX
// SYNTAX: bad_syntax.mlir:[[#]]:[[#]]: error:

// RUN: not xlir-compile %S/Inputs/missing.mlir -o %t.o 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: error: cannot read {{.*}}missing.mlir: No such file or directory

// RUN: not xlir-compile %S/Inputs -o %t.o 2>&1 | filecheck %s --check-prefix=FOLDER
// FOLDER: error: cannot read {{.*}}Inputs: Is a directory

// RUN: not xlir-compile %S/Inputs/unsupported.mlir -o %t.o 2>&1 | filecheck %s --check-prefix=NO-KERNEL
// NO-KERNEL: cannot lower
// NO-KERNEL: unsupported.mlir:[[#]]:[[#]]: error:

func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = stablehlo.add %x, %x : tensor<4xf32>
  func.return %y : tensor<4xf32>
}

// RUN: not xlir-compile %s --threads 0 -o %t.o 2>&1 | filecheck %s --check-prefix=THREADS
// THREADS: error: --threads must be at least 1, not 0

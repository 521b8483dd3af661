// Each failure is one diagnostic and exit code 1, never a traceback.

// RUN: not xlir-translate %S/Inputs/bad_syntax.mlir 2>&1 | filecheck %s --check-prefix=SYNTAX
// SYNTAX: bad_syntax.mlir:3:3: error:
// SYNTAX-NEXT: llvm.return
// SYNTAX-NEXT: ^
// SYNTAX-NOT: Traceback

// The backend is a registered target's LLVM backend; one without is refused.
// RUN: not xlir-translate %S/Inputs/hlo_add.mlir --backend interpreter 2>&1 | filecheck %s --check-prefix=BACKEND
// BACKEND: error: target 'interpreter' does not compile through LLVM
// RUN: not xlir-translate %S/Inputs/hlo_add.mlir --backend nope 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown target 'nope' (known targets: {{.*}}cpu{{.*}})
// RUN: not xlir-translate %S/Inputs/hlo_add.mlir --backend cpu 2>&1 | filecheck %s --check-prefix=HLO

// Above the llvm level: every kind of op that is left, where its first one
// stands, and the pipeline that lowers the module from its level (the cpu
// target's, whatever loop passes it holds before loop-to-llvm).
// RUN: not xlir-translate %S/Inputs/hlo_add.mlir 2>&1 | filecheck %s --check-prefix=HLO
// HLO: error: xlir-translate needs the llvm dialect; found 'func.func' at {{.*}}hlo_add.mlir:1:1, 'stablehlo.add' at {{.*}}hlo_add.mlir:2:3 (and 1 more), 'func.return' at {{.*}}hlo_add.mlir:4:3; run `xlir-opt -p {{.*}}dot-layout{{.*}},conv-padding,fuse,unpad-convs,assign-buffers,hlo-to-loop,{{.*}}loop-to-llvm{{.*}},device-to-llvm` first

// RUN: xlir-opt %S/Inputs/hlo_add.mlir -p hlo-opt,hlo-to-loop -o %t.loop.mlir
// RUN: not xlir-translate %t.loop.mlir 2>&1 | filecheck %s --check-prefix=LOOP
// LOOP: error: xlir-translate needs the llvm dialect; found 'loop.kernel' at {{.*}}.loop.mlir:2:3, 'loop.parallel' at {{.*}}.loop.mlir:3:5,
// LOOP-SAME: 'loop.yield', 'loop.return' at
// LOOP-SAME: run `xlir-opt -p {{.*}}loop-to-llvm{{.*}},device-to-llvm` first

// RUN: xlir-opt %S/Inputs/hlo_add.mlir -p hlo-opt,hlo-to-loop,expand-math,loop-to-llvm -o %t.host.mlir
// RUN: not xlir-translate %t.host.mlir 2>&1 | filecheck %s --check-prefix=HOST
// HOST: error: xlir-translate needs the llvm dialect; found 'func.func' at {{.*}}.host.mlir:{{[0-9]+}}:{{[0-9]+}}, {{.*}}'device.launch' at
// HOST-SAME: run `xlir-opt -p device-to-llvm` first

// RUN: not xlir-translate %S/Inputs/fma_kernel.mlir --triple frobnicator-unknown-linux 2>&1 | filecheck %s --check-prefix=TRIPLE
// TRIPLE: xlir-translate: error: no LLVM target for triple 'frobnicator-unknown-linux'{{.*}}; this LLVM has: x86_64, {{.*}}aarch64, {{.*}}riscv64{{.*}}

// RUN: not xlir-translate %S/Inputs/does_not_exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: error: cannot read {{.*}}does_not_exist.mlir: No such file or directory

// RUN: not xlir-translate %S/Inputs/fma_kernel.mlir -O4 2>&1 | filecheck %s --check-prefix=LEVEL
// LEVEL: xlir-translate: error: argument -O: invalid choice: 4

// Ahead of time for accel: one file, the kernels' XA1 object and the program
// section (the host schedule), run as it is by xlir-run, with the JIT's
// results bit for bit.

// RUN: xlir-compile %s --target accel -o %t.xa1
// RUN: xlir-run %s --target accel --random --output %t.jit.npz
// RUN: xlir-run %t.xa1 --random --expected %t.jit.npz --rtol 0 --atol 0 | filecheck %s --check-prefix=OUT
// OUT:      out0: tensor<4x32xf32> =
// OUT-NEXT: out1: tensor<4xi32> = [0 1 8 3]
// OUT-NEXT: out0: ok: within rtol=0 atol=0 (max abs err 0, max rel err 0)
// OUT-NEXT: out1: ok: exact match
// OUT-NEXT: PASSED
// OUT-NEXT: time per call: {{.*}} on accel

// The disassembly is the object's (the constant in its rodata), then the
// program section as comments.
// RUN: xlir-translate --disassemble %t.xa1 | filecheck %s --check-prefix=DISASM
// DISASM:      .kernel {{.*}}, 3
// DISASM:      halt
// DISASM:      .rodata
// DISASM-NEXT:     .byte 3, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0
// DISASM:      # program section: @main(arg0: tensor<4x32xf32>, arg1: tensor<4x32xf32>) -> (tensor<4x32xf32>, tensor<4xi32>)
// DISASM-NEXT: # scratchpad high-water mark: {{[0-9]+}} bytes
// DISASM-NEXT: # host schedule:
// DISASM:      #     device.launch @

func.func public @main(%x: tensor<4x32xf32>, %y: tensor<4x32xf32>) -> (tensor<4x32xf32>, tensor<4xi32>) {
  %s = stablehlo.multiply %x, %y : tensor<4x32xf32>
  %e = stablehlo.exponential %s : tensor<4x32xf32>
  %i = stablehlo.iota dim = 0 : tensor<4xi32>
  %c = stablehlo.constant dense<[3, 1, 4, 1]> : tensor<4xi32>
  %m = stablehlo.multiply %i, %c : tensor<4xi32>
  func.return %e, %m : tensor<4x32xf32>, tensor<4xi32>
}

// The file's own checks: what it is compiled for, what it needs, intact bytes.
// RUN: not xlir-run %t.xa1 --target cpu --random 2>&1 | filecheck %s --check-prefix=OTHER-TARGET
// OTHER-TARGET: xlir-run: error: {{.*}}.xa1 is compiled for target 'accel'; it does not run on 'cpu' (drop --target, or compile the .mlir for it)
// RUN: not xlir-run %t.xa1 --random --profile 2>&1 | filecheck %s --check-prefix=PROFILE
// PROFILE: xlir-run: error: --profile needs the program's source: {{.*}}.xa1 is compiled already; give the .mlir
// RUN: not xlir-run %t.xa1 2>&1 | filecheck %s --check-prefix=INPUTS
// INPUTS: xlir-run: error: @main takes 2 argument(s) (arg0: tensor<4x32xf32>, arg1: tensor<4x32xf32>); give --inputs FILE.npz or --random
// RUN: head -c 100 %t.xa1 > %t.cut.xa1
// RUN: not xlir-run %t.cut.xa1 --random 2>&1 | filecheck %s --check-prefix=TRUNCATED
// TRUNCATED: {{.*}}.cut.xa1: error: not a loadable XA-1 object: code [64, +{{[0-9]+}}) is outside the file
// TRUNCATED-NOT: Traceback
// RUN: head -c 64 %t.xa1 > %t.short.xa1 && printf 'CORRUPT!' >> %t.short.xa1 && tail -c +73 %t.xa1 >> %t.short.xa1
// RUN: not xlir-run %t.short.xa1 --random 2>&1 | filecheck %s --check-prefix=CORRUPTED
// CORRUPTED: {{.*}}.short.xa1: error: the object's bytes do not match the checksum its program section records: the file is corrupted

// Options of a C object do not apply to XA-1's program.
// RUN: not xlir-compile %s --target accel --triple x86_64-linux-gnu --cpu native -o %t.other.xa1 2>&1 | filecheck %s --check-prefix=OPTIONS
// OPTIONS: error: target 'accel' compiles for XA-1, one core with no C entry point: --triple, --cpu do not apply; drop it
// RUN: not xlir-compile %s --target accel --header %t.h -o %t.other.xa1 2>&1 | filecheck %s --check-prefix=HEADER
// HEADER: xlir-compile: error: --header: target 'accel' writes no C header (its output is a device's program, not an object to link); drop it

// Each failure of a translation is one diagnostic and exit code 1.

// An unknown translation lists the registered ones.
// RUN: not xlir-translate %s --target nope 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown translation 'nope' (known translations: accel-asm, accel-disasm, accel-obj, asm, llvmir, obj)

// The assembler's diagnostics point into the .s file.
// RUN: not xlir-translate --target accel-obj %S/../../accel/Inputs/errors.s -o %t.xa1 2>&1 | filecheck %s --check-prefix=ASSEMBLER
// ASSEMBLER:      errors.s:2:18: error: signed 16-bit immediate 40000 is out of range [-32768, 32767]
// ASSEMBLER-NEXT: errors.s:3:14: error: expected a vector register, found scalar register 't0'
// ASSEMBLER-NOT:  Traceback

// A module that is not in the accel dialect has no assembly.
// RUN: not xlir-translate --target accel-asm %S/Inputs/hlo_add.mlir 2>&1 | filecheck %s --check-prefix=NOT-ACCEL
// NOT-ACCEL: hlo_add.mlir:1:1: error: 'func.func' is not in the accel dialect: it has no XA-1 assembly

// A disassembler reads only its own magic; --disassemble finds none for text.
// RUN: not xlir-translate --target accel-disasm %s 2>&1 | filecheck %s --check-prefix=MAGIC
// MAGIC: xlir-translate: error: {{.*}}accel_errors.mlir: 'accel-disasm' reads a file that starts with b'XA1\x00', found b'// E'
// RUN: not xlir-translate --disassemble %s 2>&1 | filecheck %s --check-prefix=NO-DISASSEMBLER
// NO-DISASSEMBLER: error: {{.*}}accel_errors.mlir: no registered translation reads a file that starts with b'// E' (disassemblers and the magic they read: accel-disasm (b'XA1\x00'))

// A binary output needs -o; the LLVM options are the LLVM translations' only.
// RUN: not xlir-translate --target accel-obj %s 2>&1 | filecheck %s --check-prefix=BINARY
// BINARY: xlir-translate: error: --target accel-obj writes binary: give -o FILE
// RUN: not xlir-translate --target accel-asm --triple aarch64-linux-gnu -O2 %s 2>&1 | filecheck %s --check-prefix=LLVM-OPTIONS
// LLVM-OPTIONS: xlir-translate: error: --triple, -O: only the LLVM translations take these, not 'accel-asm'

// Each failure is one diagnostic with file:line:col and a caret, exit code 1.

// RUN: not xlir-opt %S/Inputs/unknown_op.mlir 2>&1 | filecheck %s --check-prefix=UNKNOWN-OP
// UNKNOWN-OP: unknown_op.mlir:2:{{[0-9]+}}: error: Operation stablehlo.frobnicate is not registered
// UNKNOWN-OP-NEXT: stablehlo.frobnicate
// UNKNOWN-OP-NEXT: ^
// UNKNOWN-OP-NOT: Traceback

// RUN: not xlir-opt %S/Inputs/bad_syntax.mlir 2>&1 | filecheck %s --check-prefix=SYNTAX
// SYNTAX: bad_syntax.mlir:2:{{[0-9]+}}: error:
// SYNTAX-NOT: Traceback

// An unterminated string literal: a diagnostic at once (xlir/lexing.py).
// RUN: not xlir-opt %S/Inputs/unterminated_string.mlir 2>&1 | filecheck %s --check-prefix=STRING
// STRING: unterminated_string.mlir:1:69: error: End of file reached before closing string literal.
// STRING-NOT: Traceback

// RUN: not xlir-opt %S/Inputs/bad_verify.mlir 2>&1 | filecheck %s --check-prefix=VERIFY
// VERIFY: bad_verify.mlir:2:3: error: 'stablehlo.transpose' op permutation [1] is not a permutation of [0, 1)
// VERIFY-NEXT: %0 = stablehlo.transpose
// VERIFY-NEXT: ^

// RUN: not xlir-opt -p no-such-pass %S/Inputs/bad_verify.mlir 2>&1 | filecheck %s --check-prefix=PASS
// PASS: xlir-opt: error: {{.*}}no-such-pass
// PASS-NOT: Traceback

// RUN: not xlir-opt %S/Inputs/does_not_exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: xlir-opt: error: cannot read {{.*}}does_not_exist.mlir: No such file or directory

// RUN: not xlir-opt %S/Inputs 2>&1 | filecheck %s --check-prefix=FOLDER
// FOLDER: xlir-opt: error: cannot read {{.*}}Inputs: Is a directory

// RUN: not xlir-opt %S/Inputs/bad_verify.mlir -o %S/Inputs 2>&1 | filecheck %s --check-prefix=WRITE
// WRITE: xlir-opt: error: cannot write {{.*}}Inputs: Is a directory

// xDSL's targets print its own dialects; xlir-opt offers mlir and asm
// (tools/opt_asm.mlir).
// RUN: not xlir-opt %S/Inputs/bad_verify.mlir -t riscv-asm 2>&1 | filecheck %s --check-prefix=TARGET
// TARGET: xlir-opt: error: argument -t/--target: invalid choice: 'riscv-asm' (choose from mlir, asm)

// xdsl-opt flags that xlir-opt's driver does not implement are not offered.
// RUN: not xlir-opt %S/Inputs/bad_verify.mlir --time-passes 2>&1 | filecheck %s --check-prefix=TIME
// TIME: xlir-opt: error: unrecognized arguments: --time-passes
// RUN: xlir-opt --help | filecheck %s --check-prefix=HELP
// HELP-NOT: --time-passes
// HELP-NOT: --print-between-passes
// HELP-NOT: --shrink
// HELP: --pass-timing

// RUN: not xlir-opt %S/Inputs/bad_verify.mlir -p 'vectorize{max-opz=3}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: xlir-opt: error: pass 'vectorize' has no option 'max-opz'; its options: width (an integer, default 0), reassociate (true or false, default false)
// Options are spelled with dashes, as --list-passes and MLIR spell them, even
// where the command line used xDSL's underscores.
// RUN: not xlir-opt %S/Inputs/bad_verify.mlir -p 'fuse{max_opz=3}' 2>&1 | filecheck %s --check-prefix=OPTION-DASHES
// OPTION-DASHES: xlir-opt: error: pass 'fuse' has no option 'max-opz'; its options: explain (true or false, default false), max-ops (an integer, default 128), max-duplication (an integer, default 4)
// RUN: not xlir-opt %S/Inputs/bad_verify.mlir -p 'fuse{max_ops=x}' 2>&1 | filecheck %s --check-prefix=OPTION-TYPE-DASHES
// OPTION-TYPE-DASHES: xlir-opt: error: pass 'fuse': option 'max-ops' takes an integer, got 'x'
// RUN: not xlir-opt %S/Inputs/bad_verify.mlir -p 'vectorize{width=abc}' 2>&1 | filecheck %s --check-prefix=OPTION-TYPE
// OPTION-TYPE: xlir-opt: error: pass 'vectorize': option 'width' takes an integer, got 'abc'
// RUN: not xlir-opt %S/Inputs/bad_verify.mlir -p 'tile{sizes=a,b}' 2>&1 | filecheck %s --check-prefix=OPTION-LIST
// OPTION-LIST: xlir-opt: error: pass 'tile': option 'sizes' takes integers separated by commas, got 'a,b'
// RUN: not xlir-opt %S/Inputs/bad_verify.mlir -p 'cse{x=1}' 2>&1 | filecheck %s --check-prefix=NO-OPTIONS
// NO-OPTIONS: xlir-opt: error: pass 'cse' has no option 'x'; it takes no options

// RUN: not xlir-opt %S/Inputs/bad_verify.mlir -p cse --print-ir-after=csee 2>&1 | filecheck %s --check-prefix=AFTER
// AFTER: xlir-opt: error: --print-ir-after: unknown pass(es) 'csee'; known:

// Bytes that are not UTF-8 are located.
// RUN: printf 'func.func @f() {\n  \x89return\n}\n' > %t.bin
// RUN: not xlir-opt %t.bin 2>&1 | filecheck %s --check-prefix=BINARY
// BINARY: .bin:2:3: error: the input is not UTF-8 text (byte 0x89); expected StableHLO or MLIR text

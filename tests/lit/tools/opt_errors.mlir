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
// MISSING: xlir-opt: error: No such file or directory: {{.*}}does_not_exist.mlir

// Object files: written to -o FILE (ELF here, so the header is checked).

// RUN: xlir-translate %S/Inputs/fma_kernel.mlir --target obj -O3 --triple aarch64-linux-gnu -o %t.o
// RUN: python -c "import sys; data = open(sys.argv[1], 'rb').read(); print('magic', data[:4].hex(), 'machine', int.from_bytes(data[18:20], 'little'), 'main' if b'main' in data else 'no main', 'fusion' if b'fusion' in data else 'no fusion')" %t.o | filecheck %s --check-prefix=AARCH64
// ELF, e_machine 183 = EM_AARCH64; the entry is exported, the kernel inlined.
// AARCH64: magic 7f454c46 machine 183 main no fusion

// RUN: xlir-translate %S/Inputs/fma_kernel.mlir --target obj --triple riscv64-linux-gnu -o %t.o
// RUN: python -c "import sys; data = open(sys.argv[1], 'rb').read(); print('magic', data[:4].hex(), 'machine', int.from_bytes(data[18:20], 'little'), 'fusion' if b'fusion' in data else 'no fusion')" %t.o | filecheck %s --check-prefix=RISCV
// e_machine 243 = EM_RISCV; at -O0 the internal kernel is still there.
// RISCV: magic 7f454c46 machine 243 fusion

// Binary goes to a file or a pipe, and never by default to stdout.
// RUN: xlir-translate %S/Inputs/fma_kernel.mlir --target obj --triple aarch64-linux-gnu -o - | python -c "import sys; print('bytes', len(sys.stdin.buffer.read()) > 64)" | filecheck %s --check-prefix=PIPE
// PIPE: bytes True
// RUN: not xlir-translate %S/Inputs/fma_kernel.mlir --target obj 2>&1 | filecheck %s --check-prefix=NO-OUTPUT
// NO-OUTPUT: xlir-translate: error: --target obj writes binary: give -o FILE

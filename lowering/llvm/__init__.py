"""The loop level to xDSL's `llvm` dialect, for the CPU (docs/cpu.md).

`loop-to-llvm` turns each `loop.kernel` into an `llvm.func` over pointers and
each `loop.global` into an `llvm.mlir.global`; `device-to-llvm` turns each host
function into the native entry point that runs the kernels in order (no
Python between them). Files: `function` (one function's blocks and values),
`scalars` (arith and math), `control` (loops, scf), `threads` (loops
handed to the thread pool), `block_transfers` (copies and fills as
memcpy/memset), `memory` (buffers, globals), `host` (the device dialect on
the CPU), `passes` (the two passes).
"""

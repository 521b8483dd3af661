"""The loop level to xDSL's `llvm` dialect and on to machine code, for any
LLVM target (docs/cpu.md, "Lowering to LLVM").

A target extends `emitter.LLVMEmitter` (its `loop.parallel`, math calls,
kernel ABI, address spaces) and registers a `passes.LoopToLLVMPass` naming
it; its host code and runtime are its own (the cpu target's are in
targets/cpu/). Files: `emitter` (the per-target tables), `function` (one
function's blocks and values), `scalars` (arith and math), `control`
(loops, scf), `block_transfers` (copies and fills as memcpy/memset),
`memory` (buffers, globals), `bounds_checks` (the debug mode's checks),
`passes` (kernels to functions), `ir_text` (the llvm dialect written as
LLVM IR text), `llvmlite_module` (LLVM IR through LLVM: optimization,
object code and assembly for a triple).
"""

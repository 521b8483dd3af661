"""The bounds-check handler, a function generated code may call that the
process need not have, in LLVM IR: `xlir.bounds_error(message, offset,
size)`, what a failed bounds check calls (lowering/llvm/bounds_checks.py),
prints the message and the numbers to stderr and aborts.

The JIT compiles it once per process, with the half-precision conversions
(lowering/llvm/half_conversions.py: thread_runtime.py); an ahead-of-time
module gets the handler where it calls it (`thread_runtime.define_runtime`).
"""

from __future__ import annotations

from llvmlite import ir
from xlir.lowering.llvm.bounds_checks import BOUNDS_ERROR
from xlir.lowering.llvm.half_conversions import I32, I64, module_function

_FORMAT = "xlir: error: out-of-bounds %s: at element %lld of %lld\n\0"


def define_bounds_error(module: ir.Module, linkage: str = "internal") -> None:
    """`void xlir.bounds_error(ptr message, i64 offset, i64 size)`: prints
    to stderr (`dprintf`: no stdio buffer between it and the abort) and
    aborts."""
    pointer = ir.PointerType()
    function = module_function(
        module, BOUNDS_ERROR, ir.FunctionType(ir.VoidType(), [pointer, I64, I64])
    )
    function.linkage = linkage
    function.attributes.add("cold")
    function.attributes.add("noinline")
    dprintf = module_function(
        module, "dprintf", ir.FunctionType(I32, [I32, pointer], var_arg=True)
    )
    abort = module_function(module, "abort", ir.FunctionType(ir.VoidType(), []))
    text = bytearray(_FORMAT.encode())
    format_ = ir.GlobalVariable(
        module,
        ir.ArrayType(ir.IntType(8), len(text)),
        module.get_unique_name("xlir.bounds_format"),
    )
    format_.initializer = ir.Constant(format_.type.pointee, text)  # pyright: ignore[reportAttributeAccessIssue]
    format_.global_constant = True
    format_.linkage = "private"
    builder = ir.IRBuilder(function.append_basic_block())
    message, offset, size = function.args
    builder.call(dprintf, [I32(2), format_, message, offset, size])
    builder.call(abort, [])
    builder.unreachable()

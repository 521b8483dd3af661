"""The prebuilt pad entry, in LLVM IR, beside the GEMM routine's
convolution entries (it writes zero pads: `pad-calls`, pad_calls.py; its
row code, `pad_rows`, also fills the convolution entry's window of a
padded input: conv_routine.py).

A pad kernel compiled inline cost each compile `split-ranges`' nests (one
copy, a zero fill per padded side), their lowering, a threaded loop and
LLVM on all of it; this entry is compiled once per host, in the object of
the dot routine (`gemm_runtime.py`, found by the same name prefix).

`xlir.gemm_f32_{mr}x{lanes}.pad(S, D, first, count, o1, o2, o3, i0, i1, i2,
i3, l0, l1, l2, l3)` writes the rows `first : first + count` of the f32
array `D` of shape `(*, o1, o2, o3)` (a row: its last dimension), each
element the element of `S`, shape `(i0, i1, i2, i3)`, at its index less
the low padding `(l0, l1, l2, l3)`, +0.0 where that falls outside `S`:
per row, a fill of zeros where a row dimension's index is outside, else
the zeros before, a copy of `S`'s row and the zeros after (`llvm.memcpy`
and `llvm.memset`, so every bit of a copied element is kept).
"""

from __future__ import annotations

from collections.abc import Sequence

from llvmlite import ir
from xlir.targets.cpu.gemm_routine import routine_name
from xlir.targets.cpu.routine_ir import F32, I64, PTR, declare_entry, loop, value

ARGUMENTS = 15
"""S, D; first, count, o1, o2, o3, i0, i1, i2, i3, l0, l1, l2, l3."""

I8 = ir.IntType(8)


def pad_routine_name(mr: int, lanes: int) -> str:
    """The pad entry in the object of the dot routine of `mr` x `2 * lanes`
    tiles (its name extends the dot routine's, so `called_variants` finds
    that object)."""
    return routine_name(mr, lanes) + ".pad"


def define_pad(
    module: ir.Module, mr: int, lanes: int, linkage: str = "internal"
) -> None:
    """Define the entry (module docstring) in `module`, or complete its
    declaration there."""
    function, b = declare_entry(
        module, pad_routine_name(mr, lanes), 2, ARGUMENTS - 2, linkage
    )
    s, d = function.args[:2]
    first, count = function.args[2:4]
    o3 = function.args[6]
    rows = b.gep(d, [b.mul(first, o3)], inbounds=True, source_etype=F32)
    pad_rows(module, b, s, rows, first, count, function.args[4:])
    b.ret_void()


def pad_rows(
    module: ir.Module,
    b: ir.IRBuilder,
    s: ir.Value,
    d: ir.Value,
    first: ir.Value,
    count: ir.Value,
    sizes: Sequence[ir.Value],
) -> None:
    """The rows `first : first + count` of the padded array (module
    docstring; `sizes`: o1, o2, o3, i0, i1, i2, i3, l0, l1, l2, l3), row
    `first + r` written at `d + r * o3`: the entry's body, and the
    convolution entry's window of its padded input (conv_routine.py)."""
    o1, o2, o3, i0, i1, i2, i3, l0, l1, l2, l3 = sizes
    memcpy = module.declare_intrinsic("llvm.memcpy", [PTR, PTR, I64])
    memset = module.declare_intrinsic("llvm.memset", [PTR, I64])
    four, false = I64(4), ir.Constant(ir.IntType(1), 0)

    def zeros(at: ir.Value, elements: ir.Value) -> None:
        b.call(memset, [at, I8(0), b.mul(elements, four), false])

    def row(index: ir.Value) -> None:
        r = value(b.add(first, index))
        r2, rest = b.urem(r, o2), b.udiv(r, o2)
        r1, r0 = b.urem(rest, o1), b.udiv(rest, o1)
        y0, y1, y2 = b.sub(r0, l0), b.sub(r1, l1), b.sub(r2, l2)
        inside = b.and_(
            b.and_(b.icmp_unsigned("<", y0, i0), b.icmp_unsigned("<", y1, i1)),
            b.icmp_unsigned("<", y2, i2),
        )
        target = b.gep(d, [b.mul(index, o3)], inbounds=True, source_etype=F32)
        with b.if_else(inside) as (then, otherwise):
            with then:
                offset = b.mul(b.add(b.mul(b.add(b.mul(y0, i1), y1), i2), y2), i3)
                source = b.gep(s, [offset], inbounds=True, source_etype=F32)
                zeros(target, l3)
                copied = b.gep(target, [l3], inbounds=True, source_etype=F32)
                b.call(memcpy, [copied, source, b.mul(i3, four), false])
                after = b.gep(copied, [i3], inbounds=True, source_etype=F32)
                zeros(after, value(b.sub(b.sub(o3, l3), i3)))
            with otherwise:
                zeros(target, o3)

    loop(b, I64(0), count, I64(1), row)

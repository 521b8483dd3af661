"""The matrix unit's arithmetic as native code: `mmac`s run in batches by one
LLVM-compiled loop nest (compiled once per process), reading their operand
tiles from the scratchpad.

numpy cannot do an `mmac` in one pass: section 4.10 adds the 16 products of
every accumulator element one after another, so a tile is 16 dependent
steps of 256 products each, which as numpy calls cost far more than the
arithmetic. The loop nest keeps that order exactly: separate `fmul` and
`fadd` (no fast-math flags, so LLVM neither fuses nor reassociates them),
k outermost; the vectorizer works across the 16 columns j, which are
independent. Every NaN is made canonical at the end of a batch, which is the
same as after every step: a NaN stays a NaN under further additions."""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from functools import cache

RECORD = 7
"""int64 fields of one `mmac` in a batch: accumulator, A's byte offset, A's
byte steps along i and along k, B's byte offset, B's steps along k and j."""

_J_LOOP = """
{label}:
  %j.{label} = phi i64 [0, %{entry}], [%j1.{label}, %{label}]
  %bo.{label} = mul i64 %j.{label}, {stride}
  %boff.{label} = add i64 %brow, %bo.{label}
  %bp.{label} = getelementptr i8, ptr %spad, i64 %boff.{label}
  %bv.{label} = load float, ptr %bp.{label}, align 4
  %mi.{label} = add i64 %mrow, %j.{label}
  %mp.{label} = getelementptr float, ptr %acc, i64 %mi.{label}
  %mv.{label} = load float, ptr %mp.{label}, align 4
  %p.{label} = fmul float %av, %bv.{label}
  %s.{label} = fadd float %mv.{label}, %p.{label}
  store float %s.{label}, ptr %mp.{label}, align 4
  %j1.{label} = add i64 %j.{label}, 1
  %jd.{label} = icmp eq i64 %j1.{label}, 16
  br i1 %jd.{label}, label %inext, label %{label}
"""

IR = (
    """
define void @mmac_batch(ptr noalias %m, ptr noalias readonly %spad, ptr noalias readonly %records, i64 %n) {
entry:
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %record, label %canonical
record:
  %r = phi i64 [0, %entry], [%r1, %knext]
  %base = mul i64 %r, 7
  %f0 = getelementptr i64, ptr %records, i64 %base
  %md = load i64, ptr %f0
  %f1 = getelementptr i64, ptr %f0, i64 1
  %a = load i64, ptr %f1
  %f2 = getelementptr i64, ptr %f0, i64 2
  %ai = load i64, ptr %f2
  %f3 = getelementptr i64, ptr %f0, i64 3
  %ak = load i64, ptr %f3
  %f4 = getelementptr i64, ptr %f0, i64 4
  %b = load i64, ptr %f4
  %f5 = getelementptr i64, ptr %f0, i64 5
  %bk = load i64, ptr %f5
  %f6 = getelementptr i64, ptr %f0, i64 6
  %bj = load i64, ptr %f6
  %moff = mul i64 %md, 256
  %acc = getelementptr float, ptr %m, i64 %moff
  %contiguous = icmp eq i64 %bj, 4
  br label %k
k:
  %kk = phi i64 [0, %record], [%k1, %inext.k]
  %ako = mul i64 %kk, %ak
  %arow = add i64 %a, %ako
  %bko = mul i64 %kk, %bk
  %brow = add i64 %b, %bko
  br label %i
i:
  %ii = phi i64 [0, %k], [%i1, %inext]
  %aio = mul i64 %ii, %ai
  %aoff = add i64 %arow, %aio
  %ap = getelementptr i8, ptr %spad, i64 %aoff
  %av = load float, ptr %ap, align 4
  %mrow = mul i64 %ii, 16
  br i1 %contiguous, label %jfast, label %jstrided
"""
    + _J_LOOP.format(label="jfast", entry="i", stride="4")
    + _J_LOOP.format(label="jstrided", entry="i", stride="%bj")
    + """
inext:
  %i1 = add i64 %ii, 1
  %id = icmp eq i64 %i1, 16
  br i1 %id, label %inext.k, label %i
inext.k:
  %k1 = add i64 %kk, 1
  %kd = icmp eq i64 %k1, 16
  br i1 %kd, label %knext, label %k
knext:
  %r1 = add i64 %r, 1
  %rd = icmp eq i64 %r1, %n
  br i1 %rd, label %canonical, label %record
canonical:
  %c = phi i64 [0, %entry], [0, %knext], [%c1, %canonical]
  %cp = getelementptr i32, ptr %m, i64 %c
  %cv = load i32, ptr %cp, align 4
  %cf = bitcast i32 %cv to float
  %nan = fcmp uno float %cf, %cf
  %cs = select i1 %nan, i32 2143289344, i32 %cv
  store i32 %cs, ptr %cp, align 4
  %c1 = add i64 %c, 1
  %cd = icmp eq i64 %c1, 1024
  br i1 %cd, label %done, label %canonical
done:
  ret void
}
"""
)
"""mmac_batch(m, spad, records, n): for each of n records in order, for k,
i, j: m[md][i][j] = fl(m[md][i][j] + fl(A(i, k) * B(k, j))), A and B read
as floats at spad + offset + steps; then every NaN of m (4 x 256 floats)
becomes 0x7FC00000."""

BatchFunction = ctypes.CFUNCTYPE(
    None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64
)


class _Compiled:
    """The engine must outlive the function: it owns the code."""

    def __init__(self) -> None:
        # Imported here: the simulator's other users (the assembler, the
        # disassembler, `xlir-accel asm`) start without LLVM.
        import llvmlite.binding as llvm
        from xlir.lowering.llvm.llvmlite_module import jit_target_machine, optimize

        machine = jit_target_machine(
            llvm.get_process_triple(),
            llvm.get_host_cpu_name(),
            llvm.get_host_cpu_features().flatten(),
        )
        self.engine = llvm.create_mcjit_compiler(optimize(IR, machine), machine)
        self.engine.finalize_object()
        self.function = BatchFunction(self.engine.get_function_address("mmac_batch"))


@cache
def _compiled() -> _Compiled:
    return _Compiled()


def mmac_batch() -> Callable[[int, int, int, int], None]:
    """The compiled `mmac_batch(m, spad, records, n)` (compiled on first use)."""
    return _compiled().function

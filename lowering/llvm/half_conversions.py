"""The half-precision conversions LLVM's code generator calls where the CPU
has no instruction for them (f64 to f16 on x86 without AVX512-FP16, which
also comes of an f16 `fma` computed in f64; f32 and f16 each way without
F16C): `__truncdfhf2`, `__truncsfhf2`, `__extendhfsf2`. They are compiler
runtime functions (libgcc, compiler-rt): a C linker brings them to an
ahead-of-time object, but code JIT-compiled into this process resolves them
in the process, where they may not be (libgcc_s loaded privately, or too
old), and an unresolved call jumped to address 0. Defined here with integer
operations only, rounding to nearest even, so that they call nothing: the
cpu target loads them with its support functions, other targets that load
host code beside their objects where those call one (`half_conversions_object`).
"""

from __future__ import annotations

from functools import cache
from typing import cast

import llvmlite.binding as llvm
from llvmlite import ir
from xlir.lowering.llvm.llvmlite_module import jit_target_machine, object_code

HALF_CONVERSIONS = ("__truncdfhf2", "__truncsfhf2", "__extendhfsf2")
"""The compiler runtime's names, which LLVM's code generator calls."""

I16, I32, I64 = ir.IntType(16), ir.IntType(32), ir.IntType(64)
HALF, FLOAT, DOUBLE = ir.HalfType(), ir.FloatType(), ir.DoubleType()


def define_half_conversions(module: ir.Module, linkage: str = "external") -> None:
    """The three conversions of `HALF_CONVERSIONS`."""
    truncate = _conversion(module, "__truncdfhf2", HALF, DOUBLE, linkage)
    builder = ir.IRBuilder(truncate.append_basic_block())
    builder.ret(_double_to_half(builder, truncate.args[0]))

    narrow = _conversion(module, "__truncsfhf2", HALF, FLOAT, linkage)
    builder = ir.IRBuilder(narrow.append_basic_block())
    wide = cast(ir.Value, builder.fpext(narrow.args[0], DOUBLE))
    builder.ret(_double_to_half(builder, wide))

    extend = _conversion(module, "__extendhfsf2", FLOAT, HALF, linkage)
    builder = ir.IRBuilder(extend.append_basic_block())
    builder.ret(_half_to_float(builder, extend.args[0]))


@cache
def half_conversions_object() -> bytes:
    """The conversions' object code for this process (any x86-64 or other
    CPU of its triple: they use integer and f32/f64 operations only),
    compiled once per process."""
    module = ir.Module()
    module.triple = llvm.get_process_triple()
    define_half_conversions(module)
    return object_code(str(module), jit_target_machine(module.triple, "", ""))


def _conversion(
    module: ir.Module, name: str, result: ir.Type, argument: ir.Type, linkage: str
) -> ir.Function:
    function = module_function(module, name, ir.FunctionType(result, [argument]))
    function.linkage = linkage
    return function


def module_function(
    module: ir.Module, name: str, type_: ir.FunctionType
) -> ir.Function:
    """The module's function `name` (a declaration the translation made),
    or a new declaration of it."""
    existing = module.globals.get(name)
    if isinstance(existing, ir.Function):
        return existing
    return ir.Function(module, type_, name)


def _double_to_half(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """`x` rounded to the nearest half, ties to even, with integer
    operations: the exponent picks how many of the 53 significand bits
    (implicit one included) to drop, at least 42 (a normal half keeps 11),
    more below 2**-14 (subnormal halves), at most 63 (the rest rounds to
    0); the kept bits added to the exponent field carry into it when
    rounding overflows the significand."""
    bits = b.bitcast(x, I64)
    magnitude = b.and_(bits, I64(0x7FFF_FFFF_FFFF_FFFF))
    exponent = b.lshr(magnitude, I64(52))
    implicit = b.select(b.icmp_unsigned("!=", exponent, I64(0)), I64(1 << 52), I64(0))
    significand = b.or_(b.and_(magnitude, I64((1 << 52) - 1)), implicit)
    drop = b.sub(I64(1051), exponent)  # 1023 + 52 - 24: units of 2**-24
    drop = b.select(b.icmp_signed("<", drop, I64(42)), I64(42), drop)
    drop = b.select(b.icmp_signed(">", drop, I64(63)), I64(63), drop)
    kept = b.lshr(significand, drop)
    rest = b.and_(significand, b.sub(b.shl(I64(1), drop), I64(1)))
    halfway = b.shl(I64(1), b.sub(drop, I64(1)))
    odd = b.trunc(kept, ir.IntType(1))
    up = b.or_(
        b.icmp_unsigned(">", rest, halfway),
        b.and_(b.icmp_unsigned("==", rest, halfway), odd),
    )
    normal = b.icmp_unsigned(">=", exponent, I64(1009))  # 2**-14 and up
    field = b.select(normal, b.shl(b.sub(exponent, I64(1009)), I64(10)), I64(0))
    finite = b.add(b.add(field, kept), b.zext(up, I64))
    nan = b.or_(I64(0x7E00), b.and_(b.lshr(magnitude, I64(42)), I64(0x1FF)))
    result = b.select(
        b.icmp_unsigned(">=", magnitude, I64(0x40EF_FE00_0000_0000)),  # 65520
        I64(0x7C00),
        finite,
    )
    result = b.select(
        b.icmp_unsigned(">", magnitude, I64(0x7FF0_0000_0000_0000)), nan, result
    )
    sign = b.and_(b.lshr(bits, I64(48)), I64(0x8000))
    return cast(ir.Value, b.bitcast(b.trunc(b.or_(result, sign), I16), HALF))


def _half_to_float(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """`x` exactly as a float: normal halves by moving the fields, infinities
    and NaNs with the float's all-ones exponent, subnormals (and zeros) as
    their significand times 2**-24 (exact in f32)."""
    bits = b.zext(b.bitcast(x, I16), I32)
    magnitude = b.and_(bits, I32(0x7FFF))
    exponent = b.lshr(magnitude, I32(10))
    significand = b.and_(magnitude, I32(0x3FF))
    normal = b.add(b.shl(magnitude, I32(13)), I32((127 - 15) << 23))
    special = b.or_(I32(0x7F80_0000), b.shl(significand, I32(13)))
    small = b.bitcast(b.fmul(b.uitofp(significand, FLOAT), FLOAT(2.0**-24)), I32)
    result = b.select(b.icmp_unsigned("==", exponent, I32(31)), special, normal)
    result = b.select(b.icmp_unsigned("==", exponent, I32(0)), small, result)
    sign = b.shl(b.and_(bits, I32(0x8000)), I32(16))
    return cast(ir.Value, b.bitcast(b.or_(result, sign), FLOAT))

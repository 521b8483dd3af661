"""f16 on XA-1: values live in f32 containers (the DMA's f16 mode widens
exactly on load and rounds on store, manual table 2.7), `widen-floats`
computes in f32, and each `arith.truncf` to f16 rounds an f32 lane to the
nearest f16 value in place, on the vector unit (a scalar float is a splat,
so the same instructions serve both).

The rounding adds and subtracts a power of two S whose f32 ulp is the f16
quantum at |x|'s exponent (2^-24 below f16's normal range: S = 2^(max(e,
-14) + 13)): `(|x| + S) - S` is |x| rounded to a multiple of that quantum
by the f32 adder's ties-to-even, then the sign goes back on. Magnitudes of
65520 (halfway past f16's largest, 65504) and more are infinity; a NaN
stays NaN. The same rules as numpy's f32 -> f16 conversion: subnormals of
f16, signed zeros, overflow to infinity.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import SSAValue

if TYPE_CHECKING:
    from xlir.targets.accel.loop_to_accel import Builder

MAGNITUDE = 0x7FFFFFFF
SIGN = 0x80000000
EXPONENT = 0x7F800000
INFINITY = 0x7F800000
LOWEST_EXPONENT = (127 - 14) << 23
"""f16's smallest normal exponent, as f32 exponent bits: below it, the f16
quantum stays 2^-24."""
QUANTUM_SHIFT = 13 << 23
"""S's exponent over |x|'s: f32 keeps 13 more mantissa bits than f16."""
OVERFLOW = 0x477FF000
"""65520.0: the magnitudes that round to f16's infinity start here."""


def round_to_half(build: Builder, value: SSAValue) -> SSAValue:
    """`value`'s lanes (f32) rounded to the nearest f16 value, in f32."""

    def constant(bits: int) -> SSAValue:
        return build.float_constant(bits)

    magnitude = build.v("vand", value, constant(MAGNITUDE))
    exponent = build.v("vand", value, constant(EXPONENT))
    exponent = build.v("vmax", exponent, constant(LOWEST_EXPONENT))
    shifter = build.v("vadd", exponent, constant(QUANTUM_SHIFT))
    rounded = build.v("vfsub", build.v("vfadd", magnitude, shifter), shifter)
    overflow = build.v("vsle", constant(OVERFLOW), magnitude)
    rounded = build.v("vsel", overflow, constant(INFINITY), rounded)
    nan = build.v("vslt", constant(INFINITY), magnitude)
    rounded = build.v("vsel", nan, magnitude, rounded)
    return build.v("vor", rounded, build.v("vand", value, constant(SIGN)))

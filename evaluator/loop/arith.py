"""`arith` ops on register values (numpy scalars or lane arrays).

Integers are signless in `arith`: a value is held in the signed dtype of its
width (i1 as bool) and each op that cares reads it as signed or unsigned.
Arithmetic wraps around. Where `arith` leaves a result undefined (division
by zero, shifts by the bit width or more, float-to-int overflow) the result
is StableHLO's, as the HLO interpreter computes it, so that a lowering that
relies on it still matches the reference.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr
from xdsl.ir import Attribute, Operation
from xlir.dialects import arith as xlir_arith
from xlir.evaluator.hlo.elementwise import (
    _shift_factory,  # pyright: ignore[reportPrivateUsage]
    convert_array,
    f32_rounded_to_odd,
    float_maximum,
    float_minimum,
    int_divide,
    int_remainder,
)
from xlir.evaluator.hlo.types import Unsupported, bf16_bits, bf16_from_bits
from xlir.evaluator.loop.engine import Env, Scope, Step, impl
from xlir.evaluator.loop.values import is_bf16, register_dtype, rounding

Fn = Callable[..., Any]


def elementwise(op: Operation, scope: Scope, fn: Fn) -> Step:
    """A step applying `fn` to the operands, rounded to the result type."""
    fix = rounding(op.results[0].type)
    if fix is not None:
        fn = _rounded(fn, fix)

    ins = scope.slots_of(op.operands)
    out = scope.slot(op.results[0])
    if len(ins) == 1:
        (a,) = ins

        def unary(env: Env) -> None:
            env[out] = fn(env[a])

        return unary
    if len(ins) == 2:
        a, b = ins

        def binary(env: Env) -> None:
            env[out] = fn(env[a], env[b])

        return binary

    def nary(env: Env) -> None:
        env[out] = fn(*[env[i] for i in ins])

    return nary


def _rounded(fn: Fn, fix: Fn) -> Fn:
    return lambda *args: fix(fn(*args))


# --- integer views -------------------------------------------------------------


def _int_dtype(type_: Attribute) -> np.dtype:
    dtype = register_dtype(type_)
    if dtype.kind not in "biu":
        raise Unsupported(f"needs integer operands, not {type_}")
    return dtype


def signed_view(dtype: np.dtype) -> Fn:
    """The values as signed integers (i1: true is -1)."""
    if dtype.kind == "b":
        return lambda x: -np.asarray(x, np.int8)
    signed = np.dtype(f"i{dtype.itemsize}")
    return lambda x: x.astype(signed, copy=False)


def unsigned_view(dtype: np.dtype) -> Fn:
    unsigned = np.dtype(f"u{max(dtype.itemsize, 1)}")
    if dtype.kind == "b":
        return lambda x: np.asarray(x, np.uint8)
    return lambda x: x.astype(unsigned, copy=False)


def narrow(dtype: np.dtype) -> Fn:
    """Wrap a wider integer result to the type (i1: its low bit)."""
    if dtype.kind == "b":
        return lambda x: (np.asarray(x) & 1).astype(bool)
    return lambda x: np.asarray(x).astype(dtype)[()]


def _viewed(op: Operation, fn: Fn, unsigned: bool) -> Fn:
    dtype = _int_dtype(op.operands[0].type)
    view = unsigned_view(dtype) if unsigned else signed_view(dtype)
    back = narrow(dtype)
    return lambda *args: back(fn(*[view(a) for a in args]))


# --- integer ops -----------------------------------------------------------------


_WRAPPING = {arith.AddiOp: np.add, arith.SubiOp: np.subtract, arith.MuliOp: np.multiply}
_BITWISE = {
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
}
_BOOL = {
    arith.AddiOp: np.logical_xor,
    arith.SubiOp: np.logical_xor,
    arith.MuliOp: np.logical_and,
}


@impl(*_WRAPPING, *_BITWISE)
def _integer(op: Operation, scope: Scope) -> Step:
    dtype = _int_dtype(op.operands[0].type)
    if dtype.kind == "b" and type(op) in _BOOL:
        return elementwise(op, scope, _BOOL[type(op)])
    return elementwise(op, scope, _WRAPPING.get(type(op)) or _BITWISE[type(op)])


def _floor_divide(a: Any, b: Any) -> Any:
    quotient = int_divide(a, b)
    inexact = (np.asarray(a) != quotient * b) & ((a < 0) != (b < 0)) & (b != 0)
    return np.where(inexact, quotient - 1, quotient)


def _ceil_divide(a: Any, b: Any) -> Any:
    quotient = int_divide(a, b)
    inexact = (np.asarray(a) != quotient * b) & ((a < 0) == (b < 0)) & (b != 0)
    return np.where(inexact, quotient + 1, quotient)


_DIVISIONS: dict[type[Operation], tuple[Fn, bool]] = {
    arith.DivSIOp: (int_divide, False),
    arith.DivUIOp: (int_divide, True),
    arith.RemSIOp: (int_remainder, False),
    arith.RemUIOp: (int_remainder, True),
    arith.FloorDivSIOp: (_floor_divide, False),
    arith.CeilDivSIOp: (_ceil_divide, False),
    arith.CeilDivUIOp: (_ceil_divide, True),
    arith.MaxSIOp: (np.maximum, False),
    arith.MinSIOp: (np.minimum, False),
    arith.MaxUIOp: (np.maximum, True),
    arith.MinUIOp: (np.minimum, True),
}


@impl(*_DIVISIONS)
def _division(op: Operation, scope: Scope) -> Step:
    fn, unsigned = _DIVISIONS[type(op)]
    return elementwise(op, scope, _viewed(op, fn, unsigned))


_SHIFTS = {arith.ShLIOp: "left", arith.ShRUIOp: "logical", arith.ShRSIOp: "arithmetic"}


@impl(*_SHIFTS)
def _shift(op: Operation, scope: Scope) -> Step:
    if _int_dtype(op.operands[0].type).kind == "b":
        raise Unsupported("shifts of i1 are not supported")
    return elementwise(op, scope, _shift_factory(_SHIFTS[type(op)])(op, None))  # pyright: ignore[reportArgumentType]


_CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
_ORDER = {"lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


@impl(arith.CmpiOp, xlir_arith.CmpiOp)
def _cmpi(op: Operation, scope: Scope) -> Step:
    predicate = _CMPI[op.properties["predicate"].value.data]  # pyright: ignore[reportAttributeAccessIssue]
    if predicate == "eq":
        return elementwise(op, scope, np.equal)
    if predicate == "ne":
        return elementwise(op, scope, np.not_equal)
    dtype = _int_dtype(op.operands[0].type)
    view = unsigned_view(dtype) if predicate[0] == "u" else signed_view(dtype)
    compare = _ORDER[predicate[1:]]
    return elementwise(op, scope, lambda a, b: compare(view(a), view(b)))


# --- float ops -----------------------------------------------------------------


_FLOAT = {
    arith.AddfOp: np.add,
    arith.SubfOp: np.subtract,
    arith.MulfOp: np.multiply,
    arith.DivfOp: np.true_divide,
    xlir_arith.RemfOp: np.fmod,
    arith.NegfOp: np.negative,
    arith.MaximumfOp: float_maximum,
    arith.MinimumfOp: float_minimum,
    arith.MaxnumfOp: np.fmax,
    arith.MinnumfOp: np.fmin,
}


@impl(*_FLOAT)
def _float(op: Operation, scope: Scope) -> Step:
    return elementwise(op, scope, _FLOAT[type(op)])


def _unordered(a: Any, b: Any) -> Any:
    return np.isnan(a) | np.isnan(b)


def _const(value: bool) -> Fn:
    return lambda a, b: np.full(np.broadcast(a, b).shape, value)


_CMPF: list[Fn] = [
    _const(False),
    np.equal,  # oeq
    np.greater,  # ogt
    np.greater_equal,  # oge
    np.less,  # olt
    np.less_equal,  # ole
    lambda a, b: (a != b) & ~_unordered(a, b),  # one
    lambda a, b: ~_unordered(a, b),  # ord
    lambda a, b: (a == b) | _unordered(a, b),  # ueq
    lambda a, b: ~(a <= b),  # ugt
    lambda a, b: ~(a < b),  # uge
    lambda a, b: ~(a >= b),  # ult
    lambda a, b: ~(a > b),  # ule
    np.not_equal,  # une
    _unordered,  # uno
    _const(True),
]


@impl(arith.CmpfOp, xlir_arith.CmpfOp)
def _cmpf(op: Operation, scope: Scope) -> Step:
    return elementwise(op, scope, _CMPF[op.properties["predicate"].value.data])  # pyright: ignore[reportAttributeAccessIssue]


# --- select, constants, casts ---------------------------------------------------


@impl(arith.SelectOp, xlir_arith.SelectOp)
def _select(op: Operation, scope: Scope) -> Step:
    c, a, b = scope.slots_of(op.operands)
    out = scope.slot(op.results[0])

    def select(env: Env) -> None:
        cond = env[c]
        if isinstance(cond, np.bool_ | bool):
            env[out] = env[a] if cond else env[b]
        else:
            env[out] = np.where(cond, env[a], env[b])

    return select


@impl(arith.ConstantOp)
def _constant(op: Operation, scope: Scope) -> Step:
    attr = op.properties.get("value")
    if attr is None:  # an IntegerAttr of 0 is falsy: no `or` here
        attr = op.attributes.get("value")
    type_ = op.results[0].type
    dtype = register_dtype(type_)
    if isinstance(attr, IntegerAttr):
        raw = attr.value.data
        value = (
            dtype.type(bool(raw))
            if dtype.kind == "b"
            else np.array(raw).astype(dtype)[()]
        )
    elif isinstance(attr, FloatAttr):
        value = np.array(attr.value.data).astype(dtype)[()]
        if is_bf16(type_):
            value = bf16_from_bits(bf16_bits(np.asarray(value, np.float32)))[()]
    else:
        raise Unsupported(f"constants of type {type_} are not supported (scalars only)")
    out = scope.slot(op.results[0])

    def constant(env: Env) -> None:
        env[out] = value

    return constant


def _cast(op: Operation) -> tuple[np.dtype, np.dtype]:
    return register_dtype(op.operands[0].type), register_dtype(op.results[0].type)


# The casts come in two classes each: xDSL's, which passes build, and the
# forms that take vectors too (`xlir_arith.VECTOR_FORMS`), which the parser builds.
@impl(xlir_arith.ExtSIOp, arith.ExtSIOp, arith.IndexCastOp)
def _extend_signed(op: Operation, scope: Scope) -> Step:
    src, dst = _cast(op)
    view = signed_view(src)
    back = narrow(dst)
    return elementwise(op, scope, lambda x: back(view(x)))


@impl(xlir_arith.ExtUIOp, arith.ExtUIOp, xlir_arith.TruncIOp, arith.TruncIOp)
def _extend_unsigned(op: Operation, scope: Scope) -> Step:
    src, dst = _cast(op)
    view = unsigned_view(src)
    back = narrow(dst)
    return elementwise(op, scope, lambda x: back(view(x)))


@impl(xlir_arith.SIToFPOp, arith.SIToFPOp, xlir_arith.UIToFPOp, arith.UIToFPOp)
def _int_to_float(op: Operation, scope: Scope) -> Step:
    """To a format narrower than f32 (bf16 rounds its f32 register after
    each op), through f32 rounded to odd, so that it is rounded once:
    2^24 + 2^16 + 1 is a tie in f32, not in bf16."""
    src, dst = _cast(op)
    view = (
        signed_view(src)
        if isinstance(op, xlir_arith.SIToFPOp | arith.SIToFPOp)
        else unsigned_view(src)
    )
    if dst.itemsize < 4 or is_bf16(op.results[0].type):
        return elementwise(
            op,
            scope,
            lambda x: f32_rounded_to_odd(np.asarray(view(x), np.float64)).astype(dst)[
                ()
            ],
        )
    return elementwise(op, scope, lambda x: np.asarray(view(x)).astype(dst)[()])


@impl(xlir_arith.FPToSIOp, arith.FPToSIOp, xlir_arith.FPToUIOp, arith.FPToUIOp)
def _float_to_int(op: Operation, scope: Scope) -> Step:
    src, dst = _cast(op)
    if dst.kind == "b":
        raise Unsupported("conversions to i1 are not supported")
    if isinstance(op, arith.FPToUIOp):
        unsigned = np.dtype(f"u{dst.itemsize}")
        return elementwise(
            op, scope, lambda x: convert_array(x, src, unsigned, False).astype(dst)[()]
        )
    return elementwise(op, scope, lambda x: convert_array(x, src, dst, False)[()])


@impl(arith.ExtFOp, arith.TruncFOp)
def _float_cast(op: Operation, scope: Scope) -> Step:
    _, dst = _cast(op)
    return elementwise(op, scope, lambda x: np.asarray(x).astype(dst)[()])


@impl(arith.BitcastOp)
def _bitcast(op: Operation, scope: Scope) -> Step:
    src_type, dst_type = op.operands[0].type, op.results[0].type
    src, dst = _cast(op)
    if src.kind == "b" or dst.kind == "b":
        raise Unsupported("bitcasts of i1 are not supported")
    if is_bf16(src_type):
        return elementwise(op, scope, lambda x: bf16_bits(x).view(dst)[()])
    if is_bf16(dst_type):
        return elementwise(
            op, scope, lambda x: bf16_from_bits(np.asarray(x).view(np.uint16))[()]
        )
    return elementwise(op, scope, lambda x: np.asarray(x).view(dst)[()])


def _bytes_of(words: Any, dtype: type) -> Any:
    """The four bytes of each i32 (little-endian), as `dtype`, on a new last
    axis."""
    array = np.ascontiguousarray(np.atleast_1d(np.asarray(words, np.int32)))
    return array.view(dtype).reshape(*array.shape, 4).astype(np.int64)


def _dot_quads_fn(acc: Any, lhs: Any, rhs: Any) -> Any:
    products = (_bytes_of(lhs, np.uint8) * _bytes_of(rhs, np.int8)).sum(-1)
    total = (np.asarray(acc, np.int64) + products.reshape(np.shape(acc))).astype(
        np.int32
    )
    return total if total.shape else np.int32(total)


@impl(xlir_arith.DotQuadsOp)
def _dot_quads(op: Operation, scope: Scope) -> Step:
    """u8 x s8 quads of each lane, added to the lane, wrapping."""
    return elementwise(op, scope, _dot_quads_fn)

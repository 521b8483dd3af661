"""Scalar `arith` code written as Python arithmetic.

The approximations are formulas (`r = x - n * ln2_hi`), and spelling each as
`builder.insert(arith.SubfOp(x, builder.insert(arith.MulfOp(...))))` would
bury them. A `Value` wraps an SSA value of a float or integer type; its
operators insert the `arith` op of that type at the builder's insertion point,
and a Python number on either side becomes an `arith.constant` of the other
side's type (floats rounded to that type first, so the IR holds exactly the
constant the code computes with). Comparisons are methods, not `<`, because
a float compare must say whether it is ordered.

The same formulas run on vectors (a register tile's vector copies of a
GELU): a builder with `lanes` makes every type it is given a vector of that
many lanes, a constant a broadcast one, and each op the form of it that
takes vectors (`xlir.dialects.arith.VECTOR_FORMS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, math, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    Float32Type,
    Float64Type,
    IntegerType,
    VectorType,
    f32,
    f64,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xlir.dialects.arith import VECTOR_FORMS
from xlir.lowering.scalar import constant

from xlir.element_types import is_float

INF = float("inf")
NAN = float("nan")


class Value:
    """An SSA value of a scalar float or integer type, with operators that
    insert `arith` ops (see the module docstring)."""

    def __init__(self, ssa: SSAValue, code: ScalarBuilder):
        self.ssa = ssa
        self.code = code

    @property
    def type(self) -> Attribute:
        return self.ssa.type

    @property
    def element(self) -> Attribute:
        """The type of one lane (the type itself for a scalar)."""
        type_ = self.type
        return type_.element_type if isinstance(type_, VectorType) else type_

    @property
    def is_float(self) -> bool:
        return is_float(self.element)

    def coerce(self, other: Value | float | int) -> Value:
        """`other`, a number becoming a constant of this value's type."""
        if isinstance(other, Value):
            return other
        return self.code.const(other, self.type)

    def _binary(
        self,
        other: Value | float | int,
        float_op: type[Operation] | None,
        int_op: type[Operation] | None,
        reverse: bool = False,
    ) -> Value:
        lhs, rhs = self, self.coerce(other)
        if reverse:
            lhs, rhs = rhs, lhs
        cls = float_op if self.is_float else int_op
        assert cls is not None, f"no such op on {self.type}"
        return self.code.made(cls, (lhs.ssa, rhs.ssa))

    def __add__(self, other: Value | float | int) -> Value:
        return self._binary(other, arith.AddfOp, arith.AddiOp)

    def __radd__(self, other: float | int) -> Value:
        return self._binary(other, arith.AddfOp, arith.AddiOp, reverse=True)

    def __sub__(self, other: Value | float | int) -> Value:
        return self._binary(other, arith.SubfOp, arith.SubiOp)

    def __rsub__(self, other: float | int) -> Value:
        return self._binary(other, arith.SubfOp, arith.SubiOp, reverse=True)

    def __mul__(self, other: Value | float | int) -> Value:
        return self._binary(other, arith.MulfOp, arith.MuliOp)

    def __rmul__(self, other: float | int) -> Value:
        return self._binary(other, arith.MulfOp, arith.MuliOp, reverse=True)

    def __truediv__(self, other: Value | float | int) -> Value:
        return self._binary(other, arith.DivfOp, None)

    def __neg__(self) -> Value:
        assert self.is_float
        return self.code.made(arith.NegfOp, (self.ssa,))

    def __and__(self, other: Value | int) -> Value:
        return self._binary(other, None, arith.AndIOp)

    def __or__(self, other: Value | int) -> Value:
        return self._binary(other, None, arith.OrIOp)

    def __xor__(self, other: Value | int) -> Value:
        return self._binary(other, None, arith.XOrIOp)

    def __invert__(self) -> Value:
        """Every bit flipped (`not` of an i1)."""
        return self._binary(-1, None, arith.XOrIOp)

    def __lshift__(self, other: Value | int) -> Value:
        return self._binary(other, None, arith.ShLIOp)

    def shr_u(self, other: Value | int) -> Value:
        """Logical shift right (the amount must be below the width)."""
        return self._binary(other, None, arith.ShRUIOp)

    def shr_s(self, other: Value | int) -> Value:
        """Arithmetic shift right (the amount must be below the width)."""
        return self._binary(other, None, arith.ShRSIOp)

    def div_u(self, other: Value | int) -> Value:
        """Unsigned division (by a nonzero divisor)."""
        return self._binary(other, None, arith.DivUIOp)

    def compare(self, predicate: str, other: Value | float | int) -> Value:
        """`arith.cmpf`/`arith.cmpi` with the predicate's MLIR name."""
        rhs = self.coerce(other)
        cls = arith.CmpfOp if self.is_float else arith.CmpiOp
        return self.code.made(self.code.form(cls), (self.ssa, rhs.ssa), predicate)

    # Float comparisons are ordered (false when either side is NaN), integer
    # ones signed.
    def lt(self, other: Value | float | int) -> Value:
        return self.compare("olt" if self.is_float else "slt", other)

    def gt(self, other: Value | float | int) -> Value:
        return self.compare("ogt" if self.is_float else "sgt", other)

    def ge(self, other: Value | float | int) -> Value:
        return self.compare("oge" if self.is_float else "sge", other)

    def eq(self, other: Value | float | int) -> Value:
        return self.compare("oeq" if self.is_float else "eq", other)

    def is_nan(self) -> Value:
        return self.compare("uno", self)

    def _cast(self, cls: type[Operation], type_: Attribute) -> Value:
        """`cls` of this value to `type_` (of a lane, on vectors)."""
        code = self.code
        return code.made(code.form(cls), (self.ssa,), code.shaped(type_))

    def bitcast(self, type_: Attribute) -> Value:
        return self._cast(arith.BitcastOp, type_)

    def bits(self) -> Value:
        """The float's bit pattern as a signless integer of its width."""
        assert isinstance(self.element, AnyFloat)
        return self.bitcast(IntegerType(self.element.bitwidth))

    def as_float(self) -> Value:
        """The integer's bit pattern as the float of its width (i32 or i64)."""
        assert isinstance(self.element, IntegerType)
        return self.bitcast(f64 if self.element.width.data == 64 else f32)

    def to_float(self, type_: Attribute) -> Value:
        """The signed integer's value, rounded to a float type."""
        return self._cast(arith.SIToFPOp, type_)

    def to_int(self, type_: IntegerType) -> Value:
        """The float truncated to a signed integer; only for values that are
        in range (LLVM makes anything else poison)."""
        return self._cast(arith.FPToSIOp, type_)

    def extend(self, type_: Attribute) -> Value:
        """A float widened (`extf`) or an integer zero-extended (`extui`)."""
        return self._cast(arith.ExtFOp if self.is_float else arith.ExtUIOp, type_)

    def truncate(self, type_: Attribute) -> Value:
        """A float rounded (`truncf`) or an integer's low bits (`trunci`)."""
        return self._cast(arith.TruncFOp if self.is_float else arith.TruncIOp, type_)

    def abs(self) -> Value:
        return self.code.made(math.AbsFOp, (self.ssa,))

    def copysign(self, sign: Value) -> Value:
        """This float's magnitude with `sign`'s sign bit."""
        return self.code.made(math.CopySignOp, (self.ssa, sign.ssa))


Constants = dict[tuple[Attribute, str], SSAValue]
"""`arith.constant` results by type and value."""

MADE_KINDS = 4096
"""How many kinds of op `ScalarBuilder.made` keeps the properties and result
types of (it forgets them all past that: the types vary with the programs a
process compiles)."""

_MADE: dict[
    tuple[object, ...],
    tuple[dict[str, Attribute], dict[str, Attribute], Sequence[Attribute]],
] = {}


@lru_cache(maxsize=1024)
def _vector_of(type_: Attribute, lanes: int) -> VectorType:
    """A vector of `lanes` of `type_`, made once (xDSL verifies each new one)."""
    return VectorType(type_, [lanes])


class ScalarBuilder:
    """Wraps an xDSL `Builder` (placed where the code goes) into `Value`s.
    `constants` may hold constants made before, which must dominate the
    insertion point; new ones are added to it. With `lanes`, the code is on
    vectors of that many lanes (module docstring)."""

    def __init__(
        self,
        builder: Builder,
        constants: Constants | None = None,
        lanes: int | None = None,
    ):
        self.builder = builder
        self._constants: Constants = {} if constants is None else constants
        self.lanes = lanes

    def shaped(self, type_: Attribute) -> Attribute:
        """`type_`, as a vector of `lanes` of it when the code is on vectors."""
        if self.lanes is None or isinstance(type_, VectorType):
            return type_
        return _vector_of(type_, self.lanes)

    def form(self, cls: type[Operation]) -> type[Operation]:
        """The class of `cls`'s ops on this code's values (on vectors, the
        form that takes them)."""
        return cls if self.lanes is None else VECTOR_FORMS.get(cls, cls)

    def emit(self, op: Operation) -> Value:
        return Value(self.builder.insert(op).results[0], self)

    def made(
        self, cls: type[Operation], operands: tuple[SSAValue, ...], *extras: object
    ) -> Value:
        """`cls(*operands, *extras)`, inserted. What that builds depends on
        the class, the extras and the operands' types alone: the first op of
        each such kind is built so, the later ones are created directly
        with its properties, attributes and result types (`_MADE`): xDSL's
        generic construction converts and checks each argument and makes
        the attributes anew, several times the cost of a direct `create`."""
        key = (cls, *extras, *(operand.type for operand in operands))
        known = _MADE.get(key)
        if known is None:
            op = cls(*operands, *extras)  # pyright: ignore[reportCallIssue]
            if len(_MADE) >= MADE_KINDS:
                _MADE.clear()
            _MADE[key] = (dict(op.properties), dict(op.attributes), op.result_types)
            return self.emit(op)
        properties, attributes, result_types = known
        op = cls.create(
            operands=operands,
            result_types=result_types,
            properties=properties,
            attributes=attributes,
        )
        return self.emit(op)

    def wrap(self, ssa: SSAValue) -> Value:
        return Value(ssa, self)

    def const(self, value: float | int, type_: Attribute) -> Value:
        """An `arith.constant` (one per value and type: the builder inserts
        in order, so the first dominates every later use); a float is first
        rounded to `type_`; on vectors, broadcast to every lane."""
        type_ = self.shaped(type_)
        element = type_.element_type if isinstance(type_, VectorType) else type_
        if isinstance(element, Float32Type):
            value = float(np.float32(value))
        elif isinstance(element, Float64Type):
            value = float(value)
        key = (type_, repr(value))
        if key not in self._constants:
            made = constant(self.builder, value, element)
            if isinstance(type_, VectorType):
                broadcast = vector.BroadcastOp(made, type_)
                made = self.builder.insert(broadcast).vector
            self._constants[key] = made
        return Value(self._constants[key], self)

    def select(
        self,
        condition: Value,
        if_true: Value | float | int,
        if_false: Value | float | int,
    ) -> Value:
        """`arith.select`; a number takes the other side's type."""
        if not isinstance(if_true, Value):
            assert isinstance(if_false, Value)
            if_true = if_false.coerce(if_true)
        elif not isinstance(if_false, Value):
            if_false = if_true.coerce(if_false)
        assert condition.type == self.shaped(i1)
        operands = (condition.ssa, if_true.ssa, if_false.ssa)
        return self.made(self.form(arith.SelectOp), operands)

    def polynomial(self, x: Value, coefficients: Sequence[float]) -> Value:
        """c0 + c1 x + c2 x^2 + ... by Horner's rule."""
        result = self.const(coefficients[-1], x.type)
        for coefficient in reversed(coefficients[:-1]):
            result = result * x + coefficient
        return result

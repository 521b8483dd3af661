"""Scalar translation: one StableHLO elementwise op on scalars as `arith`/`math`.

`hlo-to-loop` computes every element of a fusion, every reducer body and
every comparator from scalars loaded out of buffers. This module turns one
StableHLO op, applied to those scalars, into `arith` and `math` ops with
StableHLO's semantics as xlir's reference interpreter implements them
(`evaluator/hlo/elementwise.py`):

* integers are signless at the loop level (`scalar_type`); signedness is read
  off the HLO op's tensor types and picks `divsi`/`divui`, `cmpi slt`/`ult`,
  `extsi`/`extui`, and so on; `i1` add/multiply/max/min are or/and;
* where `arith` is undefined the result is guarded with selects: `x / 0` is all
  ones, `x % 0` is `x`, `INT_MIN / -1` is `INT_MIN` and `INT_MIN % -1` is 0;
  shifts by the bit width or more give 0 (or the sign, shifting right
  arithmetically); float -> integer conversion truncates, saturates and sends
  NaN to 0;
* float maximum/minimum propagate NaN (`arith.maximumf`); `compare NE` is
  unordered (true for NaN), the other directions ordered; `TOTALORDER`
  compares the bit patterns as sign-magnitude integers.

Ops are inserted with an xDSL `Builder` at its insertion point, so a caller
places the scalar code anywhere (a loop body, before a store) by positioning
the builder. Complex numbers and the ops listed nowhere here raise
`UnsupportedScalarOp`, which the driver turns into a diagnostic.
`chlo.next_after` (which `decompose` keeps) is computed on the bits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    Float8E8M0FNUType,
    Float16Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    f32,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xlir.dialects.arith import RemfOp
from xlir.dialects.loop import loops
from xlir.dialects.stablehlo.enums import (
    ComparisonDirectionAttr,
    ComparisonTypeAttr,
)
from xlir.passes.loop.float_formats import format_of

from xlir.element_types import is_float


class UnsupportedScalarOp(Exception):
    """An op with no scalar translation; `op` is it, the message says why."""

    def __init__(self, op: Operation, reason: str):
        super().__init__(f"'{op.name}' {reason}")
        self.op = op
        self.reason = reason


def element_type(type_: Attribute) -> Attribute:
    """The element type of a tensor type (or the type itself)."""
    return type_.get_element_type() if isinstance(type_, TensorType) else type_


def scalar_type(type_: Attribute) -> Attribute:
    """The loop-level type of one element of a tensor type: integers become
    signless (`ui32` -> `i32`), since `arith` takes only those; floats stay."""
    element = element_type(type_)
    if isinstance(element, IntegerType) and element.signedness.data != (
        Signedness.SIGNLESS
    ):
        return _signless(element.width.data)
    return element


@lru_cache(maxsize=128)
def _signless(width: int) -> IntegerType:
    """`iN`, made once per width (xDSL verifies each new type)."""
    return IntegerType(width)


def is_unsigned(type_: Attribute) -> bool:
    """StableHLO's `uiN` (signless `iN` is signed, `i1` is a boolean)."""
    element = element_type(type_)
    return (
        isinstance(element, IntegerType)
        and element.signedness.data == Signedness.UNSIGNED
    )


def constant(builder: Builder, value: float | int, type_: Attribute) -> SSAValue:
    """An `arith.constant` of a scalar type (integers may be given unsigned),
    created directly (as `ConstantOp(attr)` makes it, without xDSL's generic
    construction, a cost on every constant a kernel takes)."""
    attr: Attribute
    if is_float(type_):
        attr = FloatAttr(float(value), type_)
    else:
        assert isinstance(type_, IntegerType | IndexType)
        if isinstance(type_, IntegerType):
            width = type_.width.data
            value = int(value) & ((1 << width) - 1)
            if width > 1 and value >= 1 << (width - 1):
                value -= 1 << width
        attr = IntegerAttr(int(value), type_)
    op = arith.ConstantOp.create(result_types=[type_], properties={"value": attr})
    return builder.insert(op).result


def emit_block(
    block: Block,
    arguments: Sequence[SSAValue],
    builder: Builder,
    captured: Mapping[SSAValue, SSAValue] | None = None,
) -> list[SSAValue]:
    """Inline a scalar region's block (a reducer, a comparator, a scatter
    combiner) on `arguments`; returns the values its terminator returns.
    Values the block uses from outside it are taken from `captured` (their
    scalars, where the caller has them), else must be constants (CSE may
    hoist a comparator's `0.0` next to an equal one of the function), which
    are emitted where used."""
    values: dict[SSAValue, SSAValue] = dict(zip(block.args, arguments, strict=True))
    values.update(captured or {})
    for op in block.ops:
        for operand in op.operands:
            if operand not in values:
                values[operand] = _outer_constant(op, operand, builder)
        operands = [values[operand] for operand in op.operands]
        if op is block.last_op:
            return operands
        for result, value in zip(
            op.results, emit_scalar(op, operands, builder), strict=True
        ):
            values[result] = value
    raise AssertionError("a region block ends in its terminator")


def captured_values(block: Block) -> list[SSAValue]:
    """The values a region's block uses from outside it, in order of first
    use."""
    inside = set(block.args) | {r for op in block.ops for r in op.results}
    found = {v: None for op in block.ops for v in op.operands if v not in inside}
    return list(found)


def _outer_constant(user: Operation, value: SSAValue, builder: Builder) -> SSAValue:
    """The scalar of a constant defined outside a region that `user`, in it,
    uses; any other outer value has no scalar here."""
    owner = value.owner
    if not (isinstance(owner, Operation) and owner.name == "stablehlo.constant"):
        raise UnsupportedScalarOp(
            user,
            "uses a value defined outside its region; a reducer's, comparator's "
            "or combiner's block may use only its arguments and constants",
        )
    return emit_scalar(owner, [], builder)[0]


def emit_scalar(
    op: Operation, operands: Sequence[SSAValue], builder: Builder
) -> list[SSAValue]:
    """The scalar values of `op`'s results when its operands are `operands`
    (of the `scalar_type`s of `op`'s operand types), inserted with
    `builder`."""
    rule = _RULES.get(op.name)
    if rule is None:
        raise UnsupportedScalarOp(op, "has no scalar translation")
    for value in (*op.operands, *op.results):
        type_ = scalar_type(value.type)
        if not (isinstance(type_, IntegerType) or is_float(type_)):
            raise UnsupportedScalarOp(
                op, f"on {value.type} is not supported (only integers and floats)"
            )
    return [rule(_Emitter(op, list(operands), builder))]


class _Emitter:
    """What a rule needs: the op, its scalar operands and the builder."""

    def __init__(self, op: Operation, operands: list[SSAValue], builder: Builder):
        self.op = op
        self.args = operands
        self.builder = builder
        self.type = scalar_type(op.operands[0].type) if op.operands else None
        self.result_type = scalar_type(op.results[0].type)

    @property
    def is_float(self) -> bool:
        return self.type is not None and is_float(self.type)

    @property
    def is_bool(self) -> bool:
        return self.type == i1

    @property
    def unsigned(self) -> bool:
        """Unsigned integers and booleans (ordered false < true)."""
        return self.is_bool or is_unsigned(self.op.operands[0].type)

    @property
    def width(self) -> int:
        assert isinstance(self.type, IntegerType)
        return self.type.width.data

    def __call__(self, op: Operation) -> SSAValue:
        return self.builder.insert(op).results[0]

    def const(self, value: float | int, type_: Attribute | None = None) -> SSAValue:
        type_ = type_ or self.type
        assert type_ is not None
        return constant(self.builder, value, type_)

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self(arith.SelectOp(cond, a, b))

    def cmpi(self, predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self(arith.CmpiOp(a, b, predicate))

    def cmpf(self, predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self(arith.CmpfOp(a, b, predicate))

    def cmpf_zero(self, predicate: str, x: SSAValue) -> SSAValue:
        """`x` compared with 0.0; in f32 for `f8E8M0FNU`, which has no zero
        (its constant 0.0 rounds to 2^-127, which then compared equal)."""
        if isinstance(x.type, Float8E8M0FNUType):
            x = self(arith.ExtFOp(x, f32))
        return self.cmpf(predicate, x, self.const(0.0, x.type))

    def or_(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self(arith.OrIOp(a, b))

    def and_(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self(arith.AndIOp(a, b))


Rule = Callable[[_Emitter], SSAValue]
_RULES: dict[str, Rule] = {}


def _rule(*names: str) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        for name in names:
            _RULES[f"stablehlo.{name}"] = fn
        return fn

    return register


def _float_only(e: _Emitter) -> None:
    if not e.is_float:
        raise UnsupportedScalarOp(e.op, f"needs float elements, not {e.type}")


def _int_only(e: _Emitter) -> None:
    if e.is_float:
        raise UnsupportedScalarOp(e.op, f"needs integer elements, not {e.type}")


# --- constants -------------------------------------------------------------------


@_rule("constant")
def _constant(e: _Emitter) -> SSAValue:
    value = e.op.properties["value"]
    assert isinstance(value, DenseIntOrFPElementsAttr)
    values = value.get_values()
    if len(set(values)) != 1:
        raise UnsupportedScalarOp(e.op, "with several values is not a scalar")
    return e.const(values[0], e.result_type)


# --- unary -----------------------------------------------------------------------


def _unary_float(name: str, cls: type[Operation]) -> None:
    def rule(e: _Emitter) -> SSAValue:
        _float_only(e)
        return e(cls(e.args[0]))  # pyright: ignore[reportCallIssue]

    _rule(name)(rule)


for _name, _cls in {
    "cbrt": math.CbrtOp,
    "ceil": math.CeilOp,
    "floor": math.FloorOp,
    "cosine": math.CosOp,
    "sine": math.SinOp,
    "tan": math.TanOp,
    "tanh": math.TanhOp,
    "exponential": math.ExpOp,
    "exponential_minus_one": math.ExpM1Op,
    "log": math.LogOp,
    "log_plus_one": math.Log1pOp,
    "sqrt": math.SqrtOp,
    "rsqrt": math.RsqrtOp,
    "round_nearest_even": math.RoundEvenOp,
    "round_nearest_afz": math.RoundOp,
}.items():
    _unary_float(_name, _cls)


@_rule("logistic")
def _logistic(e: _Emitter) -> SSAValue:
    _float_only(e)
    one = e.const(1.0)
    exp = e(math.ExpOp(e(arith.NegfOp(e.args[0]))))
    return e(arith.DivfOp(one, e(arith.AddfOp(one, exp))))


@_rule("abs")
def _abs(e: _Emitter) -> SSAValue:
    if e.is_float:
        return e(math.AbsFOp(e.args[0]))
    if e.unsigned:
        return e.args[0]
    return e(math.AbsIOp(e.args[0]))


@_rule("negate")
def _negate(e: _Emitter) -> SSAValue:
    if e.is_float:
        return e(arith.NegfOp(e.args[0]))
    return e(arith.SubiOp(e.const(0), e.args[0]))


@_rule("sign")
def _sign(e: _Emitter) -> SSAValue:
    (x,) = e.args
    if e.is_float:
        # ±0 and NaN are their own sign
        zero_or_nan = e.cmpf_zero("ueq", x)
        return e.select(zero_or_nan, x, e(math.CopySignOp(e.const(1.0), x)))
    if e.is_bool:
        return x
    zero = e.const(0)
    if e.unsigned:
        assert isinstance(e.type, IntegerType)
        return e(arith.ExtUIOp(e.cmpi("ne", x, zero), e.type))
    positive = e.select(e.cmpi("sgt", x, zero), e.const(1), zero)
    return e.select(e.cmpi("slt", x, zero), e.const(-1), positive)


@_rule("not")
def _not(e: _Emitter) -> SSAValue:
    _int_only(e)
    return e(arith.XOrIOp(e.args[0], e.const(-1)))


@_rule("popcnt")
def _popcnt(e: _Emitter) -> SSAValue:
    _int_only(e)
    return e(math.CtPopOp(e.args[0]))


@_rule("count_leading_zeros")
def _clz(e: _Emitter) -> SSAValue:
    _int_only(e)
    return e(math.CountLeadingZerosOp(e.args[0]))


@_rule("is_finite")
def _is_finite(e: _Emitter) -> SSAValue:
    _float_only(e)
    x = e.args[0]
    if format_of(x.type) is not None:
        x = e(arith.ExtFOp(x, f32))  # float8/6/4 types may have no inf
    return e.cmpf("olt", e(math.AbsFOp(x)), e.const(float("inf"), x.type))


# --- binary ----------------------------------------------------------------------


def _binary(
    name: str,
    float_op: type[Operation] | None,
    int_op: type[Operation] | None,
    bool_op: type[Operation] | None = None,
    unsigned_op: type[Operation] | None = None,
) -> None:
    def rule(e: _Emitter) -> SSAValue:
        if e.is_float:
            cls = float_op
        elif e.is_bool and bool_op is not None:
            cls = bool_op
        elif e.unsigned and unsigned_op is not None:
            cls = unsigned_op
        else:
            cls = int_op
        if cls is None:
            kind = "float" if e.is_float else "integer"
            raise UnsupportedScalarOp(e.op, f"on {kind} elements is not defined")
        return e(cls(*e.args))  # pyright: ignore[reportCallIssue]

    _rule(name)(rule)


_binary("add", arith.AddfOp, arith.AddiOp, arith.OrIOp)
_binary("subtract", arith.SubfOp, arith.SubiOp)
_binary("multiply", arith.MulfOp, arith.MuliOp, arith.AndIOp)
_binary("and", None, arith.AndIOp)
_binary("or", None, arith.OrIOp)
_binary("xor", None, arith.XOrIOp)
_binary("atan2", math.Atan2Op, None)
_binary("maximum", arith.MaximumfOp, arith.MaxSIOp, arith.MaxUIOp, arith.MaxUIOp)
_binary("minimum", arith.MinimumfOp, arith.MinSIOp, arith.MinUIOp, arith.MinUIOp)


def _division_guards(e: _Emitter) -> tuple[SSAValue, SSAValue]:
    """`b == 0`, and a divisor that is never 0 nor -1 under `INT_MIN`."""
    a, b = e.args
    zero = e.cmpi("eq", b, e.const(0))
    bad = zero
    if not e.unsigned:
        int_min = e.cmpi("eq", a, e.const(1 << (e.width - 1)))
        bad = e.or_(zero, e.and_(int_min, e.cmpi("eq", b, e.const(-1))))
    return zero, e.select(bad, e.const(1), b)


@_rule("divide")
def _divide(e: _Emitter) -> SSAValue:
    a, b = e.args
    if e.is_float:
        return e(arith.DivfOp(a, b))
    zero, safe = _division_guards(e)
    cls = arith.DivUIOp if e.unsigned else arith.DivSIOp
    return e.select(zero, e.const(-1), e(cls(a, safe)))


@_rule("remainder")
def _remainder(e: _Emitter) -> SSAValue:
    a, b = e.args
    if e.is_float:
        return e(RemfOp(a, b))
    zero, safe = _division_guards(e)
    cls = arith.RemUIOp if e.unsigned else arith.RemSIOp
    return e.select(zero, a, e(cls(a, safe)))


@_rule("power")
def _power(e: _Emitter) -> SSAValue:
    a, b = e.args
    if e.is_float:
        return e(math.PowFOp(a, b))
    return _int_power(e, a, b)


def _int_power(e: _Emitter, base: SSAValue, exponent: SSAValue) -> SSAValue:
    """Square and multiply over the exponent's bits, wrapping around; a
    negative exponent gives 0 except for bases 1 and -1."""
    assert e.type is not None
    one = e.const(1)
    bits, negative = exponent, None
    if not e.unsigned:
        negative = e.cmpi("slt", exponent, e.const(0))
        bits = e.select(negative, e.const(0), exponent)
    loop = loops.ForOp(0, e.width, 1, [one, base, bits])
    e.builder.insert(loop)
    loop.block.erase_op(loop.yield_op())
    inner = Builder(InsertPoint.at_end(loop.block))
    result, square, rest = loop.carried
    odd = inner.insert(arith.TruncIOp(rest, i1)).result
    times = inner.insert(arith.MuliOp(result, square)).result
    result = inner.insert(arith.SelectOp(odd, times, result)).result
    square = inner.insert(arith.MuliOp(square, square)).result
    rest = inner.insert(arith.ShRUIOp(rest, constant(inner, 1, e.type))).result
    inner.insert(loops.YieldOp(result, square, rest))
    power = loop.results[0]
    if negative is None:
        return power
    # base 1 -> 1; base -1 -> ±1 by the exponent's parity; others -> 0
    odd_exponent = e(arith.TruncIOp(exponent, i1))
    minus_one = e.select(odd_exponent, e.const(-1), one)
    special = e.select(e.cmpi("eq", base, one), one, e.const(0))
    special = e.select(e.cmpi("eq", base, e.const(-1)), minus_one, special)
    return e.select(negative, special, power)


def _shift(kind: str) -> Rule:
    def rule(e: _Emitter) -> SSAValue:
        _int_only(e)
        a, b = e.args
        inside = e.cmpi("ult", b, e.const(e.width))
        amount = e.select(inside, b, e.const(0))
        if kind == "left":
            return e.select(inside, e(arith.ShLIOp(a, amount)), e.const(0))
        if kind == "logical":
            return e.select(inside, e(arith.ShRUIOp(a, amount)), e.const(0))
        sign = e(arith.ShRSIOp(a, e.const(e.width - 1)))
        return e.select(inside, e(arith.ShRSIOp(a, amount)), sign)

    return rule


_rule("shift_left")(_shift("left"))
_rule("shift_right_logical")(_shift("logical"))
_rule("shift_right_arithmetic")(_shift("arithmetic"))


# --- compare, select, clamp --------------------------------------------------------

_FLOAT_PREDICATES = {
    "EQ": "oeq",
    "NE": "une",
    "LT": "olt",
    "LE": "ole",
    "GT": "ogt",
    "GE": "oge",
}
_INT_PREDICATES = {
    "EQ": "eq",
    "NE": "ne",
    "LT": "lt",
    "LE": "le",
    "GT": "gt",
    "GE": "ge",
}


@_rule("compare")
def _compare(e: _Emitter) -> SSAValue:
    direction_attr = e.op.properties["comparison_direction"]
    assert isinstance(direction_attr, ComparisonDirectionAttr)
    direction = str(direction_attr.data)
    compare_type = e.op.properties.get("compare_type")
    assert compare_type is None or isinstance(compare_type, ComparisonTypeAttr)
    kind = None if compare_type is None else str(compare_type.data)
    a, b = e.args
    if e.is_float and kind == "TOTALORDER":
        a, b = total_order_key(e, a), total_order_key(e, b)  # compared signed
    elif e.is_float:
        return e.cmpf(_FLOAT_PREDICATES[direction], a, b)
    predicate = _INT_PREDICATES[direction]
    if predicate not in ("eq", "ne"):  # integers: SIGNED or UNSIGNED as their type
        predicate = ("u" if e.unsigned else "s") + predicate
    return e.cmpi(predicate, a, b)


def total_order_key_type(float_type: AnyFloat) -> IntegerType:
    """The integer type of `total_order_key`'s keys for this float type."""
    return IntegerType(32 if format_of(float_type) is not None else float_type.bitwidth)


def total_order_key(place: Callable[[Operation], SSAValue], x: SSAValue) -> SSAValue:
    """Signed integers ordered as IEEE totalOrder orders the floats: the bits,
    with the magnitude bits flipped when the sign is set. `place` inserts an
    op and returns its result (a builder's, or a kernel nest's). bf16 and
    the float8/6/4 types are keyed by their f32 value, as the evaluator
    orders the float32 values it holds (an unsigned `f8E8M0FNU`'s bits, or
    an FNUZ NaN's, 0x80, do not order as sign and magnitude)."""
    float_type = x.type
    assert isinstance(float_type, AnyFloat)
    int_type = total_order_key_type(float_type)
    if format_of(float_type) is not None:
        x = place(arith.ExtFOp(x, f32))
    width = int_type.width.data
    zero = place(arith.ConstantOp(IntegerAttr(0, int_type)))
    magnitude = place(arith.ConstantOp(IntegerAttr((1 << (width - 1)) - 1, int_type)))
    bits = place(arith.BitcastOp(x, int_type))
    negative = place(arith.CmpiOp(bits, zero, "slt"))
    flipped = place(arith.XOrIOp(bits, magnitude))
    return place(arith.SelectOp(negative, flipped, bits))


@_rule("select")
def _select(e: _Emitter) -> SSAValue:
    return e.select(*e.args)


@_rule("clamp")
def _clamp(e: _Emitter) -> SSAValue:
    low, x, high = e.args
    if e.is_float:
        return e(arith.MinimumfOp(e(arith.MaximumfOp(x, low)), high))
    max_op, min_op = (
        (arith.MaxUIOp, arith.MinUIOp) if e.unsigned else (arith.MaxSIOp, arith.MinSIOp)
    )
    return e(min_op(e(max_op(x, low)), high))


# --- conversions -----------------------------------------------------------------


@_rule("convert")
def _convert(e: _Emitter) -> SSAValue:
    (x,) = e.args
    source, target = e.type, e.result_type
    if source == target:
        return x
    if target == i1:
        if e.is_float:
            return e.cmpf_zero("une", x)
        return e.cmpi("ne", x, e.const(0))
    if isinstance(source, AnyFloat) and isinstance(target, AnyFloat):
        return _float_to_float(e, x, target)
    if isinstance(source, AnyFloat):
        return _float_to_int(e, x)
    assert isinstance(source, IntegerType)
    if isinstance(target, AnyFloat):
        return e((arith.UIToFPOp if e.unsigned else arith.SIToFPOp)(x, target))
    assert isinstance(target, IntegerType)
    if target.width.data < source.width.data:
        return e(arith.TruncIOp(x, target))
    if target.width.data == source.width.data:
        return x
    return e((arith.ExtUIOp if e.unsigned else arith.ExtSIOp)(x, target))


def _float_to_float(e: _Emitter, x: SSAValue, target: AnyFloat) -> SSAValue:
    assert isinstance(e.type, AnyFloat)
    source_width, target_width = e.type.bitwidth, target.bitwidth
    if source_width == target_width:  # f16 <-> bf16, through f32
        x = e(arith.ExtFOp(x, f32))
        return e(arith.TruncFOp(x, target))
    if target_width > source_width:
        return e(arith.ExtFOp(x, target))
    return e(arith.TruncFOp(x, target))


def _float_to_int(e: _Emitter, x: SSAValue) -> SSAValue:
    target = e.result_type
    assert isinstance(target, IntegerType)
    return float_to_int(e.builder, x, target, is_unsigned(e.op.results[0].type))


def float_to_int(
    builder: Builder, x: SSAValue, target: IntegerType, unsigned: bool
) -> SSAValue:
    """`x` truncated toward zero, saturating at the type's bounds; NaN gives
    0 (StableHLO leaves it to the implementation; this is XLA's choice).
    bf16 and the float8/6/4 types are compared in f32, which holds the
    bounds (a float8 type may have neither them nor infinity). The loop
    pass `int-in-float` recognizes this guard and drops it (its float code
    saturates already); tests/lit/passes/int-in-float/hlo_to_loop_guards.mlir
    checks that the two still meet."""
    source = x.type
    assert isinstance(source, AnyFloat)

    def put(op: Operation) -> SSAValue:
        return builder.insert(op).results[0]

    if format_of(source) is not None:  # exactly, where 2^31 and inf are numbers
        x = put(arith.ExtFOp(x, f32))
        source = f32

    width = target.width.data
    low, high = (0, 1 << width) if unsigned else (-(1 << (width - 1)), 1 << (width - 1))
    high_f = constant(builder, _representable(float(high), source), source)
    low_f = constant(builder, _representable(float(low), source), source)
    above = put(arith.CmpfOp(x, high_f, "oge"))
    below = put(arith.CmpfOp(x, low_f, "ole"))
    nan = put(arith.CmpfOp(x, x, "uno"))
    outside = put(arith.OrIOp(put(arith.OrIOp(above, below)), nan))
    inside = put(arith.XOrIOp(outside, constant(builder, 1, i1)))
    safe = put(arith.SelectOp(inside, x, constant(builder, 0.0, source)))
    cls = arith.FPToUIOp if unsigned else arith.FPToSIOp
    value = put(cls(safe, target))
    value = put(arith.SelectOp(above, constant(builder, high - 1, target), value))
    value = put(arith.SelectOp(below, constant(builder, low, target), value))
    return put(arith.SelectOp(nan, constant(builder, 0, target), value))


def float_sum_type(operand: Attribute, result: Attribute) -> Attribute | None:
    """The type a dot or convolution of float `operand` elements with an
    integer `result` sums its products in: the operands' own (at least f32),
    the sum converted to the result at the end, as XLA does (f32 operands
    with an i8 result: 4.5 gives 4, 200.7 gives 127). None for other types."""
    if not (isinstance(result, IntegerType) and isinstance(operand, AnyFloat)):
        return None
    return operand if operand.bitwidth >= 32 else f32


def _representable(value: float, type_: AnyFloat) -> float:
    """`value` (± a power of two or 0) or infinity where the type's range
    ends."""
    max_exponent = 15 if isinstance(type_, Float16Type) else 127
    if isinstance(type_, Float64Type):
        max_exponent = 1023
    if abs(value) <= 2.0**max_exponent:
        return value
    return float("inf") if value > 0 else float("-inf")


@_rule("bitcast_convert")
def _bitcast_convert(e: _Emitter) -> SSAValue:
    source, target = e.type, e.result_type
    assert isinstance(source, IntegerType | AnyFloat)
    assert isinstance(target, IntegerType | AnyFloat)
    if source.bitwidth != target.bitwidth or i1 in (source, target):
        raise UnsupportedScalarOp(
            e.op, f"from {source} to {target} changes the shape of a scalar"
        )
    (x,) = e.args
    return x if source == target else e(arith.BitcastOp(x, target))


def _next_after(e: _Emitter) -> SSAValue:
    """`chlo.next_after`: the float after `x` toward `y`, one step of the
    bit pattern (up in magnitude when `y` lies beyond `x` from zero, else
    down); `y` when they are equal, the smallest subnormal with `y`'s sign
    from zero, NaN when either is. Zero is compared with as `cmpf_zero`
    does (`f8E8M0FNU` has none), and in the formats without -0 (FNUZ, whose
    sign bit alone is NaN) a step down from the smallest negative value is
    +0."""
    _float_only(e)
    assert isinstance(e.type, AnyFloat)
    integer = IntegerType(e.type.bitwidth)
    x, y = e.args
    bits = e(arith.BitcastOp(x, integer))
    sign = e.const(1 << (e.type.bitwidth - 1), integer)
    away_from_zero = e.cmpi("eq", e.cmpf("olt", x, y), e.cmpf_zero("ogt", x))
    step = e.select(away_from_zero, e.const(1, integer), e.const(-1, integer))
    stepped = e(arith.AddiOp(bits, step))
    fmt = format_of(e.type)
    if fmt is not None and fmt.kind == "fnuz":
        stepped = e.select(e.cmpi("eq", stepped, sign), e.const(0, integer), stepped)
    following = e(arith.BitcastOp(stepped, e.type))
    sign_of_y = e.and_(e(arith.BitcastOp(y, integer)), sign)
    subnormal = e(arith.BitcastOp(e.or_(sign_of_y, e.const(1, integer)), e.type))
    result = e.select(
        e.cmpf("oeq", x, y),
        y,
        e.select(e.cmpf_zero("oeq", x), subnormal, following),
    )
    return e.select(e.cmpf("uno", x, y), e(arith.AddfOp(x, y)), result)


_RULES["chlo.next_after"] = _next_after

"""`arith` and `math` on scalars (and on the vectors of register tiles) as
`llvm` ops.

Integer and float arithmetic map one to one. Where xDSL's llvm dialect has no
op, LLVM intrinsics called through `llvm.call_intrinsic` fill in, with the
semantics xlir's scalar lowering relies on: `llvm.maximum`/`minimum` (NaN
propagating, as `arith.maximumf`), `llvm.smax`…, `llvm.fptosi.sat` (the
lowering guards the range and NaN already, so saturation is never observed),
`llvm.ctpop`/`ctlz`/`abs`, `llvm.round`/`roundeven`/`trunc`. `uitofp` is
`sitofp` of the value widened (or halved, for 64 bits, keeping the sticky
bit so the rounding stays correct), lane by lane on vectors. bf16 and the float8/6/4 formats are the
integers that hold their bits: only selects and bitcasts take them (the
`widen-floats` pass computes on them in f32). Transcendentals that `expand-math` did
not turn into arithmetic (f64, or a pipeline without it) call the math
function the target's emitter names (`LLVMEmitter.math_function`: libm's by
default).
`arith.dot_quads` is shifts, masks, multiplies and adds (a target with a
byte dot product instruction replaces it). `vector.broadcast` is an insertelement and a shufflevector of lane 0, `vector.insert` (of a scalar, at a constant lane) an insertelement,
`vector.shuffle` (of two vectors, `row_lanes`' transposes) a shufflevector; the ops
`passes/loop/jam_vector.py` puts on vectors lower as on scalars, with vector types
(a compare gives a vector of i1, which a select takes); math functions on
vectors are `expand-math`'s to write out.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, llvm, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
    f32,
    i1,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xlir.dialects.llvm import FCmpOp, SelectOp
from xlir.lowering.llvm.function import (
    SGT,
    SLE,
    SLT,
    FunctionBuilder,
    Unsupported,
    llvm_type,
)
from xlir.passes.loop.float_formats import format_of

Emitter = Callable[[FunctionBuilder, Operation], SSAValue]


def suffix(type_: Attribute) -> str:
    """The type part of an overloaded intrinsic's name: f32, i64, v16f32, …"""
    if isinstance(type_, VectorType):
        return f"v{type_.get_shape()[0]}{suffix(type_.element_type)}"
    if isinstance(type_, IntegerType):
        return f"i{type_.width.data}"
    assert isinstance(type_, AnyFloat)
    return f"f{type_.bitwidth}"


def _args(b: FunctionBuilder, op: Operation) -> list[SSAValue]:
    return [b.get(v) for v in op.operands]


def _result_type(op: Operation) -> Attribute:
    return llvm_type(op.results[0].type, op)


def _same_type(b: FunctionBuilder, cls, *args: SSAValue) -> SSAValue:
    """`cls(*args)`, an op of its first operand's type whose properties are
    its class's alone (built once: `emit_alike`)."""
    return b.emit_alike(cls, lambda: cls(*args), args, [args[0].type])


def _binary(cls) -> Emitter:
    return lambda b, op: _same_type(b, cls, *_args(b, op))


def _intrinsic(name: str) -> Emitter:
    """`llvm.<name>.<type>` applied to the operands."""

    def emit(b: FunctionBuilder, op: Operation) -> SSAValue:
        type_ = _result_type(op)
        return b.intrinsic(f"llvm.{name}.{suffix(type_)}", _args(b, op), type_)

    return emit


def _constant(b: FunctionBuilder, op: Operation) -> SSAValue:
    assert isinstance(op, arith.ConstantOp)
    type_ = _result_type(op)
    value = op.value
    if isinstance(value, IntegerAttr):
        bits = type_.width.data if isinstance(type_, IntegerType) else 64
        number = value.value.data
        if bits == 1:
            number = number & 1
        elif number >= 1 << (bits - 1):
            number -= 1 << bits
        return b.const(number, type_)
    if isinstance(value, FloatAttr):
        return b.const(value.value.data, type_)
    raise Unsupported(op, f"has a constant {value} the target does not support")


def _cast(cls) -> Emitter:
    return lambda b, op: b.convert(cls, b.get(op.operands[0]), _result_type(op))


def _index_cast(b: FunctionBuilder, op: Operation) -> SSAValue:
    value = b.get(op.operands[0])
    source = llvm_type(op.operands[0].type, op)
    target = _result_type(op)
    assert isinstance(source, IntegerType) and isinstance(target, IntegerType)
    if source.width.data == target.width.data:
        return value
    if source.width.data > target.width.data:
        return b.convert(llvm.TruncOp, value, target)
    return b.convert(llvm.SExtOp, value, target)


def _float_to_int(kind: str) -> Emitter:
    def emit(b: FunctionBuilder, op: Operation) -> SSAValue:
        source = llvm_type(op.operands[0].type, op)
        target = _result_type(op)
        name = f"llvm.{kind}.sat.{suffix(target)}.{suffix(source)}"
        return b.intrinsic(name, [b.get(op.operands[0])], target)

    return emit


def _uitofp(b: FunctionBuilder, op: Operation) -> SSAValue:
    """On vectors too, lane by lane as on scalars (module docstring)."""
    value = b.get(op.operands[0])
    source = llvm_type(op.operands[0].type, op)
    target = _result_type(op)
    shape = source.get_shape() if isinstance(source, VectorType) else None
    element = source.element_type if isinstance(source, VectorType) else source
    assert isinstance(element, IntegerType)

    def constant(number: int) -> SSAValue:
        scalar = b.const(number, element)
        return scalar if shape is None else splat(b, scalar, VectorType(element, shape))

    width = element.width.data
    if width < 64:
        wide: Attribute = IntegerType(64 if width >= 32 else 32)
        if shape is not None:
            wide = VectorType(wide, shape)
        return b.emit(llvm.SIToFPOp(b.emit(llvm.ZExtOp(value, wide)), target))
    one = constant(1)
    halved = b.emit(
        llvm.OrOp(b.emit(llvm.LShrOp(value, one)), b.emit(llvm.AndOp(value, one)))
    )
    doubled = b.emit(llvm.SIToFPOp(halved, target))
    doubled = b.emit(llvm.FAddOp(doubled, doubled))
    direct = b.emit(llvm.SIToFPOp(value, target))
    negative = b.icmp(value, constant(0), SLT)
    return b.emit(SelectOp(negative, doubled, direct))


def _bitcast(b: FunctionBuilder, op: Operation) -> SSAValue:
    """A bf16 or float8 value is its bits already: to or from its integer it
    is the same LLVM value (a 4- or 6-bit one is its byte)."""
    value = b.get(op.operands[0])
    type_ = _result_type(op)
    if value.type == type_:
        return value
    if isinstance(value.type, IntegerType) and isinstance(type_, IntegerType):
        # a 4- or 6-bit float is held in a byte: to its bits, and back
        wider = type_.width.data > value.type.width.data
        return b.convert(llvm.ZExtOp if wider else llvm.TruncOp, value, type_)
    return b.convert(llvm.BitcastOp, value, type_)


def _cmpi(b: FunctionBuilder, op: Operation) -> SSAValue:
    assert isinstance(op, arith.CmpiOp)
    return b.icmp(b.get(op.lhs), b.get(op.rhs), op.predicate.value.data)


def _cmpf(b: FunctionBuilder, op: Operation) -> SSAValue:
    """On vectors too: a vector of i1, each lane compared (and NaN tested on
    its bits) as a scalar is."""
    assert isinstance(op, arith.CmpfOp)
    predicate = op.predicate.value.data
    lhs, rhs = b.get(op.lhs), b.get(op.rhs)
    if predicate in (0, 15):  # false, true
        constant = b.const(predicate // 15, i1)
        result = _result_type(op)
        return (
            splat(b, constant, result) if isinstance(result, VectorType) else constant
        )
    if predicate in (1, 13) and op.lhs == op.rhs:  # x oeq x, x une x
        return _nan_test(b, lhs, predicate == 13)
    if predicate in (7, 14):  # ord, uno: neither / either operand is NaN
        nan = predicate == 14
        a, c = _nan_test(b, lhs, nan), _nan_test(b, rhs, nan)
        return b.emit((llvm.OrOp if nan else llvm.AndOp)(a, c))
    return b.emit_alike(
        ("fcmp", predicate),
        lambda: FCmpOp(lhs, rhs, predicate),
        [lhs, rhs],
        [_result_type(op)],
    )


def _nan_test(b: FunctionBuilder, value: SSAValue, nan: bool) -> SSAValue:
    """Whether `value` is NaN (`nan`) or is not, tested on its bits: the
    magnitude above infinity's. LLVM lets an op that makes a NaN make any
    NaN, so from `fcmp uno` of an op's result it derives a test of the op's
    operands (`sqrt(x)` is NaN where `x < 0`), and then takes
    `select(that, NaN constant, sqrt(x))` for `sqrt(x)` alone; the hardware's
    NaN is another (x86's has the sign bit), so JAX's canonicalization of
    NaN bits (`select(x != x, 0x7ff8..., bits(x))`) lost its effect. An
    integer test of the bits is one LLVM cannot relate to the op."""
    type_ = value.type
    element = type_.element_type if isinstance(type_, VectorType) else type_
    assert isinstance(element, AnyFloat)
    width = element.bitwidth
    exponent = {16: 5, 32: 8, 64: 11}.get(width)
    if exponent is None:  # x86's f80: no bit layout of this shape
        return b.emit(FCmpOp(value, value, 13 if nan else 1))
    bits_type: Attribute = IntegerType(width)
    magnitude_mask = b.const((1 << (width - 1)) - 1, bits_type)
    infinity = b.const(((1 << exponent) - 1) << (width - 1 - exponent), bits_type)
    if isinstance(type_, VectorType):
        bits_type = VectorType(bits_type, type_.get_shape())
        magnitude_mask = splat(b, magnitude_mask, bits_type)
        infinity = splat(b, infinity, bits_type)
    bits = b.convert(llvm.BitcastOp, value, bits_type)
    magnitude = _same_type(b, llvm.AndOp, bits, magnitude_mask)
    return b.icmp(magnitude, infinity, SGT if nan else SLE)


def _select(b: FunctionBuilder, op: Operation) -> SSAValue:
    """On vectors, a vector of i1 (or one i1) chooses each lane."""
    args = _args(b, op)
    return b.emit_alike(SelectOp, lambda: SelectOp(*args), args, [args[1].type])


def _negf(b: FunctionBuilder, op: Operation) -> SSAValue:
    return _same_type(b, llvm.FNegOp, b.get(op.operands[0]))


def _unary_float(cls) -> Emitter:
    return lambda b, op: _same_type(b, cls, b.get(op.operands[0]))


def _rsqrt(b: FunctionBuilder, op: Operation) -> SSAValue:
    type_ = _result_type(op)
    root = _same_type(b, llvm.FSqrtOp, b.get(op.operands[0]))
    one = b.const(1.0, type_)
    return _same_type(b, llvm.FDivOp, one, root)


def splat(b: FunctionBuilder, value: SSAValue, type_: VectorType) -> SSAValue:
    """The scalar `value` in every lane of a vector of `type_`."""
    undefined = b.emit_alike(llvm.UndefOp, lambda: llvm.UndefOp(type_), [], [type_])
    lane = b.const(0, i32)
    first = b.emit_alike(
        llvm.InsertElementOp,
        lambda: llvm.InsertElementOp(undefined, value, lane),
        [undefined, value, lane],
        [type_],
    )
    lanes = type_.get_shape()[0]
    return b.emit_alike(
        ("shufflevector", lanes),
        lambda: llvm.ShuffleVectorOp(
            first, undefined, DenseArrayBase.from_list(i32, [0] * lanes), type_
        ),
        [first, undefined],
        [type_],
    )


def _broadcast(b: FunctionBuilder, op: Operation) -> SSAValue:
    type_ = _result_type(op)
    assert isinstance(type_, VectorType)
    return splat(b, b.get(op.operands[0]), type_)


def _insert(b: FunctionBuilder, op: Operation) -> SSAValue:
    """`vector.insert` of a scalar at a constant lane (`jam_vector`'s
    gathered loads): an insertelement."""
    assert isinstance(op, vector.InsertOp)
    (lane,) = op.static_position.get_values()
    operands = [b.get(op.dest), b.get(op.source), b.const(lane, i32)]
    return b.emit_alike(
        llvm.InsertElementOp,
        lambda: llvm.InsertElementOp(*operands),
        operands,
        [operands[0].type],
    )


def _shuffle(b: FunctionBuilder, op: Operation) -> SSAValue:
    """`vector.shuffle` of two vectors: a shufflevector of the same mask."""
    assert isinstance(op, vector.ShuffleOp)
    mask = op.mask.get_values()
    first, second = b.get(op.v1), b.get(op.v2)
    type_ = _result_type(op)
    return b.emit_alike(
        ("shufflevector", mask),
        lambda: llvm.ShuffleVectorOp(
            first, second, DenseArrayBase.from_list(i32, list(mask)), type_
        ),
        [first, second],
        [type_],
    )


def _dot_quads(b: FunctionBuilder, op: Operation) -> SSAValue:
    """`arith.dot_quads` in plain integer code, for any width: byte t of the
    lhs zero-extended (shifted down, masked), of the rhs sign-extended
    (shifted up to the top, arithmetic shift down), multiplied and added in
    order. A target with a byte dot product instruction lowers it so
    instead (`CpuEmitter`)."""
    acc, lhs, rhs = _args(b, op)
    type_ = _result_type(op)

    def constant(value: int) -> SSAValue:
        scalar = b.const(value, i32)
        return splat(b, scalar, type_) if isinstance(type_, VectorType) else scalar

    for t in range(4):
        unsigned = b.emit(llvm.LShrOp(lhs, constant(8 * t))) if t else lhs
        if t < 3:
            unsigned = b.emit(llvm.AndOp(unsigned, constant(255)))
        signed = b.emit(llvm.ShlOp(rhs, constant(24 - 8 * t))) if t < 3 else rhs
        signed = b.emit(llvm.AShrOp(signed, constant(24)))
        acc = b.emit(llvm.AddOp(acc, b.emit(llvm.MulOp(unsigned, signed))))
    return acc


def _with_false_flag(name: str) -> Emitter:
    """ctlz/abs take an i1 'is poison' flag: false keeps every input defined."""

    def emit(b: FunctionBuilder, op: Operation) -> SSAValue:
        type_ = _result_type(op)
        args = [b.get(op.operands[0]), b.const(0, i1)]
        return b.intrinsic(f"llvm.{name}.{suffix(type_)}", args, type_)

    return emit


def _math_call(name: str) -> Emitter:
    """A call of the target's math function `name` (libm's by default:
    `LLVMEmitter.math_function`); a type it has no function for (f16)
    goes through f32. Not on vectors (`scalar_problem`): `expand-math`
    writes those out."""

    def emit(b: FunctionBuilder, op: Operation) -> SSAValue:
        type_ = _result_type(op)
        assert isinstance(type_, AnyFloat)
        args = _args(b, op)
        call_type = type_ if type_.bitwidth in (32, 64) else f32
        if call_type is not type_:
            args = [b.convert(llvm.FPExtOp, a, f32) for a in args]
        symbol = b.emitter.math_function(name, call_type)
        b.module.declare(symbol, [call_type] * len(args), call_type)
        result = b.call(symbol, args, call_type)
        if call_type is not type_:
            result = b.convert(llvm.FPTruncOp, result, type_)
        return result

    return emit


MATH_FUNCTIONS = {
    "math.exp": "exp",
    "math.expm1": "expm1",
    "math.log": "log",
    "math.log1p": "log1p",
    "math.tanh": "tanh",
    "math.sin": "sin",
    "math.cos": "cos",
    "math.tan": "tan",
    "math.atan2": "atan2",
    "math.powf": "pow",
    "math.cbrt": "cbrt",
    "math.erf": "erf",
}
"""The math ops lowered to a call of a math library's function (libm's
names: the target's emitter may rename them), by op name."""

EMITTERS: dict[str, Emitter] = {
    "arith.constant": _constant,
    "arith.addi": _binary(llvm.AddOp),
    "arith.subi": _binary(llvm.SubOp),
    "arith.muli": _binary(llvm.MulOp),
    "arith.divsi": _binary(llvm.SDivOp),
    "arith.divui": _binary(llvm.UDivOp),
    "arith.remsi": _binary(llvm.SRemOp),
    "arith.remui": _binary(llvm.URemOp),
    "arith.andi": _binary(llvm.AndOp),
    "arith.ori": _binary(llvm.OrOp),
    "arith.xori": _binary(llvm.XOrOp),
    "arith.shli": _binary(llvm.ShlOp),
    "arith.shrsi": _binary(llvm.AShrOp),
    "arith.shrui": _binary(llvm.LShrOp),
    "arith.maxsi": _intrinsic("smax"),
    "arith.minsi": _intrinsic("smin"),
    "arith.maxui": _intrinsic("umax"),
    "arith.minui": _intrinsic("umin"),
    "arith.addf": _binary(llvm.FAddOp),
    "arith.subf": _binary(llvm.FSubOp),
    "arith.mulf": _binary(llvm.FMulOp),
    "arith.divf": _binary(llvm.FDivOp),
    "arith.remf": _binary(llvm.FRemOp),
    "arith.negf": _negf,
    "arith.maximumf": _intrinsic("maximum"),
    "arith.minimumf": _intrinsic("minimum"),
    "arith.maxnumf": _intrinsic("maxnum"),
    "arith.minnumf": _intrinsic("minnum"),
    "arith.cmpi": _cmpi,
    "arith.cmpf": _cmpf,
    "arith.select": _select,
    "arith.extsi": _cast(llvm.SExtOp),
    "arith.extui": _cast(llvm.ZExtOp),
    "arith.trunci": _cast(llvm.TruncOp),
    "arith.extf": _cast(llvm.FPExtOp),
    "arith.truncf": _cast(llvm.FPTruncOp),
    "arith.sitofp": _cast(llvm.SIToFPOp),
    "arith.uitofp": _uitofp,
    "arith.fptosi": _float_to_int("fptosi"),
    "arith.fptoui": _float_to_int("fptoui"),
    "arith.bitcast": _bitcast,
    "arith.index_cast": _index_cast,
    "math.absf": _intrinsic("fabs"),
    "math.sqrt": _unary_float(llvm.FSqrtOp),
    "math.floor": _unary_float(llvm.FFloorOp),
    "math.ceil": _unary_float(llvm.FCeilOp),
    "math.trunc": _intrinsic("trunc"),
    "math.round": _intrinsic("round"),
    "math.roundeven": _intrinsic("roundeven"),
    "math.copysign": _intrinsic("copysign"),
    "math.fma": _intrinsic("fma"),
    "math.rsqrt": _rsqrt,
    "math.ctpop": _intrinsic("ctpop"),
    "math.ctlz": _with_false_flag("ctlz"),
    "math.absi": _with_false_flag("abs"),
    **{op: _math_call(function) for op, function in MATH_FUNCTIONS.items()},
    "vector.broadcast": _broadcast,
    "vector.insert": _insert,
    "vector.shuffle": _shuffle,
    "arith.dot_quads": _dot_quads,
}
"""Op name -> the emitter of its `llvm` code."""


_MOVES_BITS = (
    "arith.select",
    "arith.bitcast",
    "vector.broadcast",
    "vector.insert",
    "vector.shuffle",
)
"""The ops that may take bf16 and float8 values as they are (they move bits)."""


def scalar_problem(op: Operation, target: str) -> str | None:
    """Why the op cannot be lowered (None where it can): a math function
    on a vector, or an op that computes on a type the `target` holds only
    as bits. A vector is told by its exact class: an `isinstance` through
    `ABCMeta` that fails, as it does for every scalar, cost more than the
    rest of an operand's check."""
    if op.name in MATH_FUNCTIONS and isinstance(op.results[0].type, VectorType):
        return (
            f"calls a math function on {op.results[0].type}, which target "
            f"'{target}' calls on scalars only (the expand-math pass writes it "
            "out as vector code)"
        )
    if op.name in _MOVES_BITS:
        return None
    for value in (*op.operands, *op.results):
        element = value.type
        if type(element) is VectorType:
            element = element.element_type
        if format_of(element) is not None:
            return (
                f"computes on {element}, which target '{target}' holds only in memory "
                "(the widen-floats pass computes on it in f32)"
            )
    return None

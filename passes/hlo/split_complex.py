"""`split-complex`: complex numbers as pairs of floats, before fusion.

Every complex tensor of the program becomes two real tensors of the same
shape, its real parts and its imaginary parts, and every op on complex
values becomes ops on those (docs/hlo-passes.md, "Complex numbers"):

* data movement (broadcast, transpose, slice, reshape, concatenate, pad,
  reverse, gather, dynamic slices, select) and add, subtract, negate and
  complex -> complex convert act on each part alike: the op twice;
* multiply, divide, abs, exp, log, sqrt, the trigonometric functions, power,
  compare and the others are real formulas of the parts
  (passes/hlo/decompositions/complex_math.py); dot_general and convolution,
  bilinear, are four real products;
* ops with regions that carry complex values (reduce, reduce_window,
  scatter, while, case) carry both parts: each complex operand, result and
  region argument is two, so a reducer's complex multiply becomes real
  scalar code;
* `stablehlo.fft` becomes `hlo.fft` on the parts (its loop kernel:
  lowering/kernels/fft.py); `real`, `imag` and `complex` pick or pair parts.

At function boundaries a complex tensor of shape S is one real tensor of
shape S x 2, the parts interleaved as numpy's complex64 and complex128 hold
them, marked with the argument or result attribute `xlir.complex`: host
arrays pass through unchanged, and the signature (`complex_signature_type`)
still says complex.

So the loop level and every target below it see real tensors only: no
complex scalar type in `arith`, no pair-valued loads and stores, no complex
case in any kernel. Fusion then puts the parts' formulas in one loop nest.
Ops with complex values that have no rule here are listed in one diagnostic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    ComplexType,
    DictionaryAttr,
    FunctionType,
    ModuleOp,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xlir.dialects.hlo import COMPLEX_ATTRIBUTE
from xlir.dialects.hlo import FftOp as HloFftOp
from xlir.dialects.stablehlo import data_movement as dm
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.control_flow import ReturnOp
from xlir.dialects.stablehlo.enums import (
    ComparisonDirectionAttr,
    ComparisonTypeAttr,
)
from xlir.dialects.stablehlo.linalg import FftOp, FftType
from xlir.dialects.stablehlo.types import element_type
from xlir.dialects.syntax import array_values
from xlir.evaluator.hlo.types import dense_to_numpy
from xlir.passes.hlo.decompositions import complex_math as cm
from xlir.passes.hlo.decompositions.emitter import Emitter
from xlir.passes.hlo.simplify_patterns.constants import (
    constant_array,
    dense_from_numpy,
    splat_ops,
)

from xlir.diagnostics import refuse_ops


class _Unsupported(Exception):
    pass


class _FollowOn(Exception):
    """Uses a complex value whose op could not be split (already reported)."""


def _is_complex(type_: Attribute) -> bool:
    return isinstance(type_, TensorType) and isinstance(
        type_.get_element_type(), ComplexType
    )


def _part_type(type_: Attribute) -> TensorType:
    """The real type of each part of a complex tensor type."""
    assert isinstance(type_, TensorType)
    element = type_.get_element_type()
    assert isinstance(element, ComplexType)
    part = element.element_type
    if part.name not in ("f32", "f64"):
        raise _Unsupported(
            f"on complex<{part}> is not supported (complex<f32>, complex<f64>)"
        )
    return TensorType(part, type_.get_shape())


def _packed_type(type_: Attribute) -> TensorType:
    part = _part_type(type_)
    return TensorType(part.get_element_type(), [*part.get_shape(), 2])


@dataclass(frozen=True)
class SplitComplexPass(ModulePass):
    """See the module docstring."""

    name = "split-complex"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        splitter = _Splitter()
        for function in list(op.body.block.ops):
            if isinstance(function, func.FuncOp) and function.body.blocks:
                splitter.function(function)
        splitter.finish()
        messages = [(o, f"'{o.name}' {why}") for o, why in splitter.problems]
        refuse_ops("split-complex cannot split", messages, "on complex values")


Value = SSAValue | cm.Complex


class _Splitter:
    def __init__(self) -> None:
        self.parts: dict[SSAValue, cm.Complex] = {}
        self.dead_ops: list[Operation] = []
        self.dead_args: list[BlockArgument] = []
        self.problems: list[tuple[Operation, str]] = []

    # --- walking -------------------------------------------------------------

    def function(self, function: func.FuncOp) -> None:
        block = function.body.block
        builder = Builder(InsertPoint.at_start(block))
        old_args = list(block.args)
        marked_args = [_is_complex(a.type) for a in old_args]
        for arg in old_args:
            if _is_complex(arg.type):
                try:
                    packed = block.insert_arg(_packed_type(arg.type), arg.index)
                    packed.name_hint = arg.name_hint
                except _Unsupported as error:
                    self.problems.append((function, f"argument {error}"))
                    continue
                self.parts[arg] = _unpack(builder, packed, _part_type(arg.type))
                self.dead_args.append(arg)
        self.block(block)
        outputs = function.function_type.outputs.data
        marked_results = [_is_complex(t) for t in outputs]
        new_outputs = [
            _packed_type(t) if marked else t
            for t, marked in zip(outputs, marked_results, strict=True)
        ]
        inputs = [
            _packed_type(a.type) if marked else a.type
            for a, marked in zip(old_args, marked_args, strict=True)
        ]
        if not any(marked_args) and not any(marked_results):
            return
        function.function_type = FunctionType.from_lists(inputs, new_outputs)
        function.arg_attrs = _marked(function.arg_attrs, marked_args)
        function.res_attrs = _marked(function.res_attrs, marked_results)

    def block(self, block: Block) -> None:
        for op in list(block.ops):
            self.op(op)

    def op(self, op: Operation) -> None:
        types = [v.type for v in (*op.operands, *op.results)]
        if op.name in _PARTS_OF_REALS and not _is_complex(op.operands[0].type):
            op.results[0].replace_all_uses_with(_PARTS_OF_REALS[op.name](op))
            self.dead_ops.append(op)
            return
        if not any(map(_is_complex, types)):
            for region in op.regions:
                for block in region.blocks:
                    self.block(block)
            return
        rule = _RULES.get(op.name) or (_expand if op.name in _EXPANDED else None)
        if rule is None:
            self.problems.append((op, "on complex values has no split into parts yet"))
            return
        try:
            values = rule(self, op)
        except _Unsupported as error:
            self.problems.append((op, str(error)))
            return
        except _FollowOn:
            return
        for result, value in zip(op.results, values, strict=True):
            if isinstance(value, tuple):
                self.parts[result] = value
            else:
                result.replace_all_uses_with(value)
        self.dead_ops.append(op)

    def finish(self) -> None:
        """Erase the replaced ops (users first) and complex block arguments."""
        for op in reversed(self.dead_ops):
            op.detach()
            op.erase(safe_erase=False)
        for arg in self.dead_args:
            arg.block.erase_arg(arg, safe_erase=False)

    # --- values --------------------------------------------------------------

    def value(self, value: SSAValue) -> Value:
        """A complex value's parts, or the real value itself."""
        if _is_complex(value.type):
            if value not in self.parts:
                raise _FollowOn()
            return self.parts[value]
        return value

    def pair(self, value: SSAValue) -> cm.Complex:
        parts = self.value(value)
        assert isinstance(parts, tuple)
        return parts

    def expanded(self, values: Sequence[SSAValue]) -> list[SSAValue]:
        """Each complex value as its two parts, in place."""
        out: list[SSAValue] = []
        for value in values:
            parts = self.value(value)
            out.extend(parts if isinstance(parts, tuple) else [parts])
        return out

    def expand_args(self, block: Block) -> None:
        """Each complex argument of `block` as two real ones, in place."""
        for arg in list(block.args):
            if _is_complex(arg.type):
                part = _part_type(arg.type)
                re = block.insert_arg(part, arg.index)
                im = block.insert_arg(part, arg.index)
                self.parts[arg] = (re, im)
                self.dead_args.append(arg)


def _marked(
    attrs: ArrayAttr[DictionaryAttr] | None, marks: list[bool]
) -> ArrayAttr[DictionaryAttr]:
    old = list(attrs.data) if attrs is not None else [DictionaryAttr({})] * len(marks)
    new = []
    for dictionary, marked in zip(old, marks, strict=True):
        entries = dict(dictionary.data)
        if marked:
            entries[COMPLEX_ATTRIBUTE] = UnitAttr()
        new.append(DictionaryAttr(entries))
    return ArrayAttr[DictionaryAttr](new)


def _insert(builder: Builder, op: Operation) -> SSAValue:
    return builder.insert(op).results[0]


def _unpack(builder: Builder, packed: SSAValue, part: TensorType) -> cm.Complex:
    """The parts of an S x 2 tensor."""
    sizes = list(part.get_shape())
    values = []
    for k in (0, 1):
        sliced = _insert(
            builder, dm.SliceOp(packed, [0] * len(sizes) + [k], [*sizes, k + 1])
        )
        values.append(_insert(builder, dm.ReshapeOp(sliced, part)))
    return values[0], values[1]


def _pack(builder: Builder, parts: cm.Complex) -> SSAValue:
    """The S x 2 tensor of two parts of shape S."""
    part = parts[0].type
    assert isinstance(part, TensorType)
    sizes = list(part.get_shape())
    column = TensorType(part.get_element_type(), [*sizes, 1])
    columns = [_insert(builder, dm.ReshapeOp(p, column)) for p in parts]
    return _insert(builder, dm.ConcatenateOp(columns, len(sizes)))


# --- rules ----------------------------------------------------------------------

Rule = Callable[[_Splitter, Operation], list[Value]]
_RULES: dict[str, Rule] = {}


def _rule(*names: str) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        for name in names:
            _RULES[name] = fn
        return fn

    return register


def _emitter(op: Operation, part: Attribute) -> Emitter:
    return Emitter(PatternRewriter(op), op, element_type(part))


def _part_of_operand(op: Operation, index: int = 0) -> TensorType:
    return _part_type(op.operands[index].type)


def _real_result(type_: Attribute) -> Attribute:
    return _part_type(type_) if _is_complex(type_) else type_


@_rule(
    "stablehlo.add",
    "stablehlo.subtract",
    "stablehlo.negate",
    "stablehlo.broadcast_in_dim",
    "stablehlo.transpose",
    "stablehlo.slice",
    "stablehlo.reshape",
    "stablehlo.concatenate",
    "stablehlo.pad",
    "stablehlo.reverse",
    "stablehlo.gather",
    "stablehlo.dynamic_slice",
    "stablehlo.dynamic_update_slice",
    "stablehlo.select",
)
def _each_part(s: _Splitter, op: Operation) -> list[Value]:
    """The op on the real parts, then on the imaginary parts."""
    copies = []
    for k in (0, 1):
        operands = [s.pair(v)[k] if _is_complex(v.type) else v for v in op.operands]
        copies.append(_copy(op, operands))
    return [
        (a, b) if _is_complex(r.type) else a
        for r, a, b in zip(
            op.results, copies[0].results, copies[1].results, strict=True
        )
    ]


def _copy(op: Operation, operands: Sequence[SSAValue]) -> Operation:
    """`op` on other operands, its complex results real, inserted before it."""
    new = type(op).create(
        operands=list(operands),
        result_types=[_real_result(r.type) for r in op.results],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    new.location = op.location
    Builder(InsertPoint.before(op)).insert(new)
    return new


@_rule("stablehlo.dot_general", "stablehlo.convolution")
def _bilinear(s: _Splitter, op: Operation) -> list[Value]:
    """(a + bi)(c + di) = (ac - bd) + (ad + bc)i, each product the op on
    real parts."""
    if not all(_is_complex(v.type) for v in op.operands):
        raise _Unsupported("of complex and real operands is not supported")
    (a, b), (c, d) = s.pair(op.operands[0]), s.pair(op.operands[1])
    e = _emitter(op, _part_type(op.results[0].type))

    def product(x: SSAValue, y: SSAValue) -> SSAValue:
        return _copy(op, [x, y]).results[0]

    return [(e.sub(product(a, c), product(b, d)), e.add(product(a, d), product(b, c)))]


_UNARY: dict[str, Callable[[Emitter, cm.Complex], cm.Complex]] = {
    "stablehlo.exponential": cm.exp,
    "stablehlo.exponential_minus_one": cm.expm1,
    "stablehlo.log": cm.log,
    "stablehlo.log_plus_one": cm.log1p,
    "stablehlo.sqrt": cm.sqrt,
    "stablehlo.rsqrt": cm.rsqrt,
    "stablehlo.sine": cm.sin,
    "stablehlo.cosine": cm.cos,
    "stablehlo.tan": cm.tan,
    "stablehlo.tanh": cm.tanh,
    "stablehlo.sign": cm.sign,
    "stablehlo.cbrt": cm.cbrt,
    "stablehlo.logistic": cm.logistic,
}

_BINARY: dict[str, Callable[[Emitter, cm.Complex, cm.Complex], cm.Complex]] = {
    "stablehlo.multiply": cm.mul,
    "stablehlo.divide": cm.div,
    "stablehlo.power": cm.power,
    "stablehlo.atan2": cm.atan2,
    "stablehlo.maximum": lambda e, x, y: cm.select(e, cm.greater(e, y, x), y, x),
    "stablehlo.minimum": lambda e, x, y: cm.select(e, cm.greater(e, x, y), y, x),
}


def _formula(s: _Splitter, op: Operation) -> list[Value]:
    e = _emitter(op, _part_of_operand(op))
    args = [s.pair(v) for v in op.operands]
    if op.name in _UNARY:
        return [_UNARY[op.name](e, args[0])]
    return [_BINARY[op.name](e, args[0], args[1])]


for _name in (*_UNARY, *_BINARY):
    _RULES[_name] = _formula


@_rule("stablehlo.abs")
def _abs(s: _Splitter, op: Operation) -> list[Value]:
    return [cm.abs_(_emitter(op, _part_of_operand(op)), s.pair(op.operands[0]))]


@_rule("stablehlo.compare")
def _compare(s: _Splitter, op: Operation) -> list[Value]:
    direction = op.properties["comparison_direction"]
    assert isinstance(direction, ComparisonDirectionAttr)
    kind = op.properties.get("compare_type")
    total = isinstance(kind, ComparisonTypeAttr) and str(kind.data) == "TOTALORDER"
    e = _emitter(op, _part_of_operand(op))
    x, y = s.pair(op.operands[0]), s.pair(op.operands[1])
    return [cm.compare(e, direction.data, total, x, y)]


@_rule("stablehlo.real", "stablehlo.imag")
def _part(s: _Splitter, op: Operation) -> list[Value]:
    return [s.pair(op.operands[0])[0 if op.name == "stablehlo.real" else 1]]


def _zeros_like(op: Operation) -> SSAValue:
    """imag of a real number: zeros of its type."""
    return _zeros(Builder(InsertPoint.before(op)), op.results[0].type)


def _zeros(builder: Builder, type_: Attribute) -> SSAValue:
    """A tensor of zeros (a splat: a broadcast scalar when large)."""
    ops = splat_ops(type_, np.zeros((), dtype=np.float64))
    for made in ops:
        builder.insert(made)
    return ops[-1].results[0]


_PARTS_OF_REALS: dict[str, Callable[[Operation], SSAValue]] = {
    "stablehlo.real": lambda op: op.operands[0],
    "stablehlo.imag": _zeros_like,
}
"""real and imag of real numbers (the spec allows them): the number, 0."""


@_rule("stablehlo.complex")
def _complex(s: _Splitter, op: Operation) -> list[Value]:
    return [(op.operands[0], op.operands[1])]


@_rule("stablehlo.convert")
def _convert(s: _Splitter, op: Operation) -> list[Value]:
    source, result = op.operands[0], op.results[0]
    if _is_complex(source.type) and _is_complex(result.type):
        return _each_part(s, op)
    if _is_complex(source.type):  # the real part, as the interpreter does
        re = s.pair(source)[0]
        if re.type == result.type:
            return [re]
        return [_copy(op, [re]).results[0]]
    part = _part_type(result.type)
    e = _emitter(op, part)
    return [cm.real(e, e.convert(source, part.get_element_type()))]


@_rule("stablehlo.constant")
def _constant(s: _Splitter, op: Operation) -> list[Value]:
    array = constant_array(op.results[0])
    if array is None:
        raise _Unsupported("holds a value that cannot be read")
    part = _part_type(op.results[0].type)
    builder = Builder(InsertPoint.before(op))
    re, im = (
        _insert(builder, dm.ConstantOp(dense_from_numpy(values, part)))
        for values in (np.real(array), np.imag(array))
    )
    return [(re, im)]


@_rule("stablehlo.iota")
def _iota(s: _Splitter, op: Operation) -> list[Value]:
    assert isinstance(op, dm.IotaOp)
    part = _part_type(op.results[0].type)
    builder = Builder(InsertPoint.before(op))
    re = _insert(builder, dm.IotaOp(op.iota_dimension.value.data, part))
    return [(re, _zeros(builder, part))]


@_rule("stablehlo.fft")
def _fft(s: _Splitter, op: Operation) -> list[Value]:
    assert isinstance(op, FftOp)
    kind = op.fft_type.data
    operand, result = op.operand, op.result
    inputs = [operand] if kind == FftType.RFFT else list(s.pair(operand))
    if kind == FftType.IRFFT:
        types: list[Attribute] = [result.type]
    else:
        types = [_part_type(result.type)] * 2
    new = HloFftOp(inputs, kind, array_values(op.fft_length), types)
    new.location = op.location
    Builder(InsertPoint.before(op)).insert(new)
    if kind == FftType.IRFFT:
        return [new.results[0]]
    return [(new.results[0], new.results[1])]


_EXPANDED = {
    "stablehlo.reduce",
    "stablehlo.reduce_window",
    "stablehlo.scatter",
    "stablehlo.while",
    "stablehlo.case",
    "stablehlo.optimization_barrier",
    "stablehlo.if",
}
"""Ops whose complex operands, results and region arguments each become two
(`_expand`): their regions see the parts as they see real values."""


def _expand(s: _Splitter, op: Operation, args_done: bool = False) -> list[Value]:
    regions = list(op.regions)
    for region in regions:
        op.detach_region(region)
        for block in region.blocks:
            if not args_done:
                s.expand_args(block)
    new = type(op).create(
        operands=s.expanded(list(op.operands)),
        result_types=[
            t
            for r in op.results
            for t in ([_part_type(r.type)] * 2 if _is_complex(r.type) else [r.type])
        ],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=regions,
    )
    new.location = op.location
    Builder(InsertPoint.before(op)).insert(new)
    for region in regions:
        for block in region.blocks:
            s.block(block)
    values: list[Value] = []
    results = iter(new.results)
    for r in op.results:
        values.append(
            (next(results), next(results)) if _is_complex(r.type) else next(results)
        )
    return values


@_rule("stablehlo.sort")
def _sort(s: _Splitter, op: Operation) -> list[Value]:
    """Each complex operand is two; the comparator takes each operand's
    (lhs, rhs) pair, so a complex pair becomes (lhs re, rhs re, lhs im,
    rhs im)."""
    block = op.regions[0].block
    args = list(block.args)
    for lhs, rhs in zip(args[0::2], args[1::2], strict=True):
        if _is_complex(lhs.type):
            part = _part_type(lhs.type)
            at = lhs.index
            new = [block.insert_arg(part, at + k) for k in range(4)]
            s.parts[lhs] = (new[0], new[2])
            s.parts[rhs] = (new[1], new[3])
            s.dead_args += [lhs, rhs]
    return _expand(s, op, args_done=True)


@_rule("chlo.conj")
def _conj(s: _Splitter, op: Operation) -> list[Value]:
    re, im = s.pair(op.operands[0])
    return [(re, _insert(Builder(InsertPoint.before(op)), ew.NegateOp(im)))]


@_rule("stablehlo.return")
def _return(s: _Splitter, op: Operation) -> list[Value]:
    Builder(InsertPoint.before(op)).insert(ReturnOp(s.expanded(list(op.operands))))
    return []


@_rule("func.return")
def _func_return(s: _Splitter, op: Operation) -> list[Value]:
    builder = Builder(InsertPoint.before(op))
    values = [
        _pack(builder, s.pair(v)) if _is_complex(v.type) else v for v in op.operands
    ]
    builder.insert(func.ReturnOp(*values))
    return []


@_rule("func.call")
def _call(s: _Splitter, op: Operation) -> list[Value]:
    assert isinstance(op, func.CallOp)
    builder = Builder(InsertPoint.before(op))
    arguments = [
        _pack(builder, s.pair(v)) if _is_complex(v.type) else v for v in op.operands
    ]
    types = [
        _packed_type(r.type) if _is_complex(r.type) else r.type for r in op.results
    ]
    call = builder.insert(func.CallOp(op.callee, arguments, types))
    return [
        _unpack(builder, new, _part_type(old.type)) if _is_complex(old.type) else new
        for old, new in zip(op.results, call.results, strict=True)
    ]


@_rule(
    "check.expect_eq_const",
    "check.expect_almost_eq_const",
    "check.expect_eq",
    "check.expect_almost_eq",
    "check.expect_close",
)
def _check(s: _Splitter, op: Operation) -> list[Value]:
    """A check of complex values: the same check on each part (the
    interpreter compares complex numbers part by part)."""
    value = op.properties.get("value")
    if value is not None:
        array = dense_to_numpy(value)
        part = _part_of_operand(op)
        constants = [
            dense_from_numpy(np.real(array), part),
            dense_from_numpy(np.imag(array), part),
        ]
    for k in (0, 1):
        operands = [s.pair(v)[k] for v in op.operands]
        new = type(op).create(
            operands=operands,
            properties={
                **op.properties,
                **({"value": constants[k]} if value is not None else {}),
            },
            attributes=dict(op.attributes),
        )
        new.location = op.location
        Builder(InsertPoint.before(op)).insert(new)
    return []

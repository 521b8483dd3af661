"""`quant-to-math`: quantized tensors (`!quant.uniform`) as their storage
integers, and the ops on them as integer and float arithmetic, so targets
need no quantized types (StableHLO's `stablehlo-legalize-quant-to-math`).

`uniform_dequantize` becomes `(convert(q) - zero_point) * scale` and
`uniform_quantize` `clamp(round_nearest_even(x / scale + zero_point))`
converted to the storage type, with per-axis scales and zero points
broadcast along their axis; a `bitcast_convert` between a quantized type and
its storage type is the storage value itself. Any other op on quantized
values runs as the spec defines it (and the interpreter computes it): its
quantized operands dequantized, the op on the expressed values, its
quantized results quantized. Functions take and return the storage
integers. Quantized values inside ops with regions are an error listing
them.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FunctionType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xlir.dialects.quant import UniformQuantizedType
from xlir.dialects.stablehlo import elementwise as ew
from xlir.dialects.stablehlo.data_movement import BroadcastInDimOp, ConstantOp
from xlir.dialects.stablehlo.quantization import UniformDequantizeOp, UniformQuantizeOp
from xlir.dialects.stablehlo.types import element_type, is_quantized

from xlir.diagnostics import refuse_ops


def _is_quantized(type_: Attribute) -> bool:
    return isinstance(type_, TensorType) and is_quantized(element_type(type_))


def _quantized(type_: Attribute) -> UniformQuantizedType:
    assert isinstance(type_, TensorType)
    element = type_.get_element_type()
    assert isinstance(element, UniformQuantizedType)
    return element


def _with_element(type_: Attribute, element: Attribute) -> TensorType:
    assert isinstance(type_, TensorType)
    return TensorType(element, type_.get_shape())


def _storage(type_: Attribute) -> Attribute:
    return (
        _with_element(type_, _quantized(type_).storage_type)
        if _is_quantized(type_)
        else type_
    )


def _expressed(type_: Attribute) -> Attribute:
    return (
        _with_element(type_, _quantized(type_).expressed_type)
        if _is_quantized(type_)
        else type_
    )


class _Emitter:
    """New ops before one op, with its location."""

    def __init__(self, op: Operation) -> None:
        self.op = op
        self.builder = Builder(InsertPoint.before(op))

    def emit(self, op: Operation) -> SSAValue:
        op.location = self.op.location
        self.builder.insert(op)
        return op.results[0]

    def parameter(
        self, values: list[float] | list[int], axis: int, like: TensorType
    ) -> SSAValue:
        """Per-axis values (`axis` >= 0) or one value, as constants of
        `like`'s float element type broadcast to its shape (along `axis`)."""
        element = like.get_element_type()
        assert isinstance(element, AnyFloat)
        per_axis = axis >= 0
        numbers = [float(v) for v in values]
        constant = self.emit(
            ConstantOp(
                DenseIntOrFPElementsAttr.from_list(
                    TensorType(element, [len(numbers)] if per_axis else []), numbers
                )
            )
        )
        return self.emit(BroadcastInDimOp(constant, [axis] if per_axis else [], like))

    def dequantize(self, storage: SSAValue, type_: Attribute) -> SSAValue:
        quantized = _quantized(type_)
        expressed = _expressed(type_)
        assert isinstance(expressed, TensorType)
        x = self.emit(ew.ConvertOp(storage, expressed))
        zero = self.parameter(
            quantized.zero_point_values, quantized.axis.data, expressed
        )
        scale = self.parameter(quantized.scale_values, quantized.axis.data, expressed)
        return self.emit(ew.MultiplyOp(self.emit(ew.SubtractOp(x, zero)), scale))

    def quantize(self, x: SSAValue, type_: Attribute) -> SSAValue:
        quantized = _quantized(type_)
        expressed = _expressed(type_)
        assert isinstance(expressed, TensorType)
        if x.type != expressed:
            x = self.emit(ew.ConvertOp(x, expressed))
        zero = self.parameter(
            quantized.zero_point_values, quantized.axis.data, expressed
        )
        scale = self.parameter(quantized.scale_values, quantized.axis.data, expressed)
        shifted = self.emit(ew.AddOp(self.emit(ew.DivideOp(x, scale)), zero))
        rounded = self.emit(ew.RoundNearestEvenOp(shifted))
        low = self.parameter([quantized.storage_min.data], -1, expressed)
        high = self.parameter([quantized.storage_max.data], -1, expressed)
        clamped = self.emit(ew.ClampOp(low, rounded, high))
        return self.emit(ew.ConvertOp(clamped, _storage(type_)))


@dataclass
class _Function:
    storage: dict[SSAValue, SSAValue]
    dead: list[Operation]
    problems: list[Operation]

    def run(self, function: func.FuncOp) -> None:
        block = function.body.block
        dead_args: list[BlockArgument] = []
        for arg in list(block.args):
            if _is_quantized(arg.type):
                new = block.insert_arg(_storage(arg.type), arg.index)
                new.name_hint = arg.name_hint
                self.storage[arg] = new
                dead_args.append(arg)
        for op in list(block.ops):
            self.op(op)
        if self.problems:
            return
        for op in reversed(self.dead):
            op.detach()
            op.erase()
        for arg in dead_args:
            block.erase_arg(arg)
        outputs = [_storage(t) for t in function.function_type.outputs.data]
        inputs = [a.type for a in block.args]
        function.function_type = FunctionType.from_lists(inputs, outputs)

    def value(self, value: SSAValue) -> SSAValue:
        return self.storage.get(value, value)

    def op(self, op: Operation) -> None:
        values = (*op.operands, *op.results)
        if not any(_is_quantized(v.type) for v in values):
            if any(
                _is_quantized(v.type)
                for inner in op.walk()
                for v in (*inner.operands, *inner.results)
            ):
                self.problems.append(op)
            return
        if isinstance(op, func.ReturnOp):
            op.operands = [self.value(v) for v in op.operands]
            return
        if op.regions:
            self.problems.append(op)
            return
        e = _Emitter(op)
        self.dead.append(op)
        if isinstance(op, ew.BitcastConvertOp) and _storage(
            op.operand.type
        ) == _storage(op.result.type):
            source = self.value(op.operand)
            if _is_quantized(op.result.type):
                self.storage[op.result] = source
            else:
                op.result.replace_all_uses_with(source)
            return
        if isinstance(op, UniformDequantizeOp):
            op.result.replace_all_uses_with(
                e.dequantize(self.value(op.operand), op.operand.type)
            )
            return
        if isinstance(op, UniformQuantizeOp):
            x = op.operand
            if _is_quantized(x.type):
                x = e.dequantize(self.value(x), x.type)
            self.storage[op.result] = e.quantize(x, op.result.type)
            return
        operands = [
            e.dequantize(self.value(v), v.type) if _is_quantized(v.type) else v
            for v in op.operands
        ]
        stand_in = type(op).create(
            operands=operands,
            result_types=[_expressed(r.type) for r in op.results],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        e.emit(stand_in)
        for old, new in zip(op.results, stand_in.results, strict=True):
            if _is_quantized(old.type):
                self.storage[old] = e.quantize(new, old.type)
            else:
                old.replace_all_uses_with(new)


class QuantToMathPass(ModulePass):
    """Quantized values as storage integers and arithmetic (module
    docstring)."""

    name = "quant-to-math"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        problems: list[Operation] = []
        for function in op.ops:
            if isinstance(function, func.FuncOp) and function.body.blocks:
                lowering = _Function({}, [], [])
                lowering.run(function)
                problems += lowering.problems
        why = "has quantized values inside its regions"
        refuse_ops(
            "quant-to-math cannot lower", [(o, f"'{o.name}' {why}") for o in problems]
        )

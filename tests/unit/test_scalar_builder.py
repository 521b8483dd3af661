"""ScalarBuilder (passes/loop/math_approximations/scalar_builder.py): an op it
creates directly, from the first of its kind, is the op its class's
constructor builds (properties, attributes, result types), for scalars and
vectors, so the expansions' IR does not depend on which op came first."""

from __future__ import annotations

from typing import Any

from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import IntegerType, ModuleOp, VectorType, f32, i32
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.rewriter import InsertPoint
from xlir.dialects.arith import VECTOR_FORMS
from xlir.passes.loop.math_approximations.scalar_builder import ScalarBuilder, Value


def _check(lanes: int | None) -> None:
    def shaped(type_: Attribute) -> Attribute:
        return VectorType(type_, [lanes]) if lanes else type_

    def constructed(cls: type[Operation], *args: Any) -> Operation:
        form: Any = VECTOR_FORMS.get(cls, cls) if lanes else cls
        return form(*args)

    block = Block(arg_types=[shaped(f32), shaped(f32), shaped(i32)])
    module = ModuleOp(Region(block))
    code = ScalarBuilder(Builder(InsertPoint.at_end(block)), lanes=lanes)
    x, y, n = (code.wrap(a) for a in block.args)
    three, zero = code.const(3, i32), code.const(0, i32)
    cases: list[tuple[Value, Operation]] = []
    for _ in range(2):  # the second time, each op is created directly
        less = x.lt(y)
        cases += [
            (x + y, constructed(arith.AddfOp, x.ssa, y.ssa)),
            (n << three, constructed(arith.ShLIOp, n.ssa, three.ssa)),
            (less, constructed(arith.CmpfOp, x.ssa, y.ssa, "olt")),
            (n.eq(zero), constructed(arith.CmpiOp, n.ssa, zero.ssa, "eq")),
            (
                x.to_int(IntegerType(32)),
                constructed(arith.FPToSIOp, x.ssa, shaped(i32)),
            ),
            (n.to_float(f32), constructed(arith.SIToFPOp, n.ssa, shaped(f32))),
            (x.bits(), constructed(arith.BitcastOp, x.ssa, shaped(i32))),
            (n.as_float(), constructed(arith.BitcastOp, n.ssa, shaped(f32))),
            (
                code.select(less, x, y),
                constructed(arith.SelectOp, less.ssa, x.ssa, y.ssa),
            ),
            (-x, constructed(arith.NegfOp, x.ssa)),
            (x.abs(), constructed(math.AbsFOp, x.ssa)),
            (x.copysign(y), constructed(math.CopySignOp, x.ssa, y.ssa)),
        ]
    for value, op in cases:
        made = value.ssa.owner
        assert type(made) is type(op)
        assert isinstance(made, Operation)
        assert made.properties == op.properties
        assert made.attributes == op.attributes
        assert made.result_types == op.result_types
    module.verify()


def test_scalar_ops_match_their_constructors() -> None:
    _check(None)


def test_vector_ops_match_their_constructors() -> None:
    _check(8)

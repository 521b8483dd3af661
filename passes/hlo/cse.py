"""`cse`: xDSL's common subexpression elimination, made exact for ops with
regions.

xDSL 0.74 already merges ops with regions (two `stablehlo.reduce` ops over
the same operands with equal bodies), works inside while bodies and reducer
regions, and keeps ops with unknown effects (custom_call). But it decides
that bodies are equal with `is_structurally_equivalent`, which compares the
nested ops' names, operands and attributes and *not their result types*: a
reducer that rounds through f16 and one that rounds through bf16 would be
merged. This pass runs xDSL's driver and refuses such a merge.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, Region
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
    CSEDriver,
)
from xlir.dialects.effects import effects_memo


def same_nested_types(op: Operation | Region, other: Operation | Region) -> bool:
    """Whether two structurally equivalent ops' (or regions') nested ops have
    equal result types (both walks visit the ops in the same order)."""
    return all(
        a.result_types == b.result_types
        for a, b in zip(op.walk(), other.walk(), strict=True)
    )


class _ExactCSEDriver(CSEDriver):
    def _replace_and_delete(self, op: Operation, existing: Operation) -> None:
        if op.regions and not same_nested_types(op, existing):
            return
        super()._replace_and_delete(op, existing)


class CSEPass(CommonSubexpressionElimination):
    name = "cse"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with effects_memo():
            _ExactCSEDriver().simplify(op)

"""`dce`: xDSL's dead-code elimination, with the effects of each op with
regions found once (`xlir.dialects.effects`), not once per level of nesting
above it."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.transforms.dead_code_elimination import DeadCodeElimination
from xlir.dialects.effects import memo_region_dce


class DCEPass(DeadCodeElimination):
    name = "dce"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        memo_region_dce(op.body)

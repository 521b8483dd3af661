"""Every block ends in a terminator, by MLIR's rule.

xDSL checks that a terminator stands last in its block, but not that a block
has one: `func.func @f() {}` verifies there, and passes that read a
function's results from its return then fail on the empty body. As in MLIR,
the blocks of an op with the NoTerminator trait (`builtin.module`) are
exempt, and so are ops of dialects xlir does not know.
"""

from __future__ import annotations

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.utils.exceptions import VerifyException


def check_terminators(op: Operation) -> None:
    """Raise VerifyException if a block of the op's regions lacks a terminator."""
    if not op.regions or isinstance(op, UnregisteredOp) or op.has_trait(NoTerminator):
        return
    for r, region in enumerate(op.regions):
        for b, block in enumerate(region.blocks):
            last = block.last_op
            if last is None or not last.has_trait(
                IsTerminator, value_if_unregistered=True
            ):
                where = f"block #{b} of region #{r}"
                found = "is empty" if last is None else f"ends in '{last.name}'"
                raise VerifyException(
                    f"'{op.name}' op {where} {found}: a block must end in a terminator"
                )

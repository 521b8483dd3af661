"""The host code `hlo-to-loop` makes for an op carries the op's location,
down nested while loops: each level's loop and the copies and reads made
for it point at its own `stablehlo.while`, not at an outer one."""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp

from tests.e2e.test_deep_nesting import nested_whiles
from xlir.api import load_module
from xlir.context import make_context
from xlir.pass_manager import run_pipeline


def test_nested_loops_carry_their_own_lines() -> None:
    depth = 6
    text = nested_whiles(depth)
    module, sources = load_module(text, "nest.mlir")
    run_pipeline(make_context(), module, "hlo-opt,hlo-to-loop", sources)
    unlocated = [
        op
        for op in module.walk()
        if not isinstance(op, ModuleOp) and not isinstance(op.location, FileLineColLoc)
    ]
    assert not unlocated
    loops = [op for op in module.walk() if isinstance(op, scf.WhileOp)]
    assert len(loops) == depth
    lines = [op.location.line.data for op in loops]  # pyright: ignore
    # nested_whiles writes the k-th while on line 3 + 7 k
    assert lines == [3 + 7 * k for k in range(depth)]
    for loop in loops:
        inner = [op for op in loop.walk() if isinstance(op, scf.ConditionOp)]
        assert inner and inner[0].location == loop.location

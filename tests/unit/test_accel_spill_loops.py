"""Spilling around `accel.for` (`register_allocation.spill`): a hardware
loop reads its trip count and start once, on entry, so a spilled one is
reloaded right before the loop; a branch loop compares its bound after every
iteration, so a spilled bound is a diagnostic, not a clobbered register."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xlir.dialects import accel
from xlir.targets.accel.register_allocation import spill

from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.parsing import parse_module


def _kernel(hardware: bool) -> str:
    mode = "hardware, " if hardware else ""
    return f"""accel.kernel "k", 1 {{
^bb0(%a0 : !accel.x<a0>):
  %z = accel.get_register : !accel.x<zero>
  %n = accel.addi %z, 3 : (!accel.x<zero>) -> !accel.x<x_inf0>
  %low = accel.addi %z, 0 : (!accel.x<zero>) -> !accel.x<x_inf1>
  "accel.for"(%low, %n) <{{step = 1 : i32, {mode}operandSegmentSizes = array<i32: 1, 1, 0>}}> ({{
  ^bb0(%i : !accel.x<t1>):
    accel.sw %i, 0(%a0) : !accel.x<t1>, !accel.x<a0>
    accel.yield
  }}) : (!accel.x<x_inf1>, !accel.x<x_inf0>) -> ()
  accel.halt
}}"""


def _parse(text: str) -> accel.KernelOp:
    module = parse_module(make_context(), text, "k.mlir")
    assert isinstance(module, ModuleOp)
    kernel = module.body.block.first_op
    assert isinstance(kernel, accel.KernelOp)
    return kernel


def test_a_hardware_loops_spilled_bounds_are_reloaded_before_it() -> None:
    kernel = _parse(_kernel(hardware=True))
    assert spill(kernel) == 2
    loop = next(op for op in kernel.body.walk() if isinstance(op, accel.ForOp))
    for operand in (loop.lower, loop.bound):
        reload = operand.owner
        assert isinstance(reload, accel.AccelInstruction)
        assert reload.SPEC.mnemonic == "lw"
        assert reload.parent_block() is loop.parent_block()
    assert loop.lower.type != loop.bound.type  # two temporaries, not one


def test_a_branch_loops_spilled_bound_is_a_diagnostic() -> None:
    kernel = _parse(_kernel(hardware=False))
    with pytest.raises(XlirError, match="would spill the bound of a branch loop"):
        spill(kernel)

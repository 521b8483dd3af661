"""Spilling around `accel.for` (`register_allocation.spill`, run once the
structured control is lowered): a loop's spilled start is copied into its
counter from a held-back register; a hardware loop's `loop` instruction reads
its spilled trip count from a reload right before it, and a branch loop's
compares reload a spilled bound on entry and after every iteration, each
into its own held-back register."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import SSAValue
from xlir.dialects import accel
from xlir.targets.accel.register_allocation import spill

from xlir.context import make_context
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


def _spilled(text: str) -> accel.KernelOp:
    module = parse_module(make_context(), text, "k.mlir")
    assert isinstance(module, ModuleOp)
    kernel = module.body.block.first_op
    assert isinstance(kernel, accel.KernelOp)
    accel.lower_structured_control(module)
    assert spill(kernel) == 2
    module.verify()
    return kernel


def _readers(kernel: accel.KernelOp, *mnemonics: str) -> list[accel.AccelInstruction]:
    return [
        op
        for op in kernel.body.walk()
        if isinstance(op, accel.AccelInstruction) and op.SPEC.mnemonic in mnemonics
    ]


def _reloaded(operand: SSAValue) -> accel.AccelInstruction:
    reload = operand.owner
    assert isinstance(reload, accel.AccelInstruction)
    assert reload.SPEC.mnemonic == "lw"
    return reload


@pytest.mark.parametrize("hardware", [True, False])
def test_a_loops_spilled_start_is_read_through_a_held_back_register(
    hardware: bool,
) -> None:
    kernel = _spilled(_kernel(hardware))
    counter = accel.XRegisterType.from_name("t1")
    (start, advance) = [
        op for op in _readers(kernel, "addi") if op.results[0].type == counter
    ]
    assert start.properties["imm"] == IntegerAttr(0, 32)
    # right after %low's store to its slot: still in the held-back register
    assert start.operands[0].type == accel.XRegisterType.from_name("s4")
    low = start.operands[0].owner
    assert isinstance(low, accel.AccelInstruction)
    store = low.next_op
    assert isinstance(store, accel.AccelInstruction) and store.SPEC.mnemonic == "sw"
    assert store.operands[0] is start.operands[0]
    assert advance.operands[0].type == counter  # the counter itself did not spill


def test_a_hardware_loops_spilled_trip_count_is_reloaded_before_it() -> None:
    (loop,) = _readers(_spilled(_kernel(hardware=True)), "loop")
    assert loop.prev_op is _reloaded(loop.operands[0])


def test_a_branch_loops_spilled_bound_is_reloaded_at_each_compare() -> None:
    compares = _readers(_spilled(_kernel(hardware=False)), "bge", "blt")
    assert len(compares) == 2
    for compare in compares:
        assert compare.operands[0].type == accel.XRegisterType.from_name("t1")
        _reloaded(compare.operands[1])

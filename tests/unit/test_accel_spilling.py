"""Spilling in `accel-registers` (targets/accel/register_allocation.py): a
loop whose counter and carried values do not fit the register file keeps
them in spill slots below `sp`, and runs on the simulator as numpy computes
it; a sort past its static passes (a runtime loop over the merge passes)
runs on accel as the evaluator sorts.

The spill code itself (`register_allocation.spill`, run once the structured
control is lowered), on small kernels: a loop's spilled start is copied into its
counter from a held-back register; a hardware loop's `loop` instruction reads
its spilled trip count from a reload right before it, and a branch loop's
compares reload a spilled bound on entry and after every iteration, each
into its own held-back register."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import SSAValue
from xlir.dialects import accel
from xlir.dialects.accel import KernelOp, print_assembly
from xlir.targets.accel.assembler import assemble
from xlir.targets.accel.backend import SPILLS_ATTRIBUTE, AccelRegistersPass
from xlir.targets.accel.register_allocation import spill
from xlir.targets.accel.simulator import Simulator

import xlir
from tests.unit.test_sort_scatter_kernels import keys_and_values
from xlir.api import load_module
from xlir.context import make_context
from xlir.parsing import parse_module

X = "!accel.x"


def _loop(
    values: list[str], trips: str, hardware: bool, name: str, body: list[str]
) -> str:
    """`%name:N = accel.for` from 0 to `trips` carrying `values`; `body`
    (over `%{name}_i` and `%{name}_d0...`) yields `%{name}_e0...`."""
    count = len(values)
    types = ", ".join([X] * count)
    args = ", ".join(f"%{name}_d{k}: {X}" for k in range(count))
    yielded = ", ".join(f"%{name}_e{k}" for k in range(count))
    flag = "hardware, " if hardware else ""
    return "\n".join(
        [
            f"%{name}_lo = accel.addi %z, 0 : ({X}<zero>) -> {X}",
            f'%{name}:{count} = "accel.for"(%{name}_lo, {trips}, {", ".join(values)}) '
            f"<{{step = 1 : i32, {flag}operandSegmentSizes = array<i32: 1, 1, {count}>}}> ({{",
            f"^bb0(%{name}_i: {X}, {args}):",
            *body,
            f"  accel.yield {yielded} : {types}",
            f"}}) : ({X}, {X}, {types}) -> ({types})",
        ]
    )


def carried_kernel(count: int, trips: int, hardware: bool, outer: int) -> str:
    """`count` scalars, each trip d[k] + d[k+1 mod count] (plus the counter for
    d[0]), `trips` times; with `outer` > 0 that loop runs inside a hardware
    loop of `outer` trips carrying them too. The results go to DRAM."""
    inner_values = [f"%c{k}" for k in range(count)]
    lines = [
        f"%c{k} = accel.addi %z, {k + 1} : ({X}<zero>) -> {X}" for k in range(count)
    ]
    lines.append(f"%trips = accel.addi %z, {trips} : ({X}<zero>) -> {X}")
    if outer:
        lines.append(f"%outer_trips = accel.addi %z, {outer} : ({X}<zero>) -> {X}")
        inner_values = [f"%o_d{k}" for k in range(count)]
    body = [
        f"  %in_s{k} = accel.add %in_d{k}, %in_d{(k + 1) % count} : ({X}, {X}) -> {X}"
        for k in range(count)
    ]
    body.append(f"  %in_e0 = accel.add %in_s0, %in_i : ({X}, {X}) -> {X}")
    body += [
        f"  %in_e{k} = accel.addi %in_s{k}, 0 : ({X}) -> {X}" for k in range(1, count)
    ]
    inner = _loop(inner_values, "%trips", hardware, "in", body)
    if outer:
        passed = [
            f"  %o_e{k} = accel.addi %in#{k}, 0 : ({X}) -> {X}" for k in range(count)
        ]
        lines.append(
            _loop(
                [f"%c{k}" for k in range(count)],
                "%outer_trips",
                True,
                "o",
                [inner, *passed],
            )
        )
        results = "o"
    else:
        lines.append(inner)
        results = "in"
    for k in range(count):  # each reload right after an instruction without operands
        lines += [
            "accel.dma.wait 1",
            f"accel.sw %{results}#{k}, {4 * k}(%z) : {X}, {X}<zero>",
        ]
    lines += [
        f"%size = accel.addi %z, {4 * count} : ({X}<zero>) -> {X}",
        f"accel.dma.st %z, %a0, %size, 0 : {X}<zero>, {X}<a0>, {X}",
        "accel.dma.wait 0",
        "accel.halt",
    ]
    body_text = "\n  ".join(lines)
    return (
        f'accel.kernel "carry", 1 {{\n^bb0(%a0 : {X}<a0>):\n'
        f"  %z = accel.get_register : {X}<zero>\n  {body_text}\n}}\n"
    )


def reference(count: int, trips: int, outer: int) -> list[int]:
    values = np.arange(1, count + 1, dtype=np.int64)
    for _ in range(max(outer, 1)):
        for i in range(trips):
            values = values + np.roll(values, -1)
            values[0] += i
    return values.astype(np.int32).tolist()


def allocate_and_run(text: str, name: str, count: int) -> tuple[list[int], int, str]:
    """Kernel `name` of `text` after register allocation: the `count` words
    it stores at the start of its argument, how many values it spilled, and
    its assembly."""
    module, _ = load_module(text)
    AccelRegistersPass().apply(make_context(), module)
    module.verify()
    kernel = next(op for op in module.body.block.ops if isinstance(op, KernelOp))
    spilled = kernel.attributes[SPILLS_ATTRIBUTE]
    assert isinstance(spilled, IntegerAttr)
    assert "_inf" not in str(module)
    assembly = print_assembly(module)
    dram = np.zeros(0x10000 + 4 * count, np.uint8)
    Simulator(assemble(assembly), dram).launch(name, [0x10000])
    return dram[0x10000:].view(np.int32).tolist(), spilled.value.data, assembly


def run_carry(text: str, count: int) -> tuple[list[int], int]:
    """The carry kernel's results and how many values it spilled."""
    got, spilled, _ = allocate_and_run(text, "carry", count)
    return got, spilled


@pytest.mark.parametrize("hardware", [False, True])
@pytest.mark.parametrize("outer", [0, 2])
@pytest.mark.parametrize("trips", [0, 5])
def test_carried_values_beyond_the_register_file(
    hardware: bool, outer: int, trips: int
) -> None:
    count = 30
    got, spilled = run_carry(carried_kernel(count, trips, hardware, outer), count)
    assert spilled > 0
    assert got == reference(count, trips, outer)


def test_carried_values_that_fit_do_not_spill() -> None:
    got, spilled = run_carry(carried_kernel(8, 5, False, 2), 8)
    assert spilled == 0
    assert got == reference(8, 5, 2)


@pytest.mark.parametrize("shape", ["17", "33", "4x37"])
@pytest.mark.parametrize("direction", ["LT", "GT"])
def test_sort_pass_loop_on_accel(shape: str, direction: str) -> None:
    """A two-operand sort past its static passes needs more registers than
    XA-1 has around its pass loop; stable, as the evaluator sorts."""
    dims = tuple(int(d) for d in shape.split("x"))
    rng = np.random.default_rng(len(shape))
    keys = rng.integers(-5, 5, dims).astype(np.int32)
    values = rng.standard_normal(dims).astype(np.float32)
    text = keys_and_values(shape, len(dims) - 1, direction)
    expected = xlir.compile(text, target="interpreter")(keys, values)
    got = xlir.compile(text, target="accel")(keys, values)
    for have, want in zip(got, expected, strict=True):
        np.testing.assert_array_equal(have, want)


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

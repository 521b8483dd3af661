"""Rematerialization in `accel-registers` (targets/accel/rematerialize.py):
a loop whose body reads more constants made before it than the scalar
registers left around its carried values gets a copy of each constant
before each read, and then runs spill-free on the simulator as numpy
computes it; where the copies do not make the kernel fit, they are undone
and the kernel spills as before."""

from __future__ import annotations

import numpy as np
import pytest

from tests.unit.test_accel_spilling import allocate_and_run

X = "!accel.x"


def constants_kernel(constants: int, carried: int, trips: int) -> str:
    """A branch loop carrying `carried` scalars (each starting at 10) whose
    body adds `constants` constants (1, 2, ...) made before it, in turn, to
    the carried values, till each constant and each value had one; the
    results are stored to a0."""
    lines = [
        f"%k{k} = accel.addi %z, {k + 1} : ({X}<zero>) -> {X}" for k in range(constants)
    ]
    lines += [f"%c{k} = accel.addi %z, 10 : ({X}<zero>) -> {X}" for k in range(carried)]
    lines += [
        f"%lo = accel.addi %z, 0 : ({X}<zero>) -> {X}",
        f"%hi = accel.addi %z, {trips} : ({X}<zero>) -> {X}",
    ]
    types = ", ".join([X] * carried)
    args = ", ".join(f"%d{k}: {X}" for k in range(carried))
    values = ", ".join(f"%c{k}" for k in range(carried))
    lines.append(
        f'%r:{carried} = "accel.for"(%lo, %hi, {values}) <{{step = 1 : i32, '
        f"operandSegmentSizes = array<i32: 1, 1, {carried}>}}> ({{"
    )
    lines.append(f"^bb1(%i: {X}, {args}):")
    current = [f"%d{k}" for k in range(carried)]
    for step in range(max(constants, carried)):
        slot, constant = step % carried, step % constants
        lines.append(
            f"  %e{step} = accel.add {current[slot]}, %k{constant} : ({X}, {X}) -> {X}"
        )
        current[slot] = f"%e{step}"
    lines.append(f"  accel.yield {', '.join(current)} : {types}")
    lines.append(f"}}) : ({X}, {X}, {types}) -> ({types})")
    lines += [f"accel.sw %r#{k}, {4 * k}(%z) : {X}, {X}<zero>" for k in range(carried)]
    lines += [
        f"%size = accel.addi %z, {4 * carried} : ({X}<zero>) -> {X}",
        f"accel.dma.st %z, %a0, %size, 0 : {X}<zero>, {X}<a0>, {X}",
        "accel.dma.wait 0",
        "accel.halt",
    ]
    body = "\n  ".join(lines)
    return (
        f'accel.kernel "constants", 1 {{\n^bb0(%a0 : {X}<a0>):\n'
        f"  %z = accel.get_register : {X}<zero>\n  {body}\n}}\n"
    )


def reference(constants: int, carried: int, trips: int) -> list[int]:
    values = np.full(carried, 10, np.int64)
    for step in range(max(constants, carried)):
        values[step % carried] += trips * (step % constants + 1)
    return values.astype(np.int32).tolist()


def run(text: str, carried: int) -> tuple[list[int], int, str]:
    """The kernel's results, how many values it spilled, its assembly."""
    return allocate_and_run(text, "constants", carried)


@pytest.mark.parametrize("trips", [0, 3])
def test_constants_read_in_a_loop_are_made_again_instead_of_spilling(
    trips: int,
) -> None:
    # 20 constants, 10 carried values, the counter and the bound: 32 values
    # live through the loop, more than the 28 allocatable x registers
    got, spilled, assembly = run(constants_kernel(20, 10, trips), 10)
    assert spilled == 0
    assert "(sp)" not in assembly
    body = assembly.split(".Lbody")[1].split(".Lfor")[0]
    assert body.count(", zero, ") == 20  # a copy of each constant per trip
    assert got == reference(20, 10, trips)


def test_copies_that_do_not_make_the_kernel_fit_are_undone() -> None:
    # 30 carried values do not fit whatever the constants do: the kernel
    # spills, and its body reads the constants made before the loop
    got, spilled, assembly = run(constants_kernel(4, 30, 2), 30)
    assert spilled > 0
    body = assembly.split(".Lbody")[1].split(".Lfor")[0]
    assert ", zero, " not in body
    assert got == reference(4, 30, 2)

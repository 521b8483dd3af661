"""`pad-calls{mr lanes}`: f32 zero pads call the prebuilt pad entry
(pad_routine.py) instead of being compiled as loops.

`conv-padding` gives each padded convolution an input padded by a
`stablehlo.pad` of zeros, its own kernel (`fuse` keeps a convolution's
operands out of its fusion). Compiled inline, that kernel's one nest
became five after `split-ranges` (the copy and a fill per padded side),
each lowered, threaded and taken through LLVM, which cost a compile more
than an elementwise kernel of its size. This pass, run before `split-ranges`,
turns the nest `hlo-to-loop` makes of such a pad,

    loop.parallel (%i0, ..., %i3) = (0, ...) to (o0, ..., o3) {
      %e = %i1 - l1                             (per dimension; none for l = 0)
      %in = (%e >= 0) && (%e <= n1 - 1) && ...  (every clamped dimension)
      %x = loop.load %S[clamp(%e0, 0, n0 - 1), ...]   (or the index itself;
                                                 one side of the clamp and
                                                 its test where the other
                                                 cannot be crossed)
      loop.store select(%in, %x, 0.0), %D[%i0, ..., %i3]
    }

(any rank, padding at least zero on each side) into a loop
over groups of `GROUP_ELEMENTS` elements' rows calling the entry, each
call marked with the work the inline nest did (two ops per element:
`parallelize` threads the groups where the inline pad would have been).
Dimensions padded on neither side are merged into the one before
(`_merged`). Left as loops: other pad values and element types, interior
padding (none reaches this form), a negative padding (a crop), a select
on any other test, an empty array, more than four dimensions after the
merge. The pass's `threads` and `min-work` options go unused: the calls'
work leaves threads to `parallelize`. `conv-calls` shares the match of the
read (`zero_outside`) and the entry's sizes (`entry_sizes`): a padded
convolution's input read as zeros outside is the same form.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith
from xdsl.ir import Block, Operation, SSAValue
from xlir.analysis.index_ranges import linear_form
from xlir.analysis.loop_utils import constant_int
from xlir.dialects.loop.loops import ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.targets.cpu.pad_routine import pad_routine_name
from xlir.targets.cpu.routine_calls import (
    RoutineCallsPass,
    Site,
    f32_shape,
    is_positive_zero,
    row_group_calls,
    static_sizes,
)

LEVELS = 4
"""Dimensions the entry takes (fewer are padded with leading ones)."""

GROUP_ELEMENTS = 1 << 14
"""Elements of D per call, at least (whole rows): the groups `parallelize`
may give threads."""

SGE, SLE = 5, 3
"""`arith.cmpi`'s predicates of the in-bounds test."""


@dataclass(frozen=True)
class Pad:
    """A pad nest: its buffers and the entry's sizes (`entry_sizes`)."""

    nest: ParallelOp
    source: SSAValue
    target: SSAValue
    sizes: tuple[int, ...]


def unclamped(index: SSAValue, size: int) -> tuple[SSAValue, list[int]] | None:
    """`e` where `index` is `minsi(maxsi(e, 0), size - 1)`, `maxsi(e, 0)` or
    `minsi(e, size - 1)` (`hlo-to-loop` clamps only the sides a read can
    cross), and the predicates of the tests of `e` that go with those
    clamps."""
    predicates = []
    upper = index.owner
    if isinstance(upper, arith.MinSIOp) and constant_int(upper.rhs) == size - 1:
        predicates.append(SLE)
        index = upper.lhs
    lower = index.owner
    if isinstance(lower, arith.MaxSIOp) and constant_int(lower.rhs) == 0:
        predicates.append(SGE)
        index = lower.lhs
    return (index, predicates) if predicates else None


def in_bounds_tests(
    condition: SSAValue,
) -> list[tuple[int, SSAValue, int | None]] | None:
    """The comparisons `condition` ands together: (predicate, lhs, the
    rhs constant)."""
    op = condition.owner
    if isinstance(op, arith.AndIOp):
        lhs, rhs = in_bounds_tests(op.lhs), in_bounds_tests(op.rhs)
        return None if lhs is None or rhs is None else lhs + rhs
    if isinstance(op, arith.CmpiOp):
        return [(op.predicate.value.data, op.lhs, constant_int(op.rhs))]
    return None


def zero_outside(
    load: LoadOp, select: Operation | Block | None
) -> list[tuple[SSAValue, bool]] | None:
    """Per index of `load`, where `select` is `select(in, load, +0.0)` and
    `in` the tests that each clamped index is inside its dimension: the
    index before the clamp and whether it was clamped (the read of a zero
    pad, and of a convolution's input padded as a test), else None."""
    shape = f32_shape(load.buffer)
    if (
        shape is None
        or not isinstance(select, arith.SelectOp)
        or select.lhs is not load.results[0]
        or not is_positive_zero(select.rhs)
    ):
        return None
    tests = in_bounds_tests(select.cond)
    if tests is None:
        return None
    wanted: list[tuple[int, SSAValue, int | None]] = []
    read = []
    for index, size in zip(load.indices, shape, strict=True):
        found = unclamped(index, size)
        if found is None:
            read.append((index, False))
            continue
        shifted, predicates = found
        read.append((shifted, True))
        bounds = {SGE: 0, SLE: size - 1}
        wanted += [(predicate, shifted, bounds[predicate]) for predicate in predicates]
    if (
        len(tests) != len(wanted)
        or any(test not in wanted for test in tests)
        or any(test not in tests for test in wanted)
    ):
        return None
    return read


def pad_of(nest: ParallelOp) -> Pad | None:
    """The zero pad a nest computes (module docstring), else None."""
    sizes = static_sizes(nest)
    ops = [op for op in nest.body.block.ops if not isinstance(op, YieldOp)]
    store = ops[-1] if ops else None
    loads = [op for op in ops if isinstance(op, LoadOp)]
    if sizes is None or not isinstance(store, StoreOp) or len(loads) != 1:
        return None
    if not all(op.name.startswith("arith.") for op in ops if op not in (*loads, store)):
        return None
    (load,) = loads
    select = store.value.owner
    ivs = list(nest.induction_vars)
    out, into = f32_shape(store.buffer), f32_shape(load.buffer)
    if (
        out is None
        or into is None
        or len(out) != len(into)
        or min(out, default=0) < 1
        or min(into) < 1
        or tuple(sizes) != out
        or list(store.indices) != ivs
        or load.buffer is store.buffer
    ):
        return None
    read = zero_outside(load, select)
    if read is None:
        return None
    low = []
    for (index, clamped), iv, size, padded in zip(read, ivs, into, out, strict=True):
        if not clamped:
            if index is not iv or size != padded:
                return None
            low.append(0)
            continue
        terms, constant = linear_form(index)
        if terms != {iv: 1} or constant > 0 or padded + constant < size:
            return None
        low.append(-constant)
    if not any(low) and out == into:
        return None  # a copy: no padding
    sizes = entry_sizes(out, into, tuple(low))
    if sizes is None:
        return None
    return Pad(nest, load.buffer, store.buffer, sizes)


def entry_sizes(
    out: tuple[int, ...], into: tuple[int, ...], low: tuple[int, ...]
) -> tuple[int, ...] | None:
    """The entry's sizes `(o1, o2, o3, i0, i1, i2, i3, l0, l1, l2, l3)` of a
    zero pad of an array of shape `into` to `out` by `low` before (any
    rank; `o0` is the rows' count), None where more than `LEVELS`
    dimensions are left after `_merged`: `pad-calls`' arguments, and
    `conv-calls`' of an input it reads padded (conv_calls.py)."""
    dims = _merged(list(zip(out, into, low, strict=True)))
    if len(dims) > LEVELS:
        return None
    fill = [(1, 1, 0)] * (LEVELS - len(dims))
    out, into, low = (tuple(dim[i] for dim in fill + dims) for i in range(3))
    return (*out[1:], *into, *low)


def _merged(dims: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """(D's size, S's size, low padding) per dimension, each dimension
    padded on neither side merged into the one before: the rows it makes
    are contiguous in both arrays, so one copy moves them (a 3-channel
    image's rows of 3 elements were a call each)."""
    merged = dims[:1]
    for out, into, low in dims[1:]:
        if out != into:
            merged.append((out, into, low))
            continue
        before_out, before_into, before_low = merged[-1]
        merged[-1] = (before_out * out, before_into * into, before_low * out)
    return merged


def _call(pad: Pad, site: Site) -> None:
    """Replace the nest by a loop over groups of rows calling the entry."""
    row = pad.sizes[2]
    rows = prod(f32_shape(pad.target) or ()) // row
    group = min(rows, max(1, -(-GROUP_ELEMENTS // max(row, 1))))
    entry = pad_routine_name(site.mr, site.lanes)
    row_group_calls(
        pad.nest,
        entry,
        (pad.source, pad.target),
        rows,
        group,
        pad.sizes,
        2 * group * row,
    )


@dataclass(frozen=True)
class PadCallsPass(RoutineCallsPass):
    """f32 zero pads call the prebuilt pad entry (module docstring)."""

    name = "pad-calls"

    def call(self, nest: ParallelOp, site: Site) -> None:
        pad = pad_of(nest)
        if pad is not None:
            _call(pad, site)

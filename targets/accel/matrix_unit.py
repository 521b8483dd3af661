"""A matrix product kernel (`matmul.py`'s plan) on XA-1's matrix unit,
streamed through the scratchpad (manual sections 4.10 and 11.1).

For each block of `width` columns, the panel of B it needs (K rows) stays in
one of two slots while the next block's panel loads into the other; for
each 16-row block of A, its panel (16 x K) loads into one of two slots
while the previous one computes. A block of C is one accumulator per 16
columns: cleared, then `mmac`s over K in 16-deep steps on a hardware loop,
stored (`mst`) to one of two C slots, the epilogue applied on the vector
unit row by row, and the block stored by DMA behind the next one's work.
Each load waits for the one before it on its tag (one descriptor of a
kind is outstanding when its wait comes), so the slots alternate by the
block's parity in registers, and the loop bodies are not unrolled; the
loads past the last block are empty (COLS 0).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, MemRefType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xlir.dialects import accel
from xlir.dialects.loop.memory import LoadOp
from xlir.targets.accel.layout import Placement, aligned, staged_bytes
from xlir.targets.accel.loop_to_accel import (
    Builder,
    accel_value,
    descriptor,
    lower_lanes,
    new_loop,
)
from xlir.targets.accel.matmul import TILE, MatmulPlan

M = accel.MRegisterType
A_TAG, C_TAG, B_TAG = 0, 2, 4


def _for(build: Builder, low: SSAValue, bound: SSAValue, step: int, hardware: bool,
         carried: Sequence[SSAValue] = ()) -> accel.ForOp:  # fmt: skip
    """An `accel.for` inserted where the builder is; the builder moves into it."""
    loop = new_loop((low, bound, step, hardware), carried)
    build.rewriter.insert(loop)
    build.rewriter.insertion_point = InsertPoint.at_end(loop.body.block)
    return loop


def _close(build: Builder, loop: accel.ForOp, values: Sequence[SSAValue] = ()) -> None:
    """End `loop`'s body (yielding `values`) and put the builder after it."""
    loop.body.block.add_op(accel.YieldOp(*values))
    build.rewriter.insertion_point = InsertPoint.after(loop)


def _slot(build: Builder, base: int, size: int, parity: SSAValue) -> SSAValue:
    """`base` + `size` x `parity` (0 or 1)."""
    return build.x("add", build.li(base), build.scale(parity, size))


def lower_matmul(
    build: Builder, plan: MatmulPlan, arguments: list[SSAValue], capacity: int
) -> int:
    """Emit the kernel's body where `build` inserts (`arguments`: the
    kernel's arguments as registers, in order); the scratchpad bytes used."""
    k, n, width = plan.k, plan.n, plan.width
    depth = padded(k)
    blocks_down, blocks_across = plan.m // TILE, -(-n // width)
    staged = [
        (index, arg)
        for index, arg in enumerate(arguments)
        if index not in (plan.a, plan.b, plan.c) and isinstance(arg.type, MemRefType)
    ]
    offsets: dict[int, int] = {}
    offset = 0
    for index, arg in staged:
        assert isinstance(arg.type, MemRefType)
        offsets[index] = offset
        offset += staged_bytes([arg.type])
    b_size, a_size = aligned(4 * depth * width), aligned(4 * TILE * depth)
    c_size = aligned(4 * TILE * width)
    b_base = offset
    a_base = b_base + 2 * b_size
    c_base = a_base + 2 * a_size
    used = c_base + 2 * c_size
    assert used <= capacity  # matmul_plan checked
    registers = [accel_value(build, a) for a in arguments]
    for index, arg in staged:
        assert isinstance(arg.type, MemRefType)
        columns = 4 * math.prod(arg.type.get_shape())  # f32 (matmul_plan checked)
        place = Placement(offsets[index], columns, "raw", False)
        descriptor(build, "dma.ld", place, offsets[index], registers[index], A_TAG)
    if staged:
        build.emit("dma.wait", imm=A_TAG)
    row_bytes, panel_row = 4 * n, 4 * width
    b_panel = Placement(0, panel_row, "raw", False, 4 * k * width, k)
    a_panel = (  # 16 rows of K, contiguous unless padded
        Placement(0, 4 * TILE * k, "raw", False)
        if k == depth
        else Placement(0, 4 * k, "raw", False, 4 * TILE * depth, TILE)
    )
    c_block = Placement(0, panel_row, "raw", False, c_size, TILE)
    build.emit("mcfg", [build.li(4 * depth), build.li(panel_row)])
    zero = build.li(0)
    a, b, c = registers[plan.a], registers[plan.b], registers[plan.c]
    batches = None
    if plan.batch > 1:  # each product in turn, its first loads not overlapped
        batches = _for(build, build.li(0), build.li(plan.batch), 1, False)
        index = batches.body.block.args[0]
        a, b, c = (
            build.x("add", base, build.scale(index, 4 * size))
            for base, size in ((a, plan.m * k), (b, k * n), (c, plan.m * n))
        )
    first = build.li(min(panel_row, row_bytes))
    _load_b(build, plan, b_panel, build.li(b_base), b, first)
    _load(build, a_panel, build.li(a_base), a, build.li(a_panel.columns), A_TAG, 4 * k)
    total = blocks_down * blocks_across
    across = _for(build, zero, build.li(blocks_across), 1, False)
    g = across.body.block.args[0]
    b_slot = _slot(build, b_base, b_size, build.x("andi", g, imm=1))
    build.emit("dma.wait", imm=B_TAG)
    following = build.x("addi", g, imm=1)
    more = build.x("slt", following, build.li(blocks_across))
    panel_bytes = width * 4 * k if plan.transposed else panel_row
    b_next = build.x(
        "add", b, build.scale(build.x("mul", following, more), panel_bytes)
    )
    _load_b(build, plan, b_panel,
            _slot(build, b_base, b_size, build.x("andi", following, imm=1)), b_next,
            build.x("mul", _columns(build, following, panel_row, row_bytes), more))  # fmt: skip
    column_bytes = build.scale(g, panel_row)
    down = _for(build, build.li(0), build.li(blocks_down), 1, False)
    i = down.body.block.args[0]
    sequence = build.x("add", build.x("mul", g, build.li(blocks_down)), i)
    parity = build.x("andi", sequence, imm=1)
    a_slot = _slot(build, a_base, a_size, parity)
    c_slot = _slot(build, c_base, c_size, parity)
    build.emit("dma.wait", imm=A_TAG)
    next_i = build.x("addi", i, imm=1)
    wraps = build.x("slt", next_i, build.li(blocks_down))
    a_next = build.x("add", a, build.scale(build.x("mul", next_i, wraps), 4 * TILE * k))
    more_blocks = build.x("slt", build.x("addi", sequence, imm=1), build.li(total))
    a_columns = build.x("mul", build.li(a_panel.columns), more_blocks)
    _load(build, a_panel, _slot(build, a_base, a_size, build.x("xori", parity, imm=1)),
          a_next, a_columns, A_TAG, 4 * k)  # fmt: skip
    accumulators = [build.emit("mzero", (), M).results[0] for _ in range(width // TILE)]
    steps = _for(
        build, build.li(0), build.li(depth // TILE), 4 * TILE, True, accumulators
    )
    step = steps.body.block.args[0]
    a_tile = build.x("add", a_slot, step)
    b_tile = build.x("add", b_slot, build.scale(step, width))
    sums = [
        build.emit(
            "mmac", [acc, a_tile, build.add_immediate(b_tile, 64 * q)], M
        ).results[0]
        for q, acc in enumerate(steps.body.block.args[1:])
    ]
    _close(build, steps, sums)
    build.emit("dma.wait", imm=C_TAG)
    stride = build.li(panel_row)
    for q, acc in enumerate(steps.res):
        build.emit("mst", [acc, build.add_immediate(c_slot, 64 * q), stride])
    if plan.epilogue:
        _epilogue(build, plan, c_slot, column_bytes, offsets, width)
    c_dram = build.x(
        "add",
        build.x("add", c, build.scale(i, TILE * row_bytes)),
        column_bytes,
    )
    columns = _columns(build, g, panel_row, row_bytes)
    _descriptor(build, "dma.st", c_block, c_slot, c_dram, C_TAG, row_bytes, columns)
    _close(build, down)
    _close(build, across)
    if batches is not None:
        _close(build, batches)
    return used


def padded(k: int) -> int:
    """K rounded up to the unit's tiles: the panels' depth in the
    scratchpad, whose rows past K stay zero (the scratchpad is zero at
    launch, manual section 2.4, and no load writes them), so the padded
    steps add +0.0 products, which change no sum that starts from +0.0."""
    return -(-k // TILE) * TILE


def _load(build: Builder, place: Placement, spad: SSAValue, dram: SSAValue,
          columns: SSAValue, tag: int, dram_stride: int = 0) -> None:  # fmt: skip
    """A load of `place`'s rows, `columns` bytes each (0: an empty one)."""
    _descriptor(build, "dma.ld", place, spad, dram, tag, dram_stride, columns)


def _load_b(build: Builder, plan: MatmulPlan, place: Placement, spad: SSAValue,
            dram: SSAValue, columns: SSAValue) -> None:  # fmt: skip
    """The load of a panel of B (`columns` bytes of each of its K rows; 0:
    an empty one). Transposed, each of its columns is one descriptor of K
    rows of one element, consecutive in DRAM, a panel row apart in the
    scratchpad."""
    if not plan.transposed:
        _load(build, place, spad, dram, columns, B_TAG, 4 * plan.n)
        return
    panel_row = 4 * plan.width
    build.emit(
        "dma.cfg", [build.li(plan.k), build.li(4), build.li(panel_row)], mode="raw"
    )
    loop = _for(build, build.li(0), build.li(plan.width), 4, True)
    offset = loop.body.block.args[0]
    present = build.x("slli", build.x("slt", offset, columns), imm=2)
    column = build.x("add", dram, build.scale(offset, plan.k))
    build.emit("dma.ld", [build.x("add", spad, offset), column, present], imm=B_TAG)
    _close(build, loop)
    build.emit("dma.cfg", [build.li(1), build.zero(), build.zero()], mode="raw")


def _columns(build: Builder, block: SSAValue, width: int, row: int) -> SSAValue:
    """The bytes of a row of column block `block` (`width` bytes wide) in a
    DRAM row of `row` bytes: `width`, less for a last block that is cut."""
    if row % width == 0:
        return build.li(width)
    left = build.x("sub", build.li(row), build.scale(block, width))
    return build.x("min", left, build.li(width))


def _descriptor(build: Builder, direction: str, place: Placement, spad: SSAValue,
                dram: SSAValue, tag: int, dram_stride: int,
                columns: SSAValue | None = None) -> None:  # fmt: skip
    """`descriptor` with the scratchpad address in a register."""
    rows = place.rows
    if rows > 1:
        build.emit(
            "dma.cfg",
            [build.li(rows), build.li(dram_stride), build.li(place.slot_bytes // rows)],
            mode="raw",
        )
    count = build.li(place.columns) if columns is None else columns
    build.emit(direction, [spad, dram, count], imm=tag)
    if rows > 1:
        build.emit("dma.cfg", [build.li(1), build.zero(), build.zero()], mode="raw")


def _epilogue(build: Builder, plan: MatmulPlan, c_slot: SSAValue,
              column_bytes: SSAValue, offsets: dict[int, int], width: int) -> None:  # fmt: skip
    """The fusion's ops after the sum, on the C block in its slot, a row
    of 16 lanes per accumulator at a time."""
    rows = _for(build, build.li(0), build.li(TILE), 4 * width, True)
    row = build.x("add", c_slot, rows.body.block.args[0])
    for q in range(width // TILE):
        values: dict[SSAValue, SSAValue] = {
            plan.accumulator: build.v("vld", row, offset=64 * q)
        }
        for op in plan.epilogue:
            values[op.results[0]] = _lane(build, op, values, column_bytes, offsets, q)
        build.emit("vst", [values[plan.result], row], offset=64 * q)
    _close(build, rows)


def _lane(build: Builder, op: Operation, values: dict[SSAValue, SSAValue],
          column_bytes: SSAValue, offsets: dict[int, int], q: int) -> SSAValue:  # fmt: skip
    """One epilogue op on 16 columns."""
    if isinstance(op, LoadOp):
        index = op.buffer.index  # pyright: ignore[reportAttributeAccessIssue]
        base = build.add_immediate(column_bytes, offsets[index])
        return build.v("vld", base, offset=64 * q)
    operands = []
    for operand in op.operands:
        if operand in values:
            operands.append(values[operand])
            continue
        constant = operand.owner
        assert isinstance(constant, arith.ConstantOp)
        assert isinstance(constant.value, FloatAttr)
        bits = struct.unpack("<I", struct.pack("<f", constant.value.value.data))[0]
        operands.append(build.float_constant(bits))
    return lower_lanes(build, op, operands)

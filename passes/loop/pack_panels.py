"""`pack-panels{min-bytes=N}`: a register-tiled contraction reads its rhs
from contiguous panels, one panel of columns at a time (cache blocking).

A register tile (`register-tile`) loads, per reduction step, `nr`
consecutive elements of the rhs row `B[k, j0 : j0 + nr]`. Rows of B lie a
whole row of B apart, so a tile's walk down k touches a new cache line (and
every few steps a new page) each step, and with the row tiles outermost the
tile of the next rows walks all of B again. Once B outgrows the L2 cache
every step waits on memory: a 1024^3 matmul ran at 40 GFLOP/s on one
core, numpy's BLAS at 145.

As BLAS kernels do, the nest is turned inside out: the panel of columns
`j0 : j0 + nr` becomes the outer (threaded) loop, and each of its
iterations first copies its panel of B, every leading index of B by `nr`
columns, into a scratch buffer where consecutive k steps are consecutive
(`Bp[jp, k, 0 : nr]`), then runs all the row tiles on it. The panel is
read from cache by every row tile; B is read once per call. Each panel
has its own slice of the scratch buffer, so threads splitting the panels
share nothing. Results are bit for bit the same: each tile runs the same
operations in the same order, on the same values. (1024^3: 122 GFLOP/s;
it pays down to small dots too: 512^3 +16%, conv2d's 18 KiB filter +10%.)

A nest is packed when it is a register tile (its `jam` attribute) whose
vector dimension has static bounds and the tile's width as its step, some
read-only kernel argument B (or a `loop.reshape` of one) with every column of the panels is loaded
there only at that dimension's index plus a constant column of the tile,
its other indices depending on no parallel dimension (a batched dot reads
B at the batch: its panels would hold every batch and stream each batch's
A once per panel; its batch should stay the outer loop, left for later),
another dimension of the nest reuses each panel, and the panels hold at
least `min-bytes` bytes. The scratch buffer is a kernel argument after the
others, allocated around each launch (`device.alloc`, `device.free`).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    VectorType,
)
from xdsl.ir import BlockArgument, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xlir.analysis.dependence import dependents
from xlir.analysis.kernel_aliasing import launches_by_kernel
from xlir.analysis.loop_utils import bounds_of, static_trip_count
from xlir.dialects import device
from xlir.dialects.device import LaunchOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp, ParallelOp
from xlir.dialects.loop.memory import LoadOp, ReshapeOp, StoreOp
from xlir.dialects.syntax import i64_array
from xlir.passes.loop.jam import JAM_ATTRIBUTE, loads_in, reduction_loops

from xlir.diagnostics import XlirError
from xlir.element_types import byte_width
from xlir.walk import walk

DEFAULT_MIN_BYTES = 16 << 10
"""The smallest packed rhs, in bytes (module docstring)."""


@dataclass(frozen=True)
class Panels:
    """How one nest reads its rhs `buffer` by panels of dimension `dim`."""

    nest: ParallelOp
    dim: int
    width: int
    buffer: SSAValue
    """A kernel argument, or a `loop.reshape` of one (`dot-quads`' words)."""
    loads: dict[LoadOp, int]
    """Each load of the buffer in the nest, and its column in the panel."""

    @property
    def count(self) -> int:
        lower, upper, _ = bounds_of(self.nest)[self.dim]
        assert isinstance(lower, int) and isinstance(upper, int)
        return (upper - lower) // self.width

    @property
    def leading(self) -> tuple[int, ...]:
        """B's dimensions before its last, which each panel copies whole."""
        type_ = self.buffer.type
        assert isinstance(type_, MemRefType)
        return tuple(type_.get_shape()[:-1])

    @property
    def packed_type(self) -> MemRefType:
        type_ = self.buffer.type
        assert isinstance(type_, MemRefType)
        return MemRefType(type_.element_type, [self.count, *self.leading, self.width])

    @property
    def packed_bytes(self) -> int:
        type_ = self.packed_type
        return prod(type_.get_shape()) * (byte_width(type_.element_type) or 0)


def _column(index: SSAValue, iv: SSAValue) -> int | None:
    """c where `index` is `iv + c` (or `iv` itself: 0), else None."""
    if index is iv:
        return 0
    op = index.owner
    if not isinstance(op, arith.AddiOp):
        return None
    for base, offset in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        constant = offset.owner
        if (
            base is iv
            and isinstance(constant, arith.ConstantOp)
            and isinstance(constant.value, IntegerAttr)
        ):
            return constant.value.value.data
    return None


def _stored(kernel: KernelOp) -> set[SSAValue]:
    """The buffers the kernel stores to (stores told by their exact class: a
    failing `isinstance` on xDSL's op classes goes through `ABCMeta`, once
    per op of the kernel)."""
    return {op.buffer for op in walk(kernel) if type(op) is StoreOp}


def _panels_of(
    nest: ParallelOp, kernel: KernelOp, stored: set[SSAValue], min_bytes: int
) -> Panels | None:
    """The packing plan of a register-tiled nest, or None (module docstring):
    of the operands of its reductions whose panels reach `min_bytes`
    (`stored`: the buffers the kernel stores to), the largest. An epilogue's
    operand (a row scale, a bias) is not the rhs, and taking it for one left
    an int8 matmul's rhs unpacked. A transposed lhs (`Aᵀ[k, i]`) reads like
    an rhs along the rows; the operand left unpacked is streamed once per
    panel of the other, so the smaller one is left: a 6 MiB rhs unpacked
    beside a 224 KiB `Aᵀ` came from memory for every row tile."""
    factors = nest.attributes.get(JAM_ATTRIBUTE)
    if not isinstance(factors, DenseArrayBase):
        return None
    jam = factors.get_values()
    parallel: set[SSAValue] | None = None
    operands = {load.buffer for load in loads_in(reduction_loops(nest))}
    found: list[Panels] = []
    for dim, (lower, upper, step) in enumerate(bounds_of(nest)):
        width = jam[dim]
        if width < 2 or step != width:
            continue
        if not (isinstance(lower, int) and isinstance(upper, int)):
            continue
        if (upper - lower) % width:
            continue
        if parallel is None:
            parallel = dependents(nest.induction_vars, nest.body.block.ops)
        for buffer in _whole_arguments(kernel):
            if buffer not in operands:
                continue
            panels = _reads(nest, dim, width, buffer, parallel, stored)
            if (
                panels is not None
                and panels.packed_bytes >= min_bytes
                and _reused(panels)
            ):
                found.append(panels)
    return max(found, key=lambda panels: panels.packed_bytes, default=None)


def _whole_arguments(kernel: KernelOp) -> list[SSAValue]:
    """The kernel's arguments, and the `loop.reshape`s of them at its top
    (an int8 dot's quads read as i32 words: `dot-quads`)."""
    block = kernel.body.block
    reshapes = [
        op.result
        for op in block.ops
        if isinstance(op, ReshapeOp) and isinstance(op.source, BlockArgument)
    ]
    return [*block.args, *reshapes]


def _reads(
    nest: ParallelOp,
    dim: int,
    width: int,
    buffer: SSAValue,
    parallel: set[SSAValue],
    stored: set[SSAValue],
) -> Panels | None:
    """The plan for `buffer` when all its uses in the nest are loads at a
    column of the panel along `dim` whose other indices depend on no
    parallel dimension (`parallel`: the values that do), B has every column
    of the panels, and the kernel never stores to it."""
    type_ = buffer.type
    source = buffer.owner.source if isinstance(buffer.owner, ReshapeOp) else buffer
    if source in stored or not isinstance(type_, MemRefType) or not type_.get_shape():
        return None
    upper = bounds_of(nest)[dim][1]
    if not isinstance(upper, int) or upper > type_.get_shape()[-1]:
        return None  # the copy reads every column of the last panel
    iv = nest.induction_vars[dim]
    loads: dict[LoadOp, int] = {}
    for use in buffer.uses:
        user = use.operation
        if not nest.is_ancestor(user):
            continue
        if not isinstance(user, LoadOp):
            return None
        *leading, last = user.indices
        column = _column(last, iv)
        lanes = (
            user.result.type.get_shape()[0]
            if isinstance(user.result.type, VectorType)
            else 1
        )
        if column is None or not 0 <= column <= width - lanes:
            return None
        if any(index in parallel for index in leading):
            return None
        loads[user] = column
    if not loads:
        return None
    return Panels(nest, dim, width, buffer, loads)


def _reused(panels: Panels) -> bool:
    """Whether another dimension of the nest runs more than once per panel
    (none reaches B's indices: `_reads`)."""
    for dim, bounds in enumerate(bounds_of(panels.nest)):
        count = static_trip_count(*bounds)
        if dim != panels.dim and (count is None or count > 1):
            return True
    return False


def _constant(builder: Builder, value: int) -> SSAValue:
    return builder.insert(
        arith.ConstantOp.from_int_and_width(value, IndexType())
    ).result


def add_scratch(
    kernel: KernelOp, type_: MemRefType, launches: list[LaunchOp]
) -> BlockArgument:
    """A new last argument of `kernel`, allocated around each launch."""
    block = kernel.body.block
    scratch = block.insert_arg(type_, len(block.args))
    kernel.function_type = FunctionType.from_lists([*kernel.argument_types, type_], [])
    if kernel.arg_attrs is not None:
        kernel.arg_attrs = ArrayAttr([*kernel.arg_attrs.data, DictionaryAttr({})])
    for position, launch in enumerate(launches):
        alloc = device.AllocOp(type_)
        Rewriter.insert_op(alloc, InsertPoint.before(launch))
        new = LaunchOp(
            launch.kernel.root_reference.data,
            [*launch.args, alloc.results[0]],
            launch.stream,
        )
        new.attributes |= launch.attributes
        Rewriter.replace_op(launch, new)
        Rewriter.insert_op(device.FreeOp(alloc.results[0]), InsertPoint.after(new))
        launches[position] = new  # a second nest of the kernel adds to it
    return scratch


def _pack(panels: Panels, kernel: KernelOp, launches: list[LaunchOp]) -> None:
    """Rewrite the nest as its panels' loop around the copy of a panel and
    the old nest on it (module docstring)."""
    nest, dim, width = panels.nest, panels.dim, panels.width
    scratch = add_scratch(kernel, panels.packed_type, launches)
    bounds = bounds_of(nest)
    lower, upper, step = bounds[dim]
    assert isinstance(lower, int)  # `_panels_of` takes static bounds only
    outer = ParallelOp([lower], [upper], [step])
    outer.attributes[JAM_ATTRIBUTE] = i64_array([width])
    Rewriter.insert_op(outer, InsertPoint.before(nest))
    (column_start,) = outer.induction_vars
    terminator = outer.body.block.last_op
    assert terminator is not None
    b = Builder(InsertPoint.before(terminator))
    offset = (
        b.insert(arith.SubiOp(column_start, _constant(b, lower))).result
        if lower
        else column_start
    )
    panel = b.insert(arith.DivUIOp(offset, _constant(b, width))).result
    lanes = _copy_lanes(panels)
    used = set(panels.loads.values()) | set(range(0, width, lanes))
    columns = {c: _constant(b, c) for c in sorted(used)}
    _copy_panel(b, panels, lanes, columns, scratch, column_start, panel)

    # the old nest, on the panel of this iteration
    iv = nest.body.block.args[dim]
    iv.replace_all_uses_with(column_start)
    nest.body.block.erase_arg(iv)
    kept = [b for d, b in enumerate(bounds) if d != dim]
    inner = ParallelOp(
        [lo for lo, _, _ in kept],
        [up for _, up, _ in kept],
        [st for _, _, st in kept],
        nest.detach_region(nest.body),
    )
    factors = nest.attributes[JAM_ATTRIBUTE]
    assert isinstance(factors, DenseArrayBase)
    for key, value in nest.attributes.items():
        inner.attributes[key] = value
    inner.attributes[JAM_ATTRIBUTE] = i64_array(
        [f for d, f in enumerate(factors.get_values()) if d != dim]
    )
    b.insert(inner)
    Rewriter.erase_op(nest)
    for load, column in panels.loads.items():
        vector = load.result.type if isinstance(load.result.type, VectorType) else None
        Rewriter.replace_op(
            load, LoadOp(scratch, [panel, *load.indices[:-1], columns[column]], vector)
        )


def _copy_lanes(panels: Panels) -> int:
    """The copy's vector width: the widest load of B in the nest, where it
    divides the panel (1: scalars)."""
    lanes = max(
        load.result.type.get_shape()[0]
        if isinstance(load.result.type, VectorType)
        else 1
        for load in panels.loads
    )
    return lanes if panels.width % lanes == 0 else 1


def _copy_panel(
    b: Builder,
    panels: Panels,
    lanes: int,
    columns: dict[int, SSAValue],
    scratch: SSAValue,
    column_start: SSAValue,
    panel: SSAValue,
) -> None:
    """`scratch[panel, x..., c] = B[x..., column_start + c]` for every
    leading index x and column c of the panel, `lanes` columns at a time."""
    element = panels.packed_type.element_type
    vector = VectorType(element, [lanes]) if lanes > 1 else None
    leading: list[SSAValue] = []
    for extent in panels.leading:
        loop = b.insert(ForOp(0, extent, 1))
        leading.append(loop.induction_var)
        terminator = loop.body.block.last_op
        assert terminator is not None
        b = Builder(InsertPoint.before(terminator))
    for column in range(0, panels.width, lanes):
        at = columns[column]
        source = (
            b.insert(arith.AddiOp(column_start, at)).result if column else column_start
        )
        value = b.insert(LoadOp(panels.buffer, [*leading, source], vector)).result
        b.insert(StoreOp(value, scratch, [panel, *leading, at]))


@dataclass(frozen=True)
class PackPanelsPass(ModulePass):
    """Register-tiled contractions read their rhs from packed panels
    (module docstring)."""

    name = "pack-panels"
    min_bytes: int = DEFAULT_MIN_BYTES

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.min_bytes < 0:
            raise XlirError(
                f"error: pack-panels: min-bytes must be non-negative, got {self.min_bytes}"
            )
        launches = launches_by_kernel(op)
        for kernel in [k for k in op.body.block.ops if isinstance(k, KernelOp)]:
            stored = _stored(kernel)  # once per kernel: a walk of all of it
            for nest in [n for n in kernel.body.block.ops if isinstance(n, ParallelOp)]:
                panels = _panels_of(nest, kernel, stored, self.min_bytes)
                if panels is not None:
                    _pack(panels, kernel, launches.get(kernel.sym_name.data, []))
                    stored = _stored(kernel)  # and the scratch buffer now

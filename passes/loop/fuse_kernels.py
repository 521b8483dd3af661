"""`fuse-kernels`: kernels launched one after the other that work row by row
on the same rows become one kernel with one loop over the rows.

Softmax is three fusions at the HLO level (a row max, the exponentials and
their row sum, the division), because a reduction's result is needed whole
before its consumer can start. Yet each row of each kernel needs only the
same row of the kernels before it: run the three bodies row after row, in
one loop, and the row stays in L1 between them instead of making five
trips through memory (layernorm's five kernels likewise).

    loop.kernel @fusion_1(%x: memref<64x128xf32>, %m: memref<64xf32>)
      loop.parallel (%i) = (0) to (64) step (1) { ... store %m[%i] }
    loop.kernel @fusion_2(%m: memref<64xf32>, %x: ..., %y: memref<64x128xf32>)
      loop.parallel (%i, %j) = (0, 0) to (64, 128) step (1, 1) {
        ... load %m[%i] ... store %y[%i, %j] }

becomes

    loop.kernel @fusion_1(%x, %m, %y)
      loop.parallel (%i) = (0) to (64) step (1) {
        ... store %m[%i]
        loop.parallel (%j) = (0) to (128) step (1) { ... load %m[%i] ... }
      }

Two launches on one stream fuse when nothing but buffer definitions (views,
reshapes, allocations, constants) lies between them, each kernel is
launched only there, and each kernel is one `loop.parallel` starting at 0
with step 1 over the same number of rows (its first dimension), after ops
that compute scalars (loads among them: a load before the row loop is not
a row's, so it may not read what the other kernel writes). The row loop
keeps its other dimensions as an inner `loop.parallel`. The condition, for
every pair of buffers of the two launches that may share memory
(`kernel_aliasing.overlaps_between`) where either kernel writes its one: row i
of both is the same bytes for every i (`same_rows`: one buffer, or views
at one arena offset with rows of one size) and both kernels reach them
only through loads and stores whose first index is the row. Row i of the
second kernel then reads only what row i of the first wrote, and no row of
either touches another row's elements of a buffer the other writes, so the
fused loop's iterations are still independent.

In the fused row, the second kernel's elements join the first's last inner
nest when the two run over the same columns (equal static bounds) and each
element of the second touches only its own element of what the first's
nest writes, and the other way round (`merges`): compare_select's and
int_ops' row loops held sibling nests over the same 1024 columns, each a
loop for LLVM to vectorize (~3 ms of its time each) and a pass over the
row for the CPU. The condition, for every pair of buffers of the two
launches that may share memory where either nest writes its one: one
buffer (or views of one type at one offset), reached inside both nests only
through loads and stores at (row, the nest's indices).

Contractions are left alone: `register-tile` needs their output dimensions
side by side in one nest (`register_tile.contraction_dims`). The fused
kernel keeps the first kernel's name. Runs before the other loop passes,
on `loop.parallel`s no pass has marked yet.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from math import prod

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xlir.analysis.kernel_aliasing import launches_by_kernel, overlaps_between
from xlir.analysis.loop_utils import is_pure
from xlir.dialects.device import AllocOp, LaunchOp
from xlir.dialects.loop.kernel import KernelOp, ReturnOp
from xlir.dialects.loop.loops import ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, ReshapeOp, StoreOp, ViewOp
from xlir.passes.loop.register_tile import contraction_dims

from xlir.element_types import byte_width

BETWEEN_LAUNCHES = (ViewOp, ReshapeOp, AllocOp, arith.ConstantOp)
"""Host ops that may lie between two launches that fuse: they only define
buffers and scalars."""


@dataclass
class RowKernel:
    """A kernel that is scalar ops (`prelude`) and one `loop.parallel` over
    `rows` rows."""

    kernel: KernelOp
    prelude: list[Operation]
    loop: ParallelOp
    rows: int

    @property
    def row(self) -> SSAValue:
        return self.loop.induction_vars[0]

    def accesses(self, argument: int) -> tuple[bool, bool]:
        """(whether the kernel writes the buffer, whether it reaches it only
        through loads and stores in the loop indexed by the row first)."""
        writes, by_row = False, True
        for use in self.kernel.body.block.args[argument].uses:
            op = use.operation
            if isinstance(op, StoreOp) and use.index == 1:
                writes = True
            elif not (isinstance(op, LoadOp) and use.index == 0):
                return True, False  # passed on (a view): take it as written anywhere
            by_row = by_row and bool(op.indices) and op.indices[0] is self.row
            by_row = by_row and self.loop.is_ancestor(op)
        return writes, by_row


def row_kernel(kernel: KernelOp) -> RowKernel | None:
    """The kernel as a `RowKernel`, if it is one that may fuse."""
    *prelude, loop, end = kernel.body.block.ops
    if not (
        isinstance(loop, ParallelOp)
        and isinstance(end, ReturnOp)
        and loop.induction_vars
    ):
        return None
    if loop.attributes or kernel.arg_attrs is not None:
        return None  # marked by another pass: leave its choices alone
    if any(op.regions or not (is_pure(op) or isinstance(op, LoadOp)) for op in prelude):
        return None
    lower, upper, step = loop.lower_bounds[0], loop.upper_bounds[0], loop.steps[0]
    if lower != 0 or step != 1 or not isinstance(upper, int) or upper < 2:
        return None
    if contraction_dims(loop) is not None:
        return None
    return RowKernel(kernel, prelude, loop, upper)


def fusible(first: RowKernel, second: RowKernel, a: LaunchOp, b: LaunchOp) -> bool:
    if first.rows != second.rows or a.stream != b.stream:
        return False
    for n, m in overlaps_between(a.args, b.args):
        (writes_x, x_by_row), (writes_y, y_by_row) = (
            first.accesses(n),
            second.accesses(m),
        )
        if not (writes_x or writes_y):
            continue  # two reads never conflict
        if not (same_rows(a.args[n], b.args[m]) and x_by_row and y_by_row):
            return False
    return True


@dataclass
class ElementNest:
    """The part of a row kernel that runs per element of a row: the loop
    holding it (the kernel's own loop of two or more dimensions, or the
    inner nest a fused row ends with), the bounds and indices of its
    dimensions past the row."""

    owner: ParallelOp
    bounds: tuple[tuple[int | SSAValue, ...], ...]
    indices: tuple[SSAValue, ...]


def element_nest(kernel: RowKernel) -> ElementNest | None:
    loop = kernel.loop
    if len(loop.induction_vars) > 1:
        bounds = (loop.lower_bounds[1:], loop.upper_bounds[1:], loop.steps[1:])
        return ElementNest(loop, tuple(map(tuple, bounds)), loop.induction_vars[1:])
    last = loop.body.block.last_op
    nest = last.prev_op if last is not None else None
    if not isinstance(nest, ParallelOp) or nest.attributes:
        return None
    bounds = (nest.lower_bounds, nest.upper_bounds, nest.steps)
    return ElementNest(nest, tuple(map(tuple, bounds)), nest.induction_vars)


def element_accesses(
    kernel: RowKernel, nest: ElementNest, argument: int
) -> tuple[bool, bool, bool]:
    """(whether the nest writes the buffer, whether it reaches it at all,
    whether only through loads and stores at its own element)."""
    own = (kernel.row, *nest.indices)
    writes = reaches = False
    for use in kernel.kernel.body.block.args[argument].uses:
        op = use.operation
        if not nest.owner.is_ancestor(op):
            continue
        reaches = True
        if isinstance(op, StoreOp) and use.index == 1:
            writes = True
        elif not (isinstance(op, LoadOp) and use.index == 0):
            return True, True, False  # passed on: take it as written anywhere
        if len(op.indices) != len(own) or any(
            a is not b for a, b in zip(op.indices, own, strict=True)
        ):
            return writes, True, False
    return writes, reaches, True


def merges(first: RowKernel, second: RowKernel, a: LaunchOp, b: LaunchOp) -> bool:
    """Whether the second kernel's elements may run in the first's last inner
    nest (module docstring); both must fuse (`fusible`)."""
    if len(second.loop.induction_vars) < 2:
        return False
    x_nest, y_nest = element_nest(first), element_nest(second)
    if x_nest is None or y_nest is None or x_nest.bounds != y_nest.bounds:
        return False
    if not all(isinstance(v, int) for bound in x_nest.bounds for v in bound):
        return False
    for n, m in overlaps_between(a.args, b.args):
        writes_x, reaches_x, own_x = element_accesses(first, x_nest, n)
        writes_y, reaches_y, own_y = element_accesses(second, y_nest, m)
        if not ((writes_x and reaches_y) or (writes_y and reaches_x)):
            continue
        x, y = a.args[n], b.args[m]
        if not (own_x and own_y and x.type == y.type and same_rows(x, y)):
            return False
    return True


def same_rows(x: SSAValue, y: SSAValue) -> bool:
    """Whether row i of `x` and of `y` are the same bytes for every i: one
    buffer, or views at one offset of one buffer with rows of one size (the
    plan puts `tensor<512x1xf32>` where `tensor<512xf32>` was)."""
    if x is y:
        return True
    a, b = x.owner, y.owner
    if not (isinstance(a, ViewOp) and isinstance(b, ViewOp)):
        return False
    rows = _row_bytes(x)
    return (
        a.source is b.source
        and a.byte_offset == b.byte_offset
        and rows is not None
        and rows == _row_bytes(y)
    )


def _row_bytes(buffer: SSAValue) -> tuple[int, int] | None:
    """(rows, bytes per row) of a buffer of static shape and known element size."""
    type_ = buffer.type
    assert isinstance(type_, MemRefType)
    shape = type_.get_shape()
    size = byte_width(type_.element_type)
    if not shape or size is None or any(d < 0 for d in shape):
        return None
    return shape[0], size * prod(shape[1:])


def _move_ops(ops: Iterable[Operation], builder: Builder) -> None:
    """Move `ops` (a `loop.yield` among them stays) to the builder's point."""
    for op in list(ops):
        if not isinstance(op, YieldOp):
            op.detach()
            builder.insert(op)


def _move_rows(source: RowKernel, builder: Builder) -> None:
    """The body of one row of `source` to `builder` (its row index already
    replaced), its other dimensions as an inner `loop.parallel`."""
    loop = source.loop
    if len(loop.induction_vars) == 1:
        _move_ops(loop.body.block.ops, builder)
        return
    inner = builder.insert(
        ParallelOp(loop.lower_bounds[1:], loop.upper_bounds[1:], loop.steps[1:])
    )
    for old, new in zip(loop.induction_vars[1:], inner.induction_vars, strict=True):
        old.replace_all_uses_with(new)
    assert inner.body.block.last_op is not None
    _move_ops(
        loop.body.block.ops, Builder(InsertPoint.before(inner.body.block.last_op))
    )


def _merge_rows(source: RowKernel, nest: ParallelOp) -> None:
    """The elements of one row of `source` (its row index already replaced)
    into `nest`, after the nest's own."""
    loop = source.loop
    for old, new in zip(loop.induction_vars[1:], nest.induction_vars, strict=True):
        old.replace_all_uses_with(new)
    assert nest.body.block.last_op is not None
    _move_ops(loop.body.block.ops, Builder(InsertPoint.before(nest.body.block.last_op)))


def fuse(
    first: RowKernel, second: RowKernel, a: LaunchOp, b: LaunchOp
) -> tuple[KernelOp, LaunchOp]:
    """One kernel (named as the first) and its launch in place of both. The
    ops move into it rather than being cloned: a run of n kernels fuses
    into one pair by pair, and cloning would copy the first ones n times."""
    merged = merges(first, second, a, b)
    position: dict[SSAValue, int] = {}
    for value in (*a.args, *b.args):
        position.setdefault(value, len(position))
    arguments = list(position)
    kernel = KernelOp(first.kernel.sym_name.data, [v.type for v in arguments])
    block = kernel.body.block
    assert block.last_op is not None
    builder = Builder(InsertPoint.before(block.last_op))
    rows = ParallelOp([0], [first.rows], [1])
    for source, launch in ((first, a), (second, b)):
        for arg, value in zip(source.kernel.body.block.args, launch.args, strict=True):
            arg.replace_all_uses_with(block.args[position[value]])
        _move_ops(source.prelude, builder)
        source.row.replace_all_uses_with(rows.induction_vars[0])
    builder.insert(rows)
    assert rows.body.block.last_op is not None
    in_row = Builder(InsertPoint.before(rows.body.block.last_op))
    _move_rows(first, in_row)
    if merged:  # the first's element nest now ends the row
        nest = rows.body.block.last_op.prev_op
        assert isinstance(nest, ParallelOp)
        _merge_rows(second, nest)
    else:
        _move_rows(second, in_row)
    module_block = first.kernel.parent_block()
    assert module_block is not None
    module_block.insert_op_before(kernel, first.kernel)
    first.kernel.detach()
    first.kernel.erase()
    second.kernel.detach()
    second.kernel.erase()
    launch = LaunchOp(kernel.sym_name.data, arguments, b.stream)
    host = b.parent_block()
    assert host is not None
    host.insert_op_before(launch, b)
    for old in (a, b):
        old.detach()
        old.erase()
    return kernel, launch


def fuse_launches(block: Block, kernels: dict[str, KernelOp], once: set[str]) -> None:
    """Fuse runs of launches in one host block, each into the one before.
    Each kernel is looked at as a `RowKernel` once (`rows`), not once per
    launch pair it is in; again only after a fusion changed it."""
    previous: LaunchOp | None = None
    rows: dict[str, RowKernel | None] = {}
    for op in list(block.ops):
        if not isinstance(op, LaunchOp):
            if not isinstance(op, BETWEEN_LAUNCHES):
                previous = None
            continue
        if previous is not None:
            names = [previous.kernel.string_value(), op.kernel.string_value()]
            if all(n in once and n in kernels for n in names):
                for name in names:
                    if name not in rows:
                        rows[name] = row_kernel(kernels[name])
                first, second = (rows[n] for n in names)
                if first and second and fusible(first, second, previous, op):
                    kernels[names[0]], op = fuse(first, second, previous, op)
                    del kernels[names[1]], rows[names[0]], rows[names[1]]
        previous = op


@dataclass(frozen=True)
class FuseKernelsPass(ModulePass):
    name = "fuse-kernels"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        kernels = {
            k.sym_name.data: k for k in op.body.block.ops if isinstance(k, KernelOp)
        }
        launches = launches_by_kernel(op)
        once = {name for name, found in launches.items() if len(found) == 1}
        host_blocks = {
            launch.parent_block() for found in launches.values() for launch in found
        }
        for block in host_blocks:
            if block is not None:
                fuse_launches(block, kernels, once)

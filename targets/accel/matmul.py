"""Which kernels run on XA-1's matrix unit: a matrix product at the loop
level (`C[i, j] = epilogue(sum over k of A[i, k] * B[k, j])`, the sum a
`loop.for` from +0.0 in k's order, as `hlo-to-loop` writes `dot_general`;
B may be read transposed, `B[j, k]`, as a gradient's product reads it)
whose M is a multiple of two of the unit's 16x16 tiles (row blocks
alternate between two slots; K is padded to 16 with zeros in the
scratchpad), and the blocking that fits the
scratchpad (`matrix_unit.py` emits the code). N need not be: the last
block of columns is padded in the scratchpad, its padding computed and
never stored.

The epilogue is what the fusion computes from the sum before the store:
f32 arithmetic on it, constants, and rows of 1-D buffers indexed by the
column (a bias), which are staged whole. `mmac` adds each rounded product
in k's order (manual section 4.10), so the unit gives the loop's sums bit
for bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, FloatAttr, MemRefType
from xdsl.ir import Operation, SSAValue
from xlir.dialects.loop.kernel import KernelOp, ReturnOp
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.targets.accel.layout import aligned, staged_bytes

TILE = 16
"""The matrix unit's tile edge (manual section 4.10)."""
ACCUMULATORS = 4
EPILOGUE_OPS = (
    arith.AddfOp,
    arith.SubfOp,
    arith.MulfOp,
    arith.DivfOp,
    arith.MaximumfOp,
    arith.MinimumfOp,
)


@dataclass(frozen=True)
class MatmulPlan:
    """A matrix product kernel and its blocking: C is computed in blocks of
    16 rows by `width` columns (one accumulator per 16 columns); a panel of
    B (all K rows of the block's columns) stays in the scratchpad while the
    16-row panels of A stream past it, each buffer double-buffered."""

    a: int
    b: int
    c: int
    """Argument indices of the operands and the result."""
    m: int
    n: int
    k: int
    width: int
    batch: int
    """Products of the same shapes one after another (a batch dimension
    first in A, B and C), 1 if none."""
    transposed: bool
    """B is read as B[j, k] (N x K): its panels load a column of the panel
    per descriptor, K rows of one element each (a transposing DMA)."""
    epilogue: tuple[Operation, ...]
    """The ops between the sum and the store, in order."""
    result: SSAValue
    """The value stored (the sum, or the epilogue's last value)."""
    accumulator: SSAValue
    """The sum (the `loop.for`'s result)."""
    columns: SSAValue
    rows: SSAValue
    """The nest's induction variables (i, j)."""


def _is_positive_zero(value: SSAValue) -> bool:
    owner = value.owner
    return (
        isinstance(owner, arith.ConstantOp)
        and isinstance(owner.value, FloatAttr)
        and owner.value.value.data == 0.0
        and math.copysign(1.0, owner.value.value.data) > 0
    )


def _product(
    loop: ForOp, i: SSAValue, j: SSAValue, batch: tuple[SSAValue, ...]
) -> tuple[SSAValue, SSAValue, bool] | None:
    """(A, B, whether B is transposed) if `loop`'s body is `acc + A[*batch,
    i, k] * B[*batch, k, j]` (or `B[*batch, j, k]`)."""
    ops = list(loop.block.ops)
    if len(ops) != 5 or not isinstance(ops[-1], YieldOp):
        return None
    first, second, multiply, add, yielded = ops
    k = loop.induction_var
    acc = loop.carried[0]
    if not (
        isinstance(first, LoadOp)
        and isinstance(second, LoadOp)
        and isinstance(multiply, arith.MulfOp)
        and isinstance(add, arith.AddfOp)
        and set(multiply.operands) == {first.result, second.result}
        and set(add.operands) == {acc, multiply.result}
        and list(yielded.operands) == [add.result]
    ):
        return None
    loads = {tuple(first.indices): first.buffer, tuple(second.indices): second.buffer}
    if (*batch, i, k) not in loads:
        return None
    for b_indices, transposed in (((*batch, k, j), False), ((*batch, j, k), True)):
        if b_indices in loads:
            return loads[(*batch, i, k)], loads[b_indices], transposed
    return None


def _epilogue_fits(
    ops: list[Operation], accumulator: SSAValue, j: SSAValue, n: int
) -> bool:
    """Whether the epilogue is f32 arithmetic on the sum, constants defined
    outside and loads of 1-D buffers of n elements at column j."""
    known = {accumulator}
    for op in ops:
        if isinstance(op, LoadOp):
            type_ = op.buffer.type
            if not (
                list(op.indices) == [j]
                and isinstance(type_, MemRefType)
                and type_.get_shape() == (n,)
                and isinstance(type_.element_type, Float32Type)
            ):
                return False
        elif isinstance(op, EPILOGUE_OPS):
            for operand in op.operands:
                if operand not in known and not isinstance(
                    operand.owner, arith.ConstantOp
                ):
                    return False
        else:
            return False
        known |= set(op.results)
    return True


def matmul_plan(kernel: KernelOp, capacity: int) -> MatmulPlan | None:
    """The plan of `kernel` if the matrix unit can compute it within
    `capacity` bytes of scratchpad (module docstring)."""
    ops = [op for op in kernel.body.block.ops if not isinstance(op, ReturnOp)]
    nests = [op for op in ops if isinstance(op, ParallelOp)]
    if len(nests) != 1 or any(
        op.regions or not isinstance(op, arith.ConstantOp)
        for op in ops
        if op is not nests[0]
    ):
        return None
    nest = nests[0]
    dimensions = len(nest.block.args)
    if dimensions not in (2, 3) or set(nest.lower_bounds) != {0}:
        return None
    *batches, m, n = nest.upper_bounds
    if not all(isinstance(v, int) for v in (*batches, m, n)) or set(nest.steps) != {1}:
        return None
    assert isinstance(m, int) and isinstance(n, int)
    batch = batches[0] if batches else 1
    assert isinstance(batch, int)
    *prefix, i, j = nest.block.args
    body = list(nest.block.ops)
    if len(body) < 3 or not isinstance(body[0], ForOp):
        return None
    loop, *epilogue, store, _ = body
    assert isinstance(loop, ForOp)
    k = loop.upper
    if (
        loop.lower != 0
        or not isinstance(k, int)
        or loop.step != 1
        or len(loop.iter_args) != 1
        or not _is_positive_zero(loop.iter_args[0])
        or not isinstance(store, StoreOp)
        or list(store.indices) != [*prefix, i, j]
    ):
        return None
    product = _product(loop, i, j, tuple(prefix))
    if product is None or not _epilogue_fits(epilogue, loop.results[0], j, n):
        return None
    *operands, transposed = product
    args: list[SSAValue] = list(kernel.body.block.args)
    if not all(v in args for v in (*operands, store.buffer)):
        return None
    a, b, c = (args.index(v) for v in (*operands, store.buffer))
    outer = tuple(batches)
    b_shape = (*outer, n, k) if transposed else (*outer, k, n)
    shapes = {a: (*outer, m, k), b: b_shape, c: (*outer, m, n)}
    for index, shape in shapes.items():
        type_ = args[index].type
        if not (
            isinstance(type_, MemRefType)
            and type_.get_shape() == shape
            and isinstance(type_.element_type, Float32Type)
        ):
            return None
    if m % (2 * TILE):
        return None
    others = [
        arg.type
        for index, arg in enumerate(args)
        if index not in shapes and isinstance(arg.type, MemRefType)
    ]
    if any(not isinstance(t.element_type, Float32Type) for t in others):  # pyright: ignore[reportAttributeAccessIssue]
        return None  # staged raw, as f32 words
    depth = -(-k // TILE) * TILE  # K padded to the unit's tiles
    for width in (TILE * ACCUMULATORS, TILE * 2, TILE):
        panels = (
            aligned(4 * depth * width)
            + aligned(4 * TILE * depth)
            + aligned(4 * TILE * width)
        )
        if (
            width <= -(-n // TILE) * TILE
            and 2 * panels + staged_bytes(others) <= capacity
        ):  # pyright: ignore[reportArgumentType]
            return MatmulPlan(
                a, b, c, m, n, k, width, batch, transposed, tuple(epilogue),
                store.value, loop.results[0], j, i,
            )  # fmt: skip
    return None

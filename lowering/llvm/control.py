"""Structured control flow as blocks and branches.

`loop.parallel` becomes, unless the target's emitter lowers it otherwise
(`LLVMEmitter.lower_parallel`: the cpu target's threads), one counted loop per
dimension, outermost first (the iterations run in order; LLVM's vectorizer
takes the innermost),
`loop.for` one loop whose block arguments carry the iteration values,
`scf.while` a test block and a body block, and `scf.index_switch` a chain of
comparisons. A loop is a header block (`iv < upper` or exit) and a body that
branches back with `iv + step`; LLVM rotates and optimizes it. A
`loop.parallel` marked `{interleave = N}` by `interleave` gets
`INTERLEAVE_COUNT` on its innermost loop's back edge, which the translation
to LLVM IR makes `llvm.loop.interleave.count` metadata. A plain copy or
fill loops only outside its contiguous runs, each one call
(`block_transfers`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerAttr, i32, i64
from xdsl.ir import Block, Operation, SSAValue
from xlir.analysis.loop_utils import bounds_of, static_trip_count
from xlir.dialects.loop.loops import INTERLEAVE, ForOp, ParallelOp
from xlir.lowering.llvm.block_transfers import block_transfer, lower_block_transfer
from xlir.lowering.llvm.function import EQ, SLT, FunctionBuilder, llvm_type

INTERLEAVE_COUNT = "xlir.interleave_count"
"""The attribute (`N : i32`) on a loop's back-edge `llvm.br` that asks LLVM's
vectorizer to interleave N iterations (xDSL's llvm dialect has no loop
annotations)."""

Bounds = tuple[SSAValue, SSAValue, SSAValue]
"""Lower bound, upper bound and step of one loop, as values of the new function."""


def bound_value(b: FunctionBuilder, bound: int | SSAValue) -> SSAValue:
    """A loop-level bound (static, or an old `index` value) as a new value."""
    return b.const(bound) if isinstance(bound, int) else b.get(bound)


def loop_bounds(b: FunctionBuilder, op: ParallelOp) -> list[Bounds]:
    """The bounds of each dimension of `op`, as new values."""
    return [
        (bound_value(b, lower), bound_value(b, upper), bound_value(b, step))
        for lower, upper, step in zip(
            op.lower_bounds, op.upper_bounds, op.steps, strict=True
        )
    ]


def counted_loop(
    b: FunctionBuilder,
    bounds: Bounds,
    carried: Sequence[SSAValue],
    body: Callable[[SSAValue, list[SSAValue]], list[SSAValue]],
    interleave: int | None = None,
) -> list[SSAValue]:
    """for iv in [lower, upper) by step, carrying `carried` (new values):
    `body(iv, values)` fills the body and returns the next values. Returns the
    values after the loop; `b.block` is then the exit block. `interleave`
    goes on the back edge (`INTERLEAVE_COUNT`)."""
    lower, upper, step = bounds
    types = [v.type for v in carried]
    header = b.new_block([i64, *types])
    b.branch(header, lower, *carried)
    b.block = header
    iv, *values = header.args
    test = b.icmp(iv, upper, SLT)
    body_block = b.new_block()
    exit_block = b.new_block(types)
    b.cond_branch(test, body_block, [], exit_block, list(values))
    b.block = body_block
    next_values = body(iv, list(values))
    b.branch(header, b.add(iv, step), *next_values)
    if interleave is not None:
        back_edge = b.block.last_op
        assert back_edge is not None
        back_edge.attributes[INTERLEAVE_COUNT] = IntegerAttr(interleave, i32)
    b.block = exit_block
    return list(exit_block.args)


def lower_parallel_in_order(b: FunctionBuilder, op: Operation) -> None:
    """`op`'s iterations one after the other, on one thread (a `{threads}`
    mark is a hint: running in order is one valid schedule)."""
    assert isinstance(op, ParallelOp)
    parallel_nest(b, op, loop_bounds(b, op), single_iteration_dims(op))


def single_iteration_dims(op: ParallelOp) -> frozenset[int]:
    """The dimensions of `op` with static bounds and one iteration."""
    return frozenset(
        d for d, bounds in enumerate(bounds_of(op)) if static_trip_count(*bounds) == 1
    )


def parallel_nest(
    b: FunctionBuilder,
    op: ParallelOp,
    dims: list[Bounds],
    single: frozenset[int] = frozenset(),
    split: frozenset[int] = frozenset(),
) -> None:
    """The loops of `op` over `dims` (new values), outermost first, around
    its body; the innermost loop carries `op`'s interleave hint. A
    dimension in `single` runs once, at its lower bound: no loop (a batch
    of one, a pad's one-column border), which LLVM would otherwise make and
    then delete. A plain copy or fill loops only outside its contiguous
    runs, one call each (`block_transfers`); a dimension in `split` (whose
    `dims` cover only part of `op`'s range: a threaded chunk's first) is
    never part of a run."""
    ivs = op.induction_vars
    mark = op.attributes.get(INTERLEAVE)
    interleave = mark.value.data if isinstance(mark, IntegerAttr) else None
    transfer = block_transfer(op, single, split)
    if transfer is not None:
        single, interleave = single | transfer.merged, None
    looped = [d for d in range(len(dims)) if d not in single]

    def nest(depth: int) -> None:
        if depth == len(dims):
            if transfer is None:
                b.lower_block(op.block)
            else:
                lower_block_transfer(b, transfer)
            return
        if depth in single:
            b.bind(ivs[depth], dims[depth][0])
            nest(depth + 1)
            return

        def body(iv: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            b.bind(ivs[depth], iv)
            nest(depth + 1)
            return []

        innermost = depth == looped[-1]
        counted_loop(b, dims[depth], [], body, interleave if innermost else None)

    nest(0)


def lower_for(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, ForOp)
    block = op.body.block
    inits = [b.get(v) for v in op.iter_args]

    def body(iv: SSAValue, values: list[SSAValue]) -> list[SSAValue]:
        b.bind(block.args[0], iv)
        for arg, value in zip(block.args[1:], values, strict=True):
            b.bind(arg, value)
        b.lower_block(block)
        terminator = block.last_op
        assert terminator is not None
        return [b.get(v) for v in terminator.operands]

    bounds = (
        bound_value(b, op.lower),
        bound_value(b, op.upper),
        bound_value(b, op.step),
    )
    results = counted_loop(b, bounds, inits, body)
    for old, new in zip(op.results, results, strict=True):
        b.bind(old, new)


def lower_while(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, scf.WhileOp)
    before, after = op.before_region.block, op.after_region.block
    types = [llvm_type(v.type, op) for v in op.arguments]
    test = b.new_block(types)
    b.branch(test, *[b.get(v) for v in op.arguments])
    b.block = test
    for arg, new in zip(before.args, test.args, strict=True):
        b.bind(arg, new)
    b.lower_block(before)
    condition = before.last_op
    assert isinstance(condition, scf.ConditionOp)
    passed = [b.get(v) for v in condition.args]
    body = b.new_block([v.type for v in passed])
    exit_block = b.new_block([v.type for v in passed])
    b.cond_branch(b.get(condition.condition), body, passed, exit_block, passed)
    b.block = body
    for arg, new in zip(after.args, body.args, strict=True):
        b.bind(arg, new)
    b.lower_block(after)
    yielded = after.last_op
    assert yielded is not None
    b.branch(test, *[b.get(v) for v in yielded.operands])
    b.block = exit_block
    for old, new in zip(op.results, exit_block.args, strict=True):
        b.bind(old, new)


def lower_index_switch(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, scf.IndexSwitchOp)
    index = b.get(op.arg)
    types = [llvm_type(r.type, op) for r in op.results]
    merge = Block(arg_types=types)
    regions = [*op.case_regions, op.default_region]
    for position, region in enumerate(regions):
        is_default = position == len(op.case_regions)
        case_block = b.new_block()
        if is_default:
            b.branch(case_block)
        else:
            value = op.cases.get_values()[position]
            equal = b.icmp(index, b.const(value), EQ)
            next_test = b.new_block()
            b.cond_branch(equal, case_block, [], next_test, [])
        b.block = case_block
        b.lower_block(region.block)
        yielded = region.block.last_op
        assert yielded is not None
        b.branch(merge, *[b.get(v) for v in yielded.operands])
        if not is_default:
            b.block = next_test  # pyright: ignore[reportPossiblyUnboundVariable]
    b.region.add_block(merge)
    b.block = merge
    for old, new in zip(op.results, merge.args, strict=True):
        b.bind(old, new)


def lower_if(b: FunctionBuilder, op: Operation) -> None:
    assert isinstance(op, scf.IfOp)
    types = [llvm_type(r.type, op) for r in op.results]
    then_block, else_block = b.new_block(), b.new_block()
    merge = Block(arg_types=types)
    b.cond_branch(b.get(op.cond), then_block, [], else_block, [])
    for block, region in ((then_block, op.true_region), (else_block, op.false_region)):
        b.block = block
        if region.blocks:
            b.lower_block(region.block)
            yielded = region.block.last_op
            values = [b.get(v) for v in yielded.operands] if yielded else []
        else:
            values = []
        b.branch(merge, *values)
    b.region.add_block(merge)
    b.block = merge
    for old, new in zip(op.results, merge.args, strict=True):
        b.bind(old, new)


CONTROL = {
    "loop.for": lower_for,
    "scf.while": lower_while,
    "scf.index_switch": lower_index_switch,
    "scf.if": lower_if,
}
"""Op name -> its lowering to blocks (`loop.parallel` is the emitter's)."""

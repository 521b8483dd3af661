"""A `loop.parallel` marked `{threads = N : i64}` split across threads: the
cpu target's `loop.parallel` (`llvm_lowering.CpuEmitter`).

`parallelize` marks a kernel's outermost parallel loops worth threads; here
the iterations of the first dimension, numbered 0 to n - 1, are handed to
a thread pool in ranges. For a loop in function `@K`:

* `void K.chunkI(live-ins..., i64 begin, i64 end)` (internal, `noinline`:
  compiled once for all threads): the loop nest over iterations [begin,
  end) of dimension 0 and all of the other dimensions. Its live-ins (values
  the loop uses but defines outside: buffer pointers, indices, scalars,
  dynamic bounds) are arguments, so a buffer `K` takes `noalias` is
  `noalias` here too; constants and global addresses are made again
  inside, so LLVM still folds and vectorizes with them.
* `void K.chunkI.grain(ptr ctx, i64 begin, i64 end)` (internal): loads the
  live-ins from the context (one 8-byte slot per value on the launcher's
  stack) and calls the chunk on [begin, end).
* in place of the loop: fill the context, then `xlir.parallel_for(
  K.chunkI.grain, ctx, n, N)`, which runs the grain entry over ranges
  covering [0, n) on at most N threads (0: one per online CPU), the calling
  one among them, and returns when all are done.

The module only declares `xlir.parallel_for`: its definition, a thread
pool, is LLVM IR built apart (targets/cpu/thread_pool.py), which the CPU
JIT compiles once per process and `thread_runtime.define_runtime` adds
to an ahead-of-time module. The launcher's code is a few stores and one call,
with no loop, so LLVM spends its time on the chunk.
"""

from __future__ import annotations

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import IntegerAttr, UnitAttr, i64
from xdsl.ir import Attribute, Block, IRNode, Operation, Region, SSAValue
from xlir.analysis.loop_utils import static_trip_count
from xlir.dialects.loop.globals import GetGlobalOp
from xlir.dialects.loop.loops import THREADS, ParallelOp
from xlir.lowering.llvm.control import (
    bound_value,
    loop_bounds,
    parallel_nest,
    single_iteration_dims,
)
from xlir.lowering.llvm.function import (
    PTR,
    FunctionBuilder,
    function_type,
    is_noalias,
    noalias_attributes,
)

from xlir.walk import walk

PARALLEL_FOR = "xlir.parallel_for"
"""`void (ptr grain, ptr ctx, i64 n, i64 threads)`: the thread pool's entry."""


def lower_threaded(b: FunctionBuilder, op: ParallelOp) -> None:
    """The loop as grains of a thread pool (module docstring)."""
    threads = op.attributes[THREADS]
    assert isinstance(threads, IntegerAttr)
    live_ins = _facts(b, op)[1]
    passed = [v for v in live_ins if _remade(v) is None]
    remade = [owner for v in live_ins if (owner := _remade(v)) is not None]
    values = [b.get(v) for v in passed]
    types = [v.type for v in values]
    # With bounds checks each nest keeps its own chunk: their messages name
    # the op's source location, which equal nests do not share.
    alike = (
        []
        if b.module.bounds_check
        else b.module.outlined.setdefault(_shape_key(b, op), [])
    )
    grain = _outlined_alike(op, live_ins, alike)
    if grain is None:
        grain = _grain_entry(b, _chunk(b, op, passed, remade), types)
        alike.append((op, live_ins, grain))

    context = _struct(types)
    ctx = _stack(b, context)
    for index, value in enumerate(values):
        _store(b, value, ctx, context, index)
    b.module.declare(PARALLEL_FOR, [PTR, PTR, i64, i64], llvm.LLVMVoidType())
    b.call(
        PARALLEL_FOR,
        [b.address_of(grain), ctx, _trip_count(b, op), b.const(threads.value.data)],
    )


def lower_shared(b: FunctionBuilder, op: ParallelOp) -> bool:
    """In code without threads, a loop nest (in no other `loop.parallel`)
    equal to a sibling nest, given each one's live-ins in order (a sort's
    merge passes, results to scratch and back), as a direct call of a chunk
    they share over all iterations, so that LLVM compiles the nest once;
    whether it did (a nest with no twin is left to the caller). Not with
    bounds checks, as for threaded loops."""
    if b.module.bounds_check or _in_parallel(op) or not _has_twin(b, op):
        return False
    live_ins = _facts(b, op)[1]
    passed = [v for v in live_ins if _remade(v) is None]
    remade = [owner for v in live_ins if (owner := _remade(v)) is not None]
    alike = b.module.outlined.setdefault(_shape_key(b, op), [])
    chunk = _outlined_alike(op, live_ins, alike)
    if chunk is None:
        chunk = _chunk(b, op, passed, remade)
        alike.append((op, live_ins, chunk))
    b.call(chunk, [*(b.get(v) for v in passed), b.const(0), _trip_count(b, op)])
    return True


def _in_parallel(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ParallelOp):
        parent = parent.parent_op()
    return parent is not None


def _has_twin(b: FunctionBuilder, op: ParallelOp) -> bool:
    """Whether another nest of `op`'s block is equal to it given the two
    nests' live-ins in order (same loop-level types, same remade ops)."""
    block = op.parent
    if block is None:
        return False
    size, live_ins = _facts(b, op)
    for other in block.ops:
        if other is op or not isinstance(other, ParallelOp):
            continue
        other_size, other_ins = _facts(b, other)
        if (
            other_size != size
            or len(other_ins) != len(live_ins)
            or not all(map(_same_live_in, live_ins, other_ins))
        ):
            continue
        context: dict[IRNode | SSAValue, IRNode | SSAValue] = dict(
            zip(live_ins, other_ins, strict=True)
        )
        context[block] = block
        if op.is_structurally_equivalent(other, context):
            return True
    return False


def _facts(b: FunctionBuilder, op: ParallelOp) -> tuple[int, list[SSAValue]]:
    """The nest's op count and live-ins (found once a lowering, in one walk)."""
    if op not in b.module.nest_facts:
        nested = list(walk(op))
        b.module.nest_facts[op] = (len(nested), _live_ins(nested))
    return b.module.nest_facts[op]


def _same_live_in(a: SSAValue, b: SSAValue) -> bool:
    remade_a, remade_b = _remade(a), _remade(b)
    if remade_a is None or remade_b is None:
        return remade_a is remade_b and a.type == b.type
    return remade_a.name == remade_b.name and remade_a.properties == remade_b.properties


def _live_ins(nested: list[Operation]) -> list[SSAValue]:
    """Values the ops `nested` (a nest's walk: bounds included) use but
    define outside, in order. What they define is gathered first: asking
    each use's owner whether the nest is its ancestor climbs the nest once
    per use."""
    defined: set[SSAValue] = set()
    for inner in nested:
        defined.update(inner.results)
        for region in inner.regions:
            for block in region.blocks:
                defined.update(block.args)
    found: dict[SSAValue, None] = {}
    for inner in nested:
        for value in inner.operands:
            if value not in defined:
                found.setdefault(value)
    return list(found)


def _shape_key(b: FunctionBuilder, op: ParallelOp) -> object:
    """What equal nests share: their op count, and each live-in's type and
    `noalias` as passed, or the op that makes it again."""
    size, live_ins = _facts(b, op)
    ins = tuple(
        (owner.name, tuple(owner.properties.items()), v.type)
        if (owner := _remade(v)) is not None
        else (b.get(v).type, is_noalias(b.get(v)))
        for v in live_ins
    )
    return (size, ins)


def _outlined_alike(
    op: ParallelOp,
    live_ins: list[SSAValue],
    alike: list[tuple[Operation, list[SSAValue], str]],
) -> str | None:
    """The grain entry of a nest of `alike` (outlined before, of the same
    shape key) that is equal to `op` given its live-ins in order (the same
    ops on the same arguments: a sort's merge passes, results to scratch and
    back), or None. Equal nests share one chunk, which LLVM compiles once."""
    for other, other_ins, grain in alike:
        context: dict[IRNode | SSAValue, IRNode | SSAValue] = dict(
            zip(live_ins, other_ins, strict=True)
        )
        if op.parent is not None and other.parent is not None:
            context[op.parent] = other.parent
        if op.is_structurally_equivalent(other, context):
            return grain
    return None


def _remade(value: SSAValue) -> Operation | None:
    """The op that makes a live-in again in the chunk (a constant, a global's
    address) rather than passing it; None to pass it."""
    owner = value.owner
    return owner if isinstance(owner, arith.ConstantOp | GetGlobalOp) else None


def _new_function(
    b: FunctionBuilder,
    name: str,
    inputs: list[Attribute],
    output: Attribute,
    inline: bool = True,
) -> FunctionBuilder:
    """An internal function of the module, to fill; its builder. Not
    `inline`: LLVM keeps it a call (`noinline`)."""
    region = Region(Block(arg_types=inputs))
    function = llvm.FuncOp(
        name,
        function_type(tuple(inputs), output),
        linkage=llvm.LinkageAttr("internal"),
        body=region,
    )
    if not inline:
        function.no_inline = UnitAttr()
    b.module.define(function)
    return FunctionBuilder(region, b.module, b.emitter, b.lower_op)


def _chunk(
    b: FunctionBuilder, op: ParallelOp, passed: list[SSAValue], remade: list[Operation]
) -> str:
    """`void chunk(live-ins..., i64 begin, i64 end)`: the loop over iterations
    [begin, end) of dimension 0; its name. The live-ins are arguments, so a
    buffer the kernel has `noalias` keeps it here, which pointers loaded
    from a context cannot. `noinline`: LLVM optimizes and vectorizes it as
    itself, while its caller, the grain entry (straight code), is left
    unoptimized."""
    function = b.region.parent_op()
    assert isinstance(function, llvm.FuncOp)
    number = 0
    while f"{function.sym_name.data}.chunk{number}" in b.module.declared:
        number += 1
    name = f"{function.sym_name.data}.chunk{number}"
    types = [b.get(v).type for v in passed]
    c = _new_function(b, name, [*types, i64, i64], llvm.LLVMVoidType(), inline=False)
    chunk = c.region.parent_op()
    assert isinstance(chunk, llvm.FuncOp)
    chunk.arg_attrs = noalias_attributes(
        [is_noalias(b.get(v)) for v in passed] + [False, False]
    )
    *values, begin, end = c.region.blocks[0].args
    for value, argument in zip(passed, values, strict=True):
        c.bind(value, argument)
    for owner in remade:
        c.run(owner)
    dims = loop_bounds(c, op)
    lower, _, step = dims[0]
    dims[0] = (c.add(lower, c.mul(begin, step)), c.add(lower, c.mul(end, step)), step)
    parallel_nest(c, op, dims, single_iteration_dims(op) - {0}, frozenset({0}))
    c.emit(llvm.ReturnOp())
    return name


def _grain_entry(b: FunctionBuilder, chunk: str, types: list[Attribute]) -> str:
    """`void grain(ptr ctx, i64 begin, i64 end)`: the live-ins from the
    context, then the chunk on [begin, end); its name."""
    name = f"{chunk}.grain"
    g = _new_function(b, name, [PTR, i64, i64], llvm.LLVMVoidType())
    ctx, begin, end = g.region.blocks[0].args
    context = _struct(types)
    values = [_load(g, ctx, context, n, type_) for n, type_ in enumerate(types)]
    g.call(chunk, [*values, begin, end])
    g.emit(llvm.ReturnOp())
    return name


def _trip_count(b: FunctionBuilder, op: ParallelOp) -> SSAValue:
    """Iterations of dimension 0: ceil((upper - lower) / step), at least 0."""
    lower, upper, step = op.lower_bounds[0], op.upper_bounds[0], op.steps[0]
    static = static_trip_count(lower, upper, step)
    if static is not None:
        return b.const(static)
    low, high, by = (bound_value(b, x) for x in (lower, upper, step))
    span = b.emit(llvm.SubOp(high, low))
    rounded = b.add(span, b.emit(llvm.SubOp(by, b.const(1))))
    count = b.emit(llvm.SDivOp(rounded, by))
    return b.intrinsic("llvm.smax.i64", [count, b.const(0)], i64)


def _stack(b: FunctionBuilder, type_: Attribute) -> SSAValue:
    """One `type_` on the stack, allocated in the entry block (once per call
    of the function, not per loop iteration)."""
    one = b.const(1)
    alloca = llvm.AllocaOp(one, type_, alignment=8)
    entry = b.region.blocks[0]
    entry.insert_op_after(alloca, one.owner)  # pyright: ignore[reportArgumentType]
    return alloca.res


def _struct(types: list[Attribute]) -> llvm.LLVMStructType:
    """A struct of fields of these types, pointers held as i64 (`_field`)."""
    return llvm.LLVMStructType.from_type_list([i64 if t == PTR else t for t in types])


def _field(
    b: FunctionBuilder, base: SSAValue, struct: llvm.LLVMStructType, index: int
) -> SSAValue:
    """The address of field `index` of the struct at `base`. xDSL's
    translation gives a getelementptr llvmlite's typed pointer to its element
    type: a field after i64 fields only is the index-th i64 from `base`, one
    getelementptr of i64s; any other takes a second one, of offset 0, to
    retype the field's address for its load or store (LLVM folds it).
    llvmlite cannot retype an address to hold a pointer (it takes the two
    pointer types for equal), so pointer fields are i64 (ptrtoint/inttoptr)."""
    fields = struct.types.data
    if all(type_ == i64 for type_ in fields[: index + 1]):
        return b.gep(base, (index,), i64)
    address = b.gep(base, (0, index), struct)
    return b.gep(address, (0,), fields[index])


def _store(
    b: FunctionBuilder,
    value: SSAValue,
    base: SSAValue,
    struct: llvm.LLVMStructType,
    index: int,
) -> None:
    if value.type == PTR:
        value = b.convert(llvm.PtrToIntOp, value, i64)
    b.store(value, _field(b, base, struct, index))


def _load(
    b: FunctionBuilder,
    base: SSAValue,
    struct: llvm.LLVMStructType,
    index: int,
    type_: Attribute = i64,
) -> SSAValue:
    """Field `index` as a value of `type_` (i64 by default)."""
    value = b.load(_field(b, base, struct, index), struct.types.data[index])
    if type_ != PTR:
        return value
    return b.emit_alike(llvm.IntToPtrOp, lambda: llvm.IntToPtrOp(value), [value], [PTR])

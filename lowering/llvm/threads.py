"""A `loop.parallel` marked `{threads = N : i64}` split across POSIX threads.

`parallelize` marks a kernel's outermost parallel loops worth threads; here
the iterations of the first dimension, numbered 0 to n - 1, are split into
ranges run on several threads. For a loop in function `@K`:

* `void K.chunkI(live-ins..., i64 begin, i64 end)` (internal, `noinline`:
  compiled once for all threads): the loop nest over iterations [begin,
  end) of dimension 0 and all of the other dimensions. Its live-ins (values
  the loop uses but defines outside: buffer pointers, indices, scalars,
  dynamic bounds) are arguments, so a buffer `K` takes `noalias` is
  `noalias` here too; constants and global addresses are made again
  inside, so LLVM still folds and vectorizes with them.
* `ptr K.chunkI.thread(ptr task)` (internal): what `pthread_create` starts;
  it loads the live-ins from the task's context (one 8-byte slot per value
  on the launcher's stack) and calls the chunk on the task's range.
* in place of the loop: fill the context, `t = xlir.spawn_chunks(
  K.chunkI.thread, ctx, tasks, n, threads, capacity)`, call the chunk on
  the calling thread's share [0, end of task 0), then `xlir.join_chunks(
  tasks, t)`.

The two helpers, `noinline optnone`, are built once per process and copied
into each module that launches threads: a few instructions per launch,
which LLVM would otherwise inline at every launch and vectorize (the
task-filling loop into scatters). With `loop-to-llvm{thread-helpers=
extern}` the module only declares them, and whoever loads its object links
them in: the CPU JIT compiles `helpers_module()` once per process
(`targets/cpu/thread_runtime.py`), so a threaded program's compile no
longer translates and optimizes ~90 ops of helpers each time.

`spawn_chunks` takes t = min(threads, n, capacity), at least 1, splits [0,
n) into t ranges whose lengths differ by at most one, and starts a thread
for each range but the first, last range first; task 0's end is then the
end of what the calling thread runs: where the lowest started range begins,
so when a `pthread_create` fails, the ranges below it (then all but those
already started) are the caller's, and the loop still runs every iteration
once. `join_chunks` joins the threads started. A task is five i64 slots
(ctx, begin, end, the `pthread_t`, started); the tasks live on the caller's
stack, `capacity` of them: N for `threads = N`, `MAX_THREADS` for `threads
= 0`, whose count is `sysconf(_SC_NPROCESSORS_ONLN)` at each launch (about
3 us; 84 is that name's value in glibc and musl, so such objects are for
Linux). The launcher's code is a handful of calls and no loop, so LLVM
spends its time on the chunk. The object code needs only `pthread_create`,
`pthread_join` and `sysconf` from the C library (and, with external
helpers, the object that defines them).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, UnitAttr, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xlir.dialects.loop.globals import GetGlobalOp
from xlir.dialects.loop.loops import THREADS, ParallelOp
from xlir.lowering.llvm.control import (
    bound_value,
    counted_loop,
    loop_bounds,
    parallel_nest,
    single_iteration_dims,
)
from xlir.lowering.llvm.function import (
    EQ,
    NE,
    PTR,
    SLT,
    FunctionBuilder,
    ModuleSymbols,
    integer_constant,
    is_noalias,
    noalias_attributes,
)
from xlir.passes.loop_utils import static_trip_count

CTX, BEGIN, END, HANDLE, STARTED = range(5)
"""The fields of a task (the context pointer is held as an integer: see
`_field`)."""
TASK = llvm.LLVMStructType.from_type_list([i64] * 5)

MAX_THREADS = 64
"""Tasks on the stack for `threads = 0`: at most this many threads."""

NPROCESSORS_ONLN = 84
"""`_SC_NPROCESSORS_ONLN` in glibc and musl."""

SPAWN = "xlir.spawn_chunks"
JOIN = "xlir.join_chunks"
HELPERS = (SPAWN, JOIN)
I32 = IntegerType(32)


def lower_threaded(b: FunctionBuilder, op: ParallelOp) -> None:
    """The loop as chunks on threads (module docstring)."""
    threads = op.attributes[THREADS]
    assert isinstance(threads, IntegerAttr)
    live_ins = _live_ins(op)
    passed = [v for v in live_ins if _remade(v) is None]
    remade = [owner for v in live_ins if (owner := _remade(v)) is not None]
    values = [b.get(v) for v in passed]
    types = [v.type for v in values]
    chunk = _chunk(b, op, passed, remade)
    thread = _thread_entry(b, chunk, types)

    context = _struct(types)
    ctx = _stack(b, context)
    for index, value in enumerate(values):
        _store(b, value, ctx, context, index)
    requested = threads.value.data
    capacity = requested or MAX_THREADS
    tasks = _stack(b, llvm.LLVMArrayType(capacity, TASK))
    if requested:
        wanted = b.const(requested)
    else:
        b.module.declare("sysconf", [I32], i64)
        wanted = b.emit(
            llvm.CallOp("sysconf", b.const(NPROCESSORS_ONLN, I32), return_type=i64)
        )
    task_count = b.emit(
        llvm.CallOp(
            _add_helper(b, SPAWN),
            b.emit(llvm.AddressOfOp(thread, PTR)),
            ctx,
            tasks,
            _trip_count(b, op),
            wanted,
            b.const(capacity),
            return_type=i64,
        )
    )
    share = _load(b, _task(b, tasks, b.const(0)), TASK, END)
    b.emit(llvm.CallOp(chunk, *values, b.const(0), share))
    b.emit(llvm.CallOp(_add_helper(b, JOIN), tasks, task_count))


def _live_ins(op: ParallelOp) -> list[SSAValue]:
    """Values `op` uses (bounds included) but defines outside, in order."""
    found: dict[SSAValue, None] = {}
    for inner in op.walk():
        for value in inner.operands:
            if not op.is_ancestor(value.owner):
                found.setdefault(value)
    return list(found)


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
    optimize: bool = True,
) -> FunctionBuilder:
    """An internal function of the module, to fill; its builder. Not
    `inline`: LLVM keeps it a call (`noinline`); not `optimize`: LLVM leaves
    it as it is (`optnone`, which needs `noinline`)."""
    region = Region(Block(arg_types=inputs))
    function = llvm.FuncOp(
        name,
        llvm.LLVMFunctionType(inputs, output),
        linkage=llvm.LinkageAttr("internal"),
        body=region,
    )
    if not inline or not optimize:
        function.no_inline = UnitAttr()
    if not optimize:
        function.optimize_none = UnitAttr()
    b.module.define(function)
    return FunctionBuilder(region, b.module, b.lower_op)


def _chunk(
    b: FunctionBuilder, op: ParallelOp, passed: list[SSAValue], remade: list[Operation]
) -> str:
    """`void chunk(live-ins..., i64 begin, i64 end)`: the loop over iterations
    [begin, end) of dimension 0; its name. The live-ins are arguments, so a
    buffer the kernel has `noalias` keeps it here, which pointers loaded
    from a context cannot. `noinline`: the calling thread's share and the
    threads' all call this one copy, which LLVM optimizes and vectorizes
    once (inlined into both callers, every kernel was compiled twice)."""
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
    parallel_nest(c, op, dims, single_iteration_dims(op) - {0})
    c.emit(llvm.ReturnOp())
    return name


def _thread_entry(b: FunctionBuilder, chunk: str, types: list[Attribute]) -> str:
    """`ptr thread(ptr task)`: the live-ins from the task's context, then the
    chunk on the task's range; its name."""
    name = f"{chunk}.thread"
    t = _new_function(b, name, [PTR], PTR)
    task = t.region.blocks[0].args[0]
    ctx = _load(t, task, TASK, CTX, PTR)
    context = _struct(types)
    values = [_load(t, ctx, context, n, type_) for n, type_ in enumerate(types)]
    begin, end = _load(t, task, TASK, BEGIN), _load(t, task, TASK, END)
    t.emit(llvm.CallOp(chunk, *values, begin, end))
    t.emit(llvm.ReturnOp(t.emit(llvm.ZeroOp(result_types=[PTR]))))
    return name


def _add_helper(b: FunctionBuilder, name: str) -> str:
    """Give the module helper `name` and the functions it declares: copies
    of those `_helper_symbols` built once per process (building them anew
    cost a threaded program's compile several milliseconds), or only its
    declaration where the module's helpers are external; its name."""
    if name in b.module.declared:
        return name
    if b.module.extern_helpers:
        type_ = _helper_symbols(name).declared[name].function_type
        return b.module.declare(name, type_.inputs.data, type_.output)
    _copy_helper(b.module.declared, name)
    return name


def _copy_helper(functions: dict[str, llvm.FuncOp], name: str) -> None:
    """Copies of helper `name` and of the functions it declares into
    `functions`, where not there yet."""
    for symbol, function in _helper_symbols(name).declared.items():
        if symbol not in functions:
            functions[symbol] = function.clone()


def helpers_module() -> ModuleOp:
    """The thread helpers, external, with what they declare: the module a
    runtime compiles once to link with modules lowered with external
    helpers."""
    functions: dict[str, llvm.FuncOp] = {}
    for name in HELPERS:
        _copy_helper(functions, name)
        functions[name].linkage = llvm.LinkageAttr("external")
    return ModuleOp(list(functions.values()))


@cache
def _helper_symbols(name: str) -> ModuleSymbols:
    """The symbols helper `name` needs, itself included, built in a module
    of their own; the lowering only ever copies them."""
    symbols = ModuleSymbols()
    builder = FunctionBuilder(Region(Block()), symbols, _no_nested_ops)
    {SPAWN: _build_spawn, JOIN: _build_join}[name](builder)
    return symbols


def _no_nested_ops(_: FunctionBuilder, op: Operation) -> None:
    raise AssertionError(f"a thread helper has no nested '{op.name}'")


def _build_spawn(b: FunctionBuilder) -> None:
    """`i64 spawn(ptr thread, ptr ctx, ptr tasks, i64 n, i64 threads, i64
    capacity)`: fill the tasks, start all but the first, last first, each
    only while all above it started; task 0 ends where the lowest started
    one begins. How many tasks."""
    s = _new_function(b, SPAWN, [PTR, PTR, PTR, i64, i64, i64], i64, optimize=False)
    thread, ctx, tasks, n, threads, capacity = s.region.blocks[0].args
    count = s.intrinsic("llvm.smin.i64", [threads, n], i64)
    count = s.intrinsic("llvm.smin.i64", [count, capacity], i64)
    count = s.intrinsic("llvm.smax.i64", [count, s.const(1)], i64)
    base = s.emit(llvm.SDivOp(n, count))
    longer = s.emit(llvm.SRemOp(n, count))

    def fill(k: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
        begin = s.add(s.mul(k, base), s.intrinsic("llvm.smin.i64", [k, longer], i64))
        extra = s.emit(llvm.ZExtOp(s.icmp(k, longer, SLT), i64))
        task = _task(s, tasks, k)
        for slot, value in (
            (CTX, ctx),
            (BEGIN, begin),
            (END, s.add(s.add(begin, base), extra)),
            (STARTED, s.const(0)),
        ):
            _store(s, value, task, TASK, slot)
        return []

    first = _task(s, tasks, s.const(0))

    def start(j: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
        task = _task(s, tasks, s.emit(llvm.SubOp(count, j)))
        above_started = s.icmp(
            _load(s, first, TASK, END), _load(s, task, TASK, END), EQ
        )
        _when(s, above_started, lambda: _start(s, thread, task, first))
        return []

    counted_loop(s, (s.const(0), count, s.const(1)), [], fill)
    _store(s, n, first, TASK, END)
    counted_loop(s, (s.const(1), count, s.const(1)), [], start)
    s.emit(llvm.ReturnOp(count))


def _start(
    s: FunctionBuilder, thread: SSAValue, task: SSAValue, first: SSAValue
) -> None:
    """Start a thread on `task`; where it started, mark it and end task 0
    where it begins."""
    s.module.declare("pthread_create", [PTR, PTR, PTR, PTR], I32)
    null = s.emit(llvm.ZeroOp(result_types=[PTR]))
    status = s.emit(
        llvm.CallOp(
            "pthread_create",
            _field(s, task, TASK, HANDLE),
            null,
            thread,
            task,
            return_type=I32,
        )
    )
    started = s.icmp(status, s.const(0, I32), EQ)

    def mark() -> None:
        _store(s, s.const(1), task, TASK, STARTED)
        _store(s, _load(s, task, TASK, BEGIN), first, TASK, END)

    _when(s, started, mark)


def _build_join(b: FunctionBuilder) -> None:
    """`void join(ptr tasks, i64 count)`: join the threads started."""
    j = _new_function(b, JOIN, [PTR, i64], llvm.LLVMVoidType(), optimize=False)
    tasks, count = j.region.blocks[0].args
    j.module.declare("pthread_join", [i64, PTR], I32)

    def join(k: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
        task = _task(j, tasks, k)
        started = j.icmp(_load(j, task, TASK, STARTED), j.const(0), NE)
        _when(
            j,
            started,
            lambda: j.emit(
                llvm.CallOp(
                    "pthread_join",
                    _load(j, task, TASK, HANDLE),
                    j.emit(llvm.ZeroOp(result_types=[PTR])),
                    return_type=I32,
                )
            ),
        )
        return []

    counted_loop(j, (j.const(1), count, j.const(1)), [], join)
    j.emit(llvm.ReturnOp())


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


def _when(b: FunctionBuilder, condition: SSAValue, then: Callable[[], object]) -> None:
    """`if (condition) then();`, continuing after it."""
    body, after = b.new_block(), b.new_block()
    b.cond_branch(condition, body, [], after, [])
    b.block = body
    then()
    b.branch(after)
    b.block = after


def _stack(b: FunctionBuilder, type_: Attribute) -> SSAValue:
    """One `type_` on the stack, allocated in the entry block (once per call
    of the function, not per loop iteration)."""
    one = b.const(1)
    alloca = llvm.AllocaOp(one, type_, alignment=8)
    entry = b.region.blocks[0]
    entry.insert_op_after(alloca, one.owner)  # pyright: ignore[reportArgumentType]
    return alloca.res


def _task(b: FunctionBuilder, tasks: SSAValue, k: SSAValue) -> SSAValue:
    if integer_constant(k) == 0:
        return tasks
    return b.gep(tasks, (llvm.GEP_USE_SSA_VAL,), TASK, [k])


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
        value = b.emit(llvm.PtrToIntOp(value, i64))
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
    return b.emit(llvm.IntToPtrOp(value)) if type_ == PTR else value

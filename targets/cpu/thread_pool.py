"""The thread pool that runs threaded loops: `xlir.parallel_for`, in LLVM IR.

`loop-to-llvm` lowers a loop marked for threads to a call
`xlir.parallel_for(grain, ctx, n, threads)` (threaded_loops.py):
run `grain(ctx, begin, end)` over ranges that together cover [0, n), on at
most `threads` threads (0: one per online CPU), the calling thread among
them, and return when all are done. This module defines that function in
an llvmlite module: the JIT compiles it once per process
(`thread_runtime.py`), an ahead-of-time object or `xlir-translate`
defines it in the module that calls it (`thread_runtime.define_runtime`). It is built
here rather than in xDSL's llvm dialect because it calls through a
function pointer and uses atomic loads and stores, which xDSL's
translation to LLVM IR does not do.

Why a pool: starting a thread per launch and joining it cost 25-35 us on
the calling thread, and much more after the caller had been busy
elsewhere (80 us: the other core had gone idle), while the kernels
waited for their threads' static shares. Here the threads are started on
the first launch that needs them and then wait for posts; a launch posts a
job and wakes them. The calling thread does not wait for them to wake: the
iterations are cut into `GRAINS_PER_THREAD` grains per thread, which every
thread takes one at a time, so a thread that wakes late takes fewer, and
the call returns once the last grain taken has finished. A pool thread
that finds no job spins a while (`SPIN`) before it sleeps on a condition
variable, so the kernels a program launches one after another find it
awake; the calling thread spins the same way for the grains still running.

Everything the threads share is under one mutex; only a grain runs
without it, and the two counters read while spinning (posts, grains
finished) are atomic. The state lives in internal globals,
zero-initialized, which is the static initializer of a `pthread_mutex_t`
and a `pthread_cond_t` in glibc and musl (Linux, as `sysconf`'s number). A
launch while the pool runs another (two host threads calling compiled
code at once) runs all of its iterations on its own thread. The object
needs only `pthread_*` and `sysconf` from the C library.

In a child forked from a process whose pool had started, the pool counts
threads it no longer has: the calling thread then takes every grain itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from llvmlite import ir
from xlir.targets.cpu.threaded_loops import PARALLEL_FOR

GRAINS_PER_THREAD = 8
"""Grains a launch's iterations are cut into, per thread: more let a
thread that wakes late leave less to the others; each costs a lock, an
unlock and a call. 2, 4, 8 and 16 ran the threaded bench programs in the
same time within the noise (4 processes each, alternating)."""

SPIN = 1 << 18
"""Checks of an atomic counter before a thread sleeps (about 60 us on the
2-core EPYC VM this was measured on): a pool thread waiting for a post, the
calling thread for the grains still running. Programs called back to back
ran 0.8-0.95x the time of a pool that sleeps at once (softmax_rows 0.82,
mlp_fwd 0.78, chain10 0.90; 5 processes each, alternating), and no slower
with their arrays out of cache."""

SYNC_BYTES = 64
"""Room for a `pthread_mutex_t` or `pthread_cond_t` (40 and 48 bytes in
64-bit glibc and musl), each on a cache line of its own."""

NPROCESSORS_ONLN = 84
"""`_SC_NPROCESSORS_ONLN` in glibc and musl."""

I1 = ir.IntType(1)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
PTR = ir.PointerType()
VOID = ir.VoidType()
GRAIN = ir.FunctionType(VOID, [PTR, I64, I64])
GRAIN_PTR = ir.PointerType(GRAIN)

FIELDS = (
    "posts",  # jobs posted so far (atomic): a thread waits for it to change
    "grain",
    "ctx",
    "n",
    "grains",
    "next",  # the next grain to take
    "finished",  # grains finished (atomic)
    "busy",  # 1 while a launch runs
    "helpers",  # threads of the pool the launch may use
    "joined",  # threads of the pool that took part
    "workers",  # threads started
    "cpus",  # sysconf(_SC_NPROCESSORS_ONLN), asked once
)
STATE = ir.LiteralStructType([PTR if f in ("grain", "ctx") else I64 for f in FIELDS])


def _value(value: object) -> ir.Value:
    """An llvmlite builder's result (its methods are not typed)."""
    return cast(ir.Value, value)


class _Pool:
    """The pool's globals in one llvmlite module, and the code that uses
    them."""

    def __init__(self, module: ir.Module):
        self.module = module
        sync = ir.ArrayType(ir.IntType(8), SYNC_BYTES)
        self.mutex = self._global("xlir.pool.mutex", sync)
        self.posted = self._global("xlir.pool.posted", sync)
        self.finished = self._global("xlir.pool.finished", sync)
        self.state = self._global("xlir.pool.state", STATE)

    def _global(self, name: str, type_: ir.Type) -> ir.GlobalVariable:
        variable = ir.GlobalVariable(self.module, type_, name)
        variable.linkage = "internal"
        variable.initializer = ir.Constant(type_, None)  # pyright: ignore[reportAttributeAccessIssue]
        variable.align = 64  # pyright: ignore[reportAttributeAccessIssue]
        return variable

    def call(self, b: ir.IRBuilder, name: str, *arguments: ir.Value) -> ir.Value:
        """A call of C library function `name`, declared on its first call
        with the types of these arguments, returning an int (`sysconf` a
        long)."""
        function = self.module.globals.get(name)
        if not isinstance(function, ir.Function):
            types = [a.type for a in arguments]  # pyright: ignore[reportAttributeAccessIssue]
            result = I64 if name == "sysconf" else I32
            function = ir.Function(self.module, ir.FunctionType(result, types), name)
        return _value(b.call(function, list(arguments)))

    def field(self, b: ir.IRBuilder, name: str) -> ir.Value:
        return _value(b.gep(self.state, [I32(0), I32(FIELDS.index(name))], True))

    def load(self, b: ir.IRBuilder, name: str, atomic: bool = False) -> ir.Value:
        """A field's value (the grain as a function pointer to call), read
        atomically where another thread may write it meanwhile."""
        if atomic:
            return _value(b.load_atomic(self.field(b, name), "acquire", 8, typ=I64))
        type_ = GRAIN_PTR if name == "grain" else STATE.elements[FIELDS.index(name)]
        return _value(b.load(self.field(b, name), typ=type_))

    def store(self, b: ir.IRBuilder, name: str, value: ir.Value) -> None:
        if name in ("posts", "finished"):  # read by threads that spin
            b.store_atomic(value, self.field(b, name), "release", 8)
        else:
            b.store(value, self.field(b, name))

    def lock(self, b: ir.IRBuilder) -> None:
        self.call(b, "pthread_mutex_lock", self.mutex)

    def unlock(self, b: ir.IRBuilder) -> None:
        self.call(b, "pthread_mutex_unlock", self.mutex)

    def spin_then_sleep(
        self,
        function: ir.Function,
        b: ir.IRBuilder,
        ready: Callable[[ir.IRBuilder, bool], ir.Value],
        condition: ir.GlobalVariable,
        done: ir.Block,
    ) -> tuple[ir.Block, ir.Block]:
        """Code to wait, the mutex held, until `ready(b, atomic)` (an i1
        computed from the state, read atomically where the mutex is not
        held): without the mutex, checking up to `SPIN` times; then, the
        mutex held again, on `condition` while it is still false. Its first
        block, to branch to, and its last, which branches to `done` with the
        mutex held."""
        start = function.append_basic_block("wait")
        spin = function.append_basic_block("spin")
        relock = function.append_basic_block("relock")
        recheck = function.append_basic_block("recheck")
        sleep = function.append_basic_block("sleep")
        b.position_at_end(start)
        self.unlock(b)
        b.branch(spin)

        b.position_at_end(spin)
        count = b.phi(I64)
        count.add_incoming(I64(0), start)
        more = _value(b.add(count, I64(1)))
        count.add_incoming(more, spin)
        tired = b.icmp_signed(">=", more, I64(SPIN))
        b.cbranch(b.or_(ready(b, True), tired), relock, spin)

        b.position_at_end(relock)
        self.lock(b)
        b.branch(recheck)

        b.position_at_end(recheck)
        b.cbranch(ready(b, False), done, sleep)

        b.position_at_end(sleep)
        self.call(b, "pthread_cond_wait", condition, self.mutex)
        b.branch(recheck)
        return start, recheck


def _function(
    module: ir.Module, name: str, type_: ir.FunctionType, linkage: str = "internal"
) -> ir.Function:
    """A new function (or the module's declaration of it) with `linkage`,
    never inlined: a few instructions per launch."""
    existing = module.globals.get(name)
    function = (
        existing
        if isinstance(existing, ir.Function)
        else ir.Function(module, type_, name)
    )
    function.linkage = linkage
    function.attributes.add("noinline")
    return function


def define_thread_pool(module: ir.Module, linkage: str = "internal") -> ir.Function:
    """Define `PARALLEL_FOR` (with `linkage`; a declaration of it already
    in `module` gets the body) and the pool behind it in `module`."""
    pool = _Pool(module)
    grains = _define_grains(pool)
    worker = _define_worker(pool, grains)
    return _define_parallel_for(pool, grains, worker, linkage)


def _define_grains(pool: _Pool) -> ir.Function:
    """`void grains()`, called and returning with the mutex held: take
    grains and run them until none is left; signal `finished` after the
    last one. Grain k covers [k n / g, (k + 1) n / g)."""
    function = _function(pool.module, "xlir.pool.grains", ir.FunctionType(VOID, []))
    entry, head, take, last, done = (
        function.append_basic_block(name)
        for name in ("entry", "head", "take", "last", "done")
    )
    b = ir.IRBuilder(entry)
    b.branch(head)

    b.position_at_end(head)
    k = pool.load(b, "next")
    count = pool.load(b, "grains")
    b.cbranch(b.icmp_signed("<", k, count), take, done)

    b.position_at_end(take)
    after = _value(b.add(k, I64(1)))
    pool.store(b, "next", after)
    grain, ctx, n = (pool.load(b, name) for name in ("grain", "ctx", "n"))
    pool.unlock(b)
    begin = b.sdiv(b.mul(k, n), count)
    end = b.sdiv(b.mul(after, n), count)
    b.call(grain, [ctx, begin, end])
    pool.lock(b)
    finished = _value(b.add(pool.load(b, "finished"), I64(1)))
    pool.store(b, "finished", finished)
    b.cbranch(b.icmp_signed("==", finished, count), last, head)

    b.position_at_end(last)
    pool.call(b, "pthread_cond_signal", pool.finished)
    b.branch(head)

    b.position_at_end(done)
    b.ret_void()
    return function


def _define_worker(pool: _Pool, grains: ir.Function) -> ir.Function:
    """`ptr worker(ptr)`, a pool thread: wait for a post; join the launch
    while it runs and wants more threads; wait for the next post."""
    function = _function(pool.module, "xlir.pool.worker", ir.FunctionType(PTR, [PTR]))
    entry, check, posted, join = (
        function.append_basic_block(name)
        for name in ("entry", "check", "posted", "join")
    )
    b = ir.IRBuilder(entry)
    pool.lock(b)
    b.branch(check)

    b.position_at_end(check)
    seen = b.phi(I64, "seen")
    seen.add_incoming(I64(0), entry)
    posts = pool.load(b, "posts")

    def new_post(b: ir.IRBuilder, atomic: bool) -> ir.Value:
        return _value(b.icmp_signed("!=", pool.load(b, "posts", atomic), seen))

    wait, woken = pool.spin_then_sleep(function, b, new_post, pool.posted, check)
    seen.add_incoming(seen, woken)
    b.position_at_end(check)
    b.cbranch(b.icmp_signed("==", posts, seen), wait, posted)

    b.position_at_end(posted)
    busy = b.icmp_signed("!=", pool.load(b, "busy"), I64(0))
    joined = pool.load(b, "joined")
    wanted = b.icmp_signed("<", joined, pool.load(b, "helpers"))
    seen.add_incoming(posts, posted)
    b.cbranch(b.and_(busy, wanted), join, check)

    b.position_at_end(join)
    pool.store(b, "joined", _value(b.add(joined, I64(1))))
    b.call(grains, [])
    seen.add_incoming(posts, join)
    b.branch(check)
    return function


def _define_parallel_for(
    pool: _Pool, grains: ir.Function, worker: ir.Function, linkage: str
) -> ir.Function:
    """`void parallel_for(ptr grain, ptr ctx, i64 n, i64 threads)` (module
    docstring)."""
    type_ = ir.FunctionType(VOID, [PTR, PTR, I64, I64])
    function = _function(pool.module, PARALLEL_FOR, type_, linkage)
    grain, ctx, n, threads = function.args
    names = ("entry", "alone", "shared", "ask", "counted", "unlock_alone")
    names += ("grow", "start", "started", "post", "finish")
    blocks = {name: function.append_basic_block(name) for name in names}
    b = ir.IRBuilder(blocks["entry"])
    handle = b.alloca(I64, name="handle")
    # llvmlite calls through a pointer only of a function pointer's type,
    # which the argument of a declaration made elsewhere has not
    slot = b.alloca(PTR, name="grain")
    b.store(grain, slot)
    single = b.or_(b.icmp_signed("<=", n, I64(1)), b.icmp_signed("==", threads, I64(1)))
    b.cbranch(single, blocks["alone"], blocks["shared"])

    b.position_at_end(blocks["alone"])
    b.call(b.load(slot, typ=GRAIN_PTR), [ctx, I64(0), n])
    b.ret_void()

    b.position_at_end(blocks["shared"])
    pool.lock(b)
    known = b.icmp_signed(">", pool.load(b, "cpus"), I64(0))
    b.cbranch(known, blocks["counted"], blocks["ask"])

    b.position_at_end(blocks["ask"])
    online = pool.call(b, "sysconf", I32(NPROCESSORS_ONLN))
    pool.store(b, "cpus", _max(b, online, I64(1)))
    b.branch(blocks["counted"])

    b.position_at_end(blocks["counted"])
    cpus = pool.load(b, "cpus")
    wanted = b.select(b.icmp_signed(">", threads, I64(0)), threads, cpus)
    count = _min(b, _value(wanted), n)
    busy = b.icmp_signed("!=", pool.load(b, "busy"), I64(0))
    refused = b.or_(b.icmp_signed("<=", count, I64(1)), busy)
    b.cbranch(refused, blocks["unlock_alone"], blocks["grow"])

    b.position_at_end(blocks["unlock_alone"])
    pool.unlock(b)
    b.branch(blocks["alone"])

    b.position_at_end(blocks["grow"])
    helpers = _value(b.sub(count, I64(1)))
    workers = pool.load(b, "workers")
    b.cbranch(b.icmp_signed("<", workers, helpers), blocks["start"], blocks["post"])

    b.position_at_end(blocks["start"])
    null = ir.Constant(PTR, None)
    status = pool.call(b, "pthread_create", handle, null, worker, null)
    b.cbranch(b.icmp_signed("==", status, I32(0)), blocks["started"], blocks["post"])

    b.position_at_end(blocks["started"])
    pool.call(b, "pthread_detach", _value(b.load(handle, typ=I64)))
    pool.store(b, "workers", _value(b.add(workers, I64(1))))
    b.branch(blocks["grow"])

    b.position_at_end(blocks["post"])
    total = _min(b, n, _value(b.mul(count, I64(GRAINS_PER_THREAD))))
    for name, value in (
        ("grain", grain),
        ("ctx", ctx),
        ("n", n),
        ("grains", total),
        ("next", I64(0)),
        ("finished", I64(0)),
        ("busy", I64(1)),
        ("helpers", helpers),
        ("joined", I64(0)),
    ):
        pool.store(b, name, value)
    pool.store(b, "posts", _value(b.add(pool.load(b, "posts"), I64(1))))
    pool.call(b, "pthread_cond_broadcast", pool.posted)
    b.call(grains, [])

    def all_finished(b: ir.IRBuilder, atomic: bool) -> ir.Value:
        return _value(b.icmp_signed("==", pool.load(b, "finished", atomic), total))

    wait, _ = pool.spin_then_sleep(
        function, b, all_finished, pool.finished, blocks["finish"]
    )
    b.position_at_end(blocks["post"])
    b.branch(wait)

    b.position_at_end(blocks["finish"])
    pool.store(b, "busy", I64(0))
    pool.unlock(b)
    b.ret_void()
    return function


def _min(b: ir.IRBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    return _value(b.select(b.icmp_signed("<", x, y), x, y))


def _max(b: ir.IRBuilder, x: ir.Value, y: ir.Value) -> ir.Value:
    return _value(b.select(b.icmp_signed(">", x, y), x, y))

"""The top_k routines, in LLVM IR: one row's k largest elements, the lower
position first among equals.

    void xlir.top_k32(i64 n, i64 k, i64 row, ptr x, ptr values, ptr indices,
                      ptr work, i64 index_bits, i32 flip_negative,
                      i32 flip_positive)
    void xlir.top_k8(...), xlir.top_k16(...), xlir.top_k64(...)
                                          (elements and flips of 8, 16, 64 bits)

`x` holds rows of `n` elements of the routine's width, `values` and
`indices` rows of `k` (`index_bits` 32 or 64), `work` rows of `k` keys and
`k` i32 positions; the routine reads row `row` of `x` and writes that row's
`k` largest elements (their bits as they are) and their positions in order,
largest first (lowering/kernels/top_k_routine.py calls it, k >= 1). An
element's bits `e` are ordered as the unsigned key `e ^ flip_negative` where
its top bit is set, `e ^ flip_positive` where not: a float's totalOrder (all
ones and the sign bit), a signed integer's (the sign bit twice), an
unsigned one's (zeros).

The row's first `k` elements are kept in `work`, sorted by insertion (a
later element goes below the equal ones it meets); from there on a block of
`BLOCK` elements is keyed as one vector and compared with the k-th kept key,
and only a block holding a greater key is read again element by element, a
greater key entering by insertion (the k-th kept leaves). Most elements of a
long row cost one vector lane: the same scan as the inline selection kernel
(lowering/kernels/top_k.py), compiled once per host instead of by every
program.

They are compiled, loaded and defined in ahead-of-time objects with the
sort routines (sort_routine.py).
"""

from __future__ import annotations

from llvmlite import ir
from xlir.lowering.kernels.top_k_routine import TOP_K
from xlir.targets.cpu.routine_ir import (
    I64,
    PTR,
    insert_sorted,
    load_at,
    loop,
    stack_slot,
    store_at,
    value,
    while_loop,
)

I32 = ir.IntType(32)

BLOCK = 16
"""Elements keyed and compared at once (16 keys of 32 bits fill a 512-bit
register)."""


def define_top_k_routines(module: ir.Module, linkage: str) -> None:
    """Define in `module` the routines it declares (a translated module's
    calls declare them); with `linkage="external"`, all of them (the JIT's
    object)."""
    for bits, name in TOP_K.items():
        existing = module.globals.get(name)
        if linkage == "external" or isinstance(existing, ir.Function):
            _define(module, name, ir.IntType(bits), linkage)


def _define(module: ir.Module, name: str, element: ir.IntType, linkage: str) -> None:
    size = element.width // 8
    type_ = ir.FunctionType(
        ir.VoidType(), [I64, I64, I64, PTR, PTR, PTR, PTR, I64, element, element]
    )
    function = module.globals.get(name)
    if not isinstance(function, ir.Function):
        function = ir.Function(module, type_, name)
    function.linkage = linkage
    function.attributes.add("nounwind")
    n, k, row, x, values, indices, work, index_bits, negative, positive = function.args
    b = ir.IRBuilder(function.append_basic_block("entry"))
    source = b.gep(x, [b.mul(row, n)], source_etype=element)
    keys = b.gep(
        work, [b.mul(row, b.mul(k, I64(size + 4)))], source_etype=ir.IntType(8)
    )
    positions = b.gep(keys, [b.mul(k, I64(size))], source_etype=ir.IntType(8))
    kept = stack_slot(b, I64)
    b.store(I64(0), kept)
    last = b.sub(k, I64(1))
    top = element(element.width - 1)

    def key_of(bits: ir.Value) -> ir.Value:
        negative_bits = b.icmp_signed("<", bits, element(0))
        return value(b.xor(bits, b.select(negative_bits, negative, positive)))

    def insert(i: ir.Value, key: ir.Value) -> None:
        """`key` (of element `i`) to its place among the kept, the k-th
        kept leaving once `k` are."""
        count = value(b.load(kept, typ=I64))
        full = b.icmp_unsigned(">=", count, k)
        b.store(b.select(full, k, b.add(count, I64(1))), kept)
        at = stack_slot(b, I64)
        b.store(b.select(full, last, count), at)

        insert_sorted(
            b,
            (keys, positions),
            (element, I32),
            at,
            (key, b.trunc(i, I32)),
            lambda new, old: b.icmp_unsigned(">", new, old),
        )

    def consider(i: ir.Value) -> None:
        key = key_of(load_at(b, source, i, element))
        with b.if_then(b.icmp_unsigned(">", key, load_at(b, keys, last, element))):
            insert(i, key)

    loop(
        b,
        I64(0),
        k,
        I64(1),
        lambda i: insert(i, key_of(load_at(b, source, i, element))),
    )
    start = stack_slot(b, I64)
    b.store(k, start)
    lanes = ir.VectorType(element, BLOCK)

    def whole_block() -> object:
        return b.icmp_unsigned("<=", b.add(b.load(start, typ=I64), I64(BLOCK)), n)

    def block() -> None:
        first = b.load(start, typ=I64)
        address = b.gep(source, [first], source_etype=element)
        bits = b.load(address, typ=lanes, align=size)
        sign = b.ashr(bits, _splat(lanes, top))
        flip = b.xor(
            b.and_(sign, _splat_value(b, lanes, value(b.xor(negative, positive)))),
            _splat_value(b, lanes, positive),
        )
        keyed = b.xor(bits, flip)
        threshold = _splat_value(b, lanes, load_at(b, keys, last, element))
        above = b.bitcast(b.icmp_unsigned(">", keyed, threshold), ir.IntType(BLOCK))
        with b.if_then(b.icmp_unsigned("!=", above, ir.IntType(BLOCK)(0))):
            loop(b, value(first), value(b.add(first, I64(BLOCK))), I64(1), consider)
        b.store(b.add(first, I64(BLOCK)), start)

    while_loop(b, whole_block, block)
    loop(b, value(b.load(start, typ=I64)), n, I64(1), consider)

    def write(j: ir.Value) -> None:
        position = load_at(b, positions, j, I32)
        at = b.add(b.mul(row, k), j)
        store_at(b, load_at(b, source, position, element), values, at, element)
        wide = b.icmp_unsigned("==", index_bits, I64(64))
        with b.if_else(wide) as (then, otherwise):
            with then:
                store_at(b, b.zext(position, I64), indices, at, I64)
            with otherwise:
                store_at(b, position, indices, at, I32)

    loop(b, I64(0), k, I64(1), write)
    b.ret_void()


def _splat(lanes: ir.VectorType, constant: ir.Constant) -> ir.Constant:
    return ir.Constant(lanes, [constant] * lanes.count)


def _splat_value(b: ir.IRBuilder, lanes: ir.VectorType, scalar: ir.Value) -> ir.Value:
    """`scalar` in every lane."""
    one = b.insert_element(ir.Constant(lanes, ir.Undefined), scalar, I32(0))
    return value(
        b.shuffle_vector(
            one,
            ir.Constant(lanes, ir.Undefined),
            ir.Constant(ir.VectorType(I32, lanes.count), [0] * lanes.count),
        )
    )

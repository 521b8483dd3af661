"""The sort routine's helpers, in LLVM IR: one row's keys made from its
elements, and one operand's row moved along the sorted order.

    void xlir.row_keys16(i64 n, i64 row, ptr keys, ptr x, i64 base,
                         i64 stride, i16 flip_negative, i16 flip_positive,
                         i16 infinity, i16 quiet_nan)
    void xlir.row_take16(i64 n, i64 row, ptr order, ptr x, ptr y, i64 base,
                         i64 stride)
    (and 8, 32, 64: elements of that many bits)

Element j of the row is at `base + j * stride` in `x` (and `y`); `keys` and
`order` hold rows of `n` keys and i32 positions, row after row
(lowering/kernels/sort_routine.py lays them out and calls these around
`xlir.sort_keys32`/`64`: targets/cpu/sort_routine.py).

* `row_keys` writes each element's unsigned key (of 32 bits for elements
  up to 32, else 64): its bits xor `flip_negative` where its top bit is set,
  `flip_positive` where not, zero-extended. Where `infinity` is not zero
  the element is a float canonicalized first (JAX's comparator): a NaN
  (its magnitude above `infinity`) as `quiet_nan`, -0 as +0.
* `row_take` moves the operand's row along the sorted order:
  `y[j] = x[order[j]]`, the elements' bits as they are.

Each has a loop for rows of unit stride (which LLVM vectorizes) and one
for the others, and the keys one for each of canonicalized and plain
floats, chosen once per row. The kernel made these as loops of its own, which LLVM compiled in every
sort program (about 11 ms of its ~19 on a one-sort program); as routines
they are compiled once per host with the sort routines.
"""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir
from xlir.lowering.kernels.sort_routine import ROW_KEYS, ROW_TAKE
from xlir.targets.cpu.routine_ir import I64, PTR, load_at, loop, store_at, value

I32 = ir.IntType(32)


def define_row_routines(module: ir.Module, linkage: str) -> None:
    """Define in `module` the row routines it declares; with
    `linkage="external"`, all of them."""
    for bits in ROW_KEYS:
        for name, define in ((ROW_KEYS[bits], _keys), (ROW_TAKE[bits], _take)):
            existing = module.globals.get(name)
            if linkage == "external" or isinstance(existing, ir.Function):
                define(module, name, ir.IntType(bits), linkage)


def _function(
    module: ir.Module, name: str, arguments: list[ir.Type], linkage: str
) -> ir.Function:
    function = module.globals.get(name)
    if not isinstance(function, ir.Function):
        type_ = ir.FunctionType(ir.VoidType(), arguments)
        function = ir.Function(module, type_, name)
    function.linkage = linkage
    function.attributes.add("nounwind")
    for argument in function.args:
        if argument.type == PTR:  # distinct buffers, as a kernel's are
            argument.add_attribute("noalias")
    return function


def _keys(module: ir.Module, name: str, element: ir.IntType, linkage: str) -> None:
    key = ir.IntType(max(32, element.width))
    arguments = [I64, I64, PTR, PTR, I64, I64, element, element, element, element]
    function = _function(module, name, arguments, linkage)
    n, row, keys, x, base, stride, negative, positive, infinity, nan = function.args
    b = ir.IRBuilder(function.append_basic_block("entry"))
    row_keys = b.gep(keys, [b.mul(row, n)], source_etype=key)
    sign = element(1 << (element.width - 1))
    magnitude = element((1 << (element.width - 1)) - 1)

    def keys_loop(step: ir.Value, canonical: bool) -> None:
        def write(j: ir.Value) -> None:
            bits = load_at(b, x, b.add(base, b.mul(j, step)), element)
            if canonical:
                is_nan = b.icmp_unsigned(">", b.and_(bits, magnitude), infinity)
                zero = b.select(b.icmp_unsigned("==", bits, sign), element(0), bits)
                bits = value(b.select(is_nan, nan, zero))
            flip = b.select(b.icmp_signed("<", bits, element(0)), negative, positive)
            keyed = b.xor(bits, flip)
            if key != element:
                keyed = b.zext(keyed, key)
            store_at(b, keyed, row_keys, j, key)

        loop(b, I64(0), n, I64(1), write)

    with b.if_else(b.icmp_unsigned("!=", infinity, element(0))) as (then, otherwise):
        with then:
            _by_stride(b, stride, lambda step: keys_loop(step, canonical=True))
        with otherwise:
            _by_stride(b, stride, lambda step: keys_loop(step, canonical=False))
    b.ret_void()


def _take(module: ir.Module, name: str, element: ir.IntType, linkage: str) -> None:
    arguments = [I64, I64, PTR, PTR, PTR, I64, I64]
    function = _function(module, name, arguments, linkage)
    n, row, order, x, y, base, stride = function.args
    b = ir.IRBuilder(function.append_basic_block("entry"))
    row_order = b.gep(order, [b.mul(row, n)], source_etype=I32)

    def take_loop(step: ir.Value) -> None:
        def move(j: ir.Value) -> None:
            position = b.sext(load_at(b, row_order, j, I32), I64)
            moved = load_at(b, x, b.add(base, b.mul(position, step)), element)
            store_at(b, moved, y, b.add(base, b.mul(j, step)), element)

        loop(b, I64(0), n, I64(1), move)

    _by_stride(b, stride, take_loop)
    b.ret_void()


def _by_stride(
    b: ir.IRBuilder, stride: ir.Value, emit: Callable[[ir.Value], None]
) -> None:
    """`emit(step)` twice: with the constant 1 where `stride` is 1 (a row
    along the last dimension, which LLVM vectorizes as such), else with
    `stride`."""
    with b.if_else(b.icmp_unsigned("==", stride, I64(1))) as (then, otherwise):
        with then:
            emit(I64(1))
        with otherwise:
            emit(stride)

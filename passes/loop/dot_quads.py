"""`dot-quads`: the inner loop over a byte quad of an int8 dot as one
`arith.dot_quads`.

`int-dot-quads` (passes/hlo/int_dot_quads.py) gives an int8 dot operands
whose contracted dims end in a trailing dim of 4 (u8 lhs, s8 rhs), so its
nest ends in

    %s = loop.for %t = 0 to 4 step 1 iter_args(%acc = %a0) -> (i32) {
      %u = loop.load %A[%i, %kq, %t] : memref<512x256x4xi8>
      %v = loop.load %B[%kq, %j, %t] : memref<256x1024x4xi8>
      %x = arith.extui %u : i8 to i32
      %y = arith.extsi %v : i8 to i32
      %p = arith.muli %x, %y : i32
      %n = arith.addi %acc, %p : i32
      loop.yield %n : i32
    }

which becomes, with each quad buffer read as i32 words (`loop.reshape` to
`memref<512x256xi32>`, `memref<256x1024xi32>`),

    %u = loop.load %Aw[%i, %kq] : memref<512x256xi32>
    %v = loop.load %Bw[%kq, %j] : memref<256x1024xi32>
    %s = arith.dot_quads %a0, %u, %v : i32

The same four products added to the same i32, wrapping: the same bits.
`register-tile` then tiles the nest over the words as it does a float dot
over its elements, with vector copies of `arith.dot_quads` (x86's
`vpdpbusd` where the target has it, `CpuEmitter`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import MemRefType, ModuleOp, i8, i32
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xlir.analysis.loop_utils import bounds_of, static_trip_count
from xlir.dialects.arith import DotQuadsOp
from xlir.dialects.loop.loops import ForOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, ReshapeOp

from xlir.walk import walk

_EXTENSIONS = {"arith.extui": "lhs", "arith.extsi": "rhs"}


def _quad_loads(loop: ForOp) -> tuple[LoadOp, LoadOp] | None:
    """The (u8, s8) loads of a quad loop (module docstring), or None."""
    if static_trip_count(*bounds_of(loop)[0]) != 4 or len(loop.carried) != 1:
        return None
    ops = list(loop.body.block.ops)
    if len(ops) != 7 or not isinstance(ops[-1], YieldOp):
        return None
    add = ops[-1].operands[0].owner
    if not isinstance(add, arith.AddiOp) or add.result.type != i32:
        return None
    acc = loop.carried[0]
    product = add.rhs if add.lhs is acc else add.lhs if add.rhs is acc else None
    if product is None or not isinstance(product.owner, arith.MuliOp):
        return None
    found: dict[str, LoadOp] = {}
    for factor in (product.owner.lhs, product.owner.rhs):
        extension = factor.owner
        side = _EXTENSIONS.get(getattr(extension, "name", ""))
        if side is None or side in found or not isinstance(extension, Operation):
            return None
        load = extension.operands[0].owner
        if not isinstance(load, LoadOp) or not _reads_quad(load, loop):
            return None
        found[side] = load
    return found["lhs"], found["rhs"]


def _reads_quad(load: LoadOp, loop: ForOp) -> bool:
    """A scalar i8 load from a buffer whose last dim is 4, at the loop's
    counter there and at values from outside the loop elsewhere."""
    buffer = load.buffer.type
    if not isinstance(buffer, MemRefType) or buffer.element_type != i8:
        return False
    if load.result.type != i8 or buffer.get_shape()[-1:] != (4,):
        return False
    *outer, last = load.indices
    counter = loop.body.block.args[0]
    return last is counter and all(not loop.is_ancestor(v.owner) for v in outer)


class _Words:
    """Each quad buffer read as i32 words, reshaped once where it is defined."""

    def __init__(self) -> None:
        self.made: dict[SSAValue, SSAValue] = {}

    def of(self, buffer: SSAValue) -> SSAValue:
        if buffer in self.made:
            return self.made[buffer]
        type_ = buffer.type
        assert isinstance(type_, MemRefType)
        reshape = ReshapeOp(buffer, MemRefType(i32, type_.get_shape()[:-1]))
        if isinstance(buffer, BlockArgument):
            block = buffer.block
            if block.first_op is None:
                block.add_op(reshape)
            else:
                block.insert_op_before(reshape, block.first_op)
        else:
            owner = buffer.owner
            assert isinstance(owner, Operation)
            parent = owner.parent_block()
            assert parent is not None
            parent.insert_op_after(reshape, owner)
        self.made[buffer] = reshape.result
        return reshape.result


def rewrite_quad_loop(loop: ForOp, words: _Words) -> bool:
    """Replace one quad loop by an `arith.dot_quads`; whether it did."""
    loads = _quad_loads(loop)
    if loads is None:
        return False
    block = loop.parent_block()
    assert block is not None
    made: list[Operation] = []
    for load in loads:
        made.append(LoadOp(words.of(load.buffer), list(load.indices)[:-1]))
    dot = DotQuadsOp(loop.iter_args[0], made[0].results[0], made[1].results[0])
    for op in (*made, dot):
        block.insert_op_before(op, loop)
    loop.results[0].replace_all_uses_with(dot.result)
    loop.detach()
    loop.erase()
    return True


@dataclass(frozen=True)
class DotQuadsPass(ModulePass):
    """Byte quad loops as `arith.dot_quads` (module docstring)."""

    name = "dot-quads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        words = _Words()
        for loop in [o for o in walk(op) if type(o) is ForOp]:
            rewrite_quad_loop(loop, words)

"""Hardware loops that count addresses instead of elements (after
`loop-to-accel`'s patterns).

An elementwise loop's body turns its element counter into a byte address
with a shift and an add of the tile's base: two scalar instructions of
every iteration, a third of a double-buffered add's (manual section
11.1). A hardware loop's trip count is its bound, so its counter is free to
count anything: where the counter's one use is `slli i, k`, the loop counts
`i << k` instead (its start shifted once before the loop, its step shifted);
where the counter's one use then is an add of a value defined outside the
loop (or computed in it from such values only: a row's offset, a
constant), the loop counts the sum (its start offset once). The counter is
then the address itself. It runs after `hoist_invariants`, which keeps in
the loop the scalars it reads."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Operation, SSAValue
from xlir.dialects import accel
from xlir.targets.accel.hoist_invariants import defined_outside, is_pure

from xlir.rewriting import walk_region

STEP_LIMIT = 2**15 - 1
"""The largest step: the counter advances by an `addi`."""


def _invariant(value: SSAValue, loop: accel.ForOp) -> bool:
    """Whether `value` is defined outside `loop`, or can be: an instruction
    of the body with no effect whose operands are (its only use the
    address, so moving it before the loop holds no register through it;
    `hoist_invariants` keeps scalars the loop reads in the loop)."""
    if defined_outside(value, loop):
        return True
    owner = value.owner
    if not isinstance(owner, Operation) or owner.parent_op() is not loop:
        return False
    if not is_pure(owner) or not (
        isinstance(owner, accel.GetRegisterOp) or value.has_one_use()
    ):
        return False
    if not all(_invariant(v, loop) for v in owner.operands):
        return False
    owner.detach()
    block = loop.parent_block()
    assert block is not None
    block.insert_op_before(owner, loop)
    return True


def _before(
    loop: accel.ForOp, mnemonic: str, *operands: SSAValue, **imm: int
) -> SSAValue:
    op = accel.instruction(
        mnemonic, operands, [accel.XRegisterType.unallocated()], **imm
    )
    block = loop.parent_block()
    assert block is not None
    block.insert_op_before(op, loop)
    return op.results[0]


def _reduce_once(loop: accel.ForOp) -> bool:
    """Fold the counter's one use into the counter, if it is a shift or an
    add of an invariant; whether it was."""
    counter = loop.induction_var
    if not counter.has_one_use():
        return False
    use = counter.get_user_of_unique_use()
    if not isinstance(use, accel.AccelInstruction) or use.parent_op() is not loop:
        return False
    step = loop.step.value.data
    if use.SPEC.mnemonic == "slli":
        imm = use.properties["imm"]
        assert isinstance(imm, IntegerAttr)
        shift = imm.value.data
        if step << shift > STEP_LIMIT:
            return False
        start = _before(loop, "slli", loop.lower, imm=shift)
        loop.properties["step"] = IntegerAttr(step << shift, i32)
    elif use.SPEC.mnemonic == "add":
        other = [v for v in use.operands if v is not counter]
        if len(other) != 1 or not _invariant(other[0], loop):
            return False
        start = _before(loop, "add", loop.lower, other[0])
    else:
        return False
    loop.operands[0] = start
    use.results[0].replace_all_uses_with(counter)
    use.detach()
    use.erase()
    return True


def count_addresses(kernel: accel.KernelOp) -> int:
    """Strength-reduce the counters of `kernel`'s hardware loops; the number
    of instructions taken out of loop bodies."""
    count = 0
    for loop in [op for op in walk_region(kernel.body) if type(op) is accel.ForOp]:
        if loop.hardware is None:
            continue
        while _reduce_once(loop):
            count += 1
    return count

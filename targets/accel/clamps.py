"""Clamps against a constant as one `vfmin`/`vfmax` (after `loop-to-accel`'s
patterns).

The math expansions clamp with a compare and a select, `a > c ? c : a`,
which on XA-1 is `vflt` then `vsel`: two instructions, where `vfmin a, c`
is one (manual section 4.7). The two agree for every a when c is a
constant other than a zero or a NaN: an ordered comparison with a NaN a is
false, so the select gives a and `vfmin` a NaN too (the canonical one:
every XA-1 float instruction gives that NaN, section 4.7); a zero c would
tell -0 from +0 where the comparison does not.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import SSAValue
from xdsl.rewriter import Rewriter
from xlir.dialects import accel

from xlir.rewriting import walk_region

SIGN_BIT = 0x80000000
EXPONENT = 0x7F800000


def _immediate(op: accel.AccelInstruction) -> int:
    imm = op.properties["imm"]
    assert isinstance(imm, IntegerAttr)
    return imm.value.data


def scalar_constant(value: SSAValue) -> int | None:
    """The 32 bits a scalar register holds when `li`'s instructions made it
    (`addi`/`ori` from zero, `lui`, `lui` then `ori`)."""
    owner = value.owner
    if isinstance(owner, accel.GetRegisterOp):
        return 0 if value.type == accel.XRegisterType.from_name("zero") else None
    if not isinstance(owner, accel.AccelInstruction):
        return None
    mnemonic = owner.SPEC.mnemonic
    if mnemonic == "lui":
        return (_immediate(owner) << 16) & 0xFFFFFFFF
    if mnemonic in ("addi", "ori"):
        base = scalar_constant(owner.operands[0])
        if base is None:
            return None
        if mnemonic == "ori":
            return base | _immediate(owner)
        return (base + _immediate(owner)) & 0xFFFFFFFF
    return None


def _safe_bound(value: SSAValue) -> bool:
    """Whether `value` is a splat of a float constant that is neither a zero
    nor a NaN."""
    owner = value.owner
    if not isinstance(owner, accel.AccelInstruction) or owner.SPEC.mnemonic != "vsplat":
        return False
    bits = scalar_constant(owner.operands[0])
    if bits is None:
        return False
    magnitude = bits & ~SIGN_BIT
    is_nan = magnitude & EXPONENT == EXPONENT and magnitude != EXPONENT
    return magnitude != 0 and not is_nan


def clamps_to_min_max(kernel: accel.KernelOp) -> int:
    """Replace every `vflt m, c, a; vsel m, c, a` by `vfmin a, c` and every
    `vflt m, a, c; vsel m, c, a` by `vfmax a, c` (c a safe bound, m read
    only by the select); the number replaced."""
    count = 0
    for op in list(walk_region(kernel.body)):
        if op.name != "accel.vsel":  # by name: faster than isinstance per op
            continue
        mask, chosen, other = op.operands
        compare = mask.owner
        if (
            not isinstance(compare, accel.AccelInstruction)
            or compare.SPEC.mnemonic != "vflt"
            or not mask.has_one_use()
            or not _safe_bound(chosen)
        ):
            continue
        if list(compare.operands) == [chosen, other]:
            mnemonic = "vfmin"
        elif list(compare.operands) == [other, chosen]:
            mnemonic = "vfmax"
        else:
            continue
        extreme = accel.instruction(
            mnemonic, [other, chosen], [accel.VRegisterType.unallocated()]
        )
        Rewriter.replace_op(op, extreme)
        Rewriter.erase_op(compare)
        count += 1
    return count

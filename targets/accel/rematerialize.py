"""Constants made again where a nested block reads them, for a kernel whose
registers do not fit its files (`register_allocation.allocate_kernel`).

A constant the lowering defines before a loop and the loop's body reads
holds a scalar register through every iteration; when the kernel needs
more registers than the file has, the allocator spills values of the body
instead, and each of their reads and writes becomes a load or a store.
One instruction, `addi rd, zero, imm`, `ori rd, zero, imm` or `lui rd, imm`,
makes such a constant again in a register that lives only until its
reader: a copy before each instruction of a nested block (a loop's body,
a branch) that reads it frees the register the constant held."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Operation
from xlir.dialects import accel

from xlir.rewriting import walk_region

CONSTANT_MNEMONICS = frozenset({"addi", "ori", "lui"})
"""Instructions that make a constant from the zero register or nothing."""
ZERO = accel.XRegisterType.from_name("zero")


@dataclass
class Rematerialized:
    """The copies `rematerialize_constants` made: `undo` puts the reads back
    on the constants, `commit` erases the constants nothing reads any more."""

    copies: list[tuple[Operation, int, Operation, Operation]] = field(
        default_factory=list[tuple[Operation, int, Operation, Operation]]
    )
    """(reader, operand index, copy, constant) per copy."""

    def undo(self) -> None:
        for reader, index, copy, constant in reversed(self.copies):
            reader.operands[index] = constant.results[0]
            copy.detach()
            copy.erase()
        self.copies.clear()

    def commit(self) -> None:
        for constant in {constant: None for *_, constant in self.copies}:
            if not constant.results[0].uses:
                constant.detach()
                constant.erase()
        self.copies.clear()


def rematerialize_constants(kernel: accel.KernelOp) -> Rematerialized:
    """Give each instruction of a nested block that reads a constant of an
    enclosing block its own copy of the constant, right before it."""
    made = Rematerialized()
    for op in list(walk_region(kernel.body)):
        if not is_constant(op):
            continue
        for use in list(op.results[0].uses):
            reader = use.operation
            block = reader.parent_block()
            if block is op.parent_block() or not isinstance(
                reader, accel.AccelInstruction
            ):
                continue
            assert block is not None
            copy = op.clone()
            block.insert_op_before(copy, reader)
            reader.operands[use.index] = copy.results[0]
            made.copies.append((reader, use.index, copy, op))
    return made


def is_constant(op: Operation) -> bool:
    """Whether `op` makes a constant in a scalar register it allocates:
    `lui`, or `addi`/`ori` of the zero register."""
    return (
        isinstance(op, accel.AccelInstruction)
        and op.SPEC.mnemonic in CONSTANT_MNEMONICS
        and len(op.results) == 1
        and isinstance(op.results[0].type, accel.XRegisterType)
        and not op.results[0].type.is_allocated
        and all(operand.type == ZERO for operand in op.operands)
    )

"""xDSL's register allocator on an assembly dialect's kernels (`accel`, and
out-of-tree chips'): `allocate_block` runs its block-naive allocator over a
kernel's body; `RegisterLoop` is a loop op it allocates, one region whose
block's arguments are the loop's counter, then the values it carries from
trip to trip, allocated as xDSL's `riscv_scf.for` is (which only knows its
own dialect's ops)."""

from __future__ import annotations

from abc import ABC
from collections.abc import Iterable, Sequence

from ordered_set import OrderedSet
from xdsl.backend.block_naive_allocator import BlockNaiveAllocator
from xdsl.backend.liveness import LivenessContext
from xdsl.backend.register_allocatable import RegisterAllocatableOperation
from xdsl.backend.register_allocator import BlockAllocator
from xdsl.backend.register_stack import RegisterStack
from xdsl.backend.register_type import RegisterType
from xdsl.dialects.builtin import IntAttr
from xdsl.ir import Attribute, Block, SSAValue

from xlir.rewriting import set_type


class LoopRegisterStack(RegisterStack):
    """xDSL's stack, except that a reserved "infinite" register (a loop's
    counter or carried value that did not fit) is not made available again
    inside the loop: xDSL's `push` honours reservations of real registers
    only, so a value of the body could take the loop's spilled register."""

    def push(self, reg: RegisterType) -> None:
        index = reg.index
        if (
            isinstance(index, IntAttr)
            and index.data < 0
            and index.data in self.reserved_registers[reg.register_pool_key()]
        ):
            return
        super().push(reg)


class InPlaceAllocator(BlockNaiveAllocator):
    """xDSL's block-naive allocator, giving each value its register in place:
    xDSL's makes a new value of the register's type and moves every use to
    it, for each value of the kernel."""

    def _replace_value_with_new_type(
        self, val: SSAValue, new_type: Attribute
    ) -> SSAValue:
        set_type(val, new_type)
        self.new_value_by_old_value[val] = val
        return val


def allocate_block(
    block: Block,
    registers: Sequence[RegisterType],
    register_type: type[RegisterType],
) -> int:
    """Every value of `block` (a kernel's body) a register, from its last op
    up: one of `registers` (taken from the end first, as xDSL's stack does),
    else one of xDSL's "infinite" registers. How many of those it gave out:
    what the target spills, or refuses where it cannot spill."""
    stack = LoopRegisterStack.get(registers, allow_infinite=True)
    allocator = InPlaceAllocator(stack, register_type)
    allocator.live_ins_per_block = live_ins_per_block(block)
    allocator.allocate_block(block)
    return sum(stack.next_infinite_indices.values())


def live_ins_per_block(block: Block) -> dict[Block, OrderedSet[SSAValue]]:
    """xDSL's `live_ins_per_block`: per block nested in `block` (and
    `block`), the values read in it and defined outside it, in the same
    order. Built in dicts: an OrderedSet's `difference_update` rebuilds the
    whole set, and the walk makes one per op."""
    live: dict[Block, dict[SSAValue, None]] = {}
    _live_ins(block, live)
    return {inner: OrderedSet(values) for inner, values in live.items()}


def _live_ins(
    block: Block, live: dict[Block, dict[SSAValue, None]]
) -> dict[SSAValue, None]:
    values: dict[SSAValue, None] = {}
    for op in reversed(block.ops):
        for result in op.results:
            values.pop(result, None)
        for operand in op.operands:
            values[operand] = None
        for region in op.regions:
            for inner in region.blocks:
                for value in _live_ins(inner, live):
                    values[value] = None
    for argument in block.args:
        values.pop(argument, None)
    live[block] = values
    return values


class RegisterLoop(RegisterAllocatableOperation, ABC):
    """See the module docstring; `allocate_registers` calls `allocate_loop`."""

    @property
    def loop_body(self) -> Block:
        return self.regions[0].block

    def allocate_loop(
        self,
        allocator: BlockAllocator,
        carried: Iterable[Sequence[SSAValue]],
        live: Sequence[SSAValue] = (),
    ) -> None:
        """Bottom-up: what the body reads from outside, and `live` (what the
        loop reads on every trip), keep their registers through the loop;
        each group of `carried` (a carried value's argument, the value the
        next trip gets, the loop's result...) shares one register; then the
        counter; then the body, none of whose values may take the registers
        of the arguments."""
        body = self.loop_body
        for value in (*allocator.live_ins_per_block[body], *live):
            allocator.allocate_value(value)
        for group in carried:
            allocator.allocate_values_same_reg(group)
        allocator.allocate_value(body.args[0])
        registers = [a.type for a in body.args if isinstance(a.type, RegisterType)]
        with allocator.available_registers.reserve_registers(registers):
            allocator.allocate_block(body)

    def update_liveness(self, ctx: LivenessContext) -> None:
        ctx.alive.difference_update(self.results)
        ctx.alive.update(self.operands)
        inner = ctx.copy(set())
        inner.process_region(self.regions[0])
        ctx.alive.update(inner.alive - set(self.loop_body.args))

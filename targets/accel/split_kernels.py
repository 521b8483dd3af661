"""Split a kernel that runs several loop nests one after another into one
kernel per nest, launched in turn on the same stream (before `accel-tile`):
each piece then tiles on its own, where the whole kernel, whose nests may
tile along different dimensions or not at all, cannot.

A piece keeps the kernel's arguments and the scalar ops before its nest
that the nest uses (the loads among them see the earlier pieces' stores,
which finished before it starts). A kernel that stores outside its nests
is kept whole: a piece could not repeat such a store safely.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xlir.dialects.device import LaunchOp
from xlir.dialects.loop.kernel import KernelOp, ReturnOp
from xlir.dialects.loop.memory import StoreOp


def split_kernel(kernel: KernelOp, module: ModuleOp) -> list[KernelOp]:
    """`kernel`'s pieces, in `module` in its place and its launches'
    (module docstring); `[kernel]` where it is kept whole."""
    ops = list(kernel.body.block.ops)
    count = sum(1 for op in ops if op.regions)
    if count < 2 or any(isinstance(op, StoreOp) for op in ops):
        return [kernel]
    name = kernel.sym_name.data
    pieces = [_piece(kernel, n, f"{name}_{n}") for n in range(count)]
    block = kernel.parent_block()
    assert block is not None
    for piece in pieces:
        block.insert_op_before(piece, kernel)
    for launch in [op for op in module.walk() if isinstance(op, LaunchOp)]:
        if launch.kernel.root_reference.data != name:
            continue
        launch_block = launch.parent_block()
        assert launch_block is not None
        for piece in pieces:
            new = LaunchOp(piece.sym_name.data, list(launch.args), launch.stream)
            new.attributes |= launch.attributes
            launch_block.insert_op_before(new, launch)
        launch.detach()
        launch.erase()
    kernel.detach()
    kernel.erase()
    return pieces


def _piece(kernel: KernelOp, index: int, name: str) -> KernelOp:
    """A copy of `kernel` with its nest `index`, the scalar ops before it
    that it uses, and its return."""
    piece = kernel.clone()
    piece.sym_name = StringAttr(name)
    ops = list(piece.body.block.ops)
    nest = [op for op in ops if op.regions][index]
    after = False
    for op in ops:
        after = after or op is nest
        if op is not nest and not isinstance(op, ReturnOp) and (after or op.regions):
            _erase(op)
    for op in reversed(list(piece.body.block.ops)):
        if op is not nest and not isinstance(op, ReturnOp) and _unused(op):
            _erase(op)
    return piece


def _unused(op: Operation) -> bool:
    return all(not result.uses for result in op.results)


def _erase(op: Operation) -> None:
    op.detach()
    op.erase(safe_erase=False)

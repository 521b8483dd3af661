"""`kernel_ops_of` (analysis/loop_utils.py), which tests each class it meets
once rather than each op: the same ops as an `isinstance` filter of every
kernel's walk, in walk order, and none outside a kernel."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xlir.analysis.loop_utils import kernel_ops_of
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.memory import LoadOp

from xlir.context import make_context
from xlir.parsing import parse_module

PROGRAM = """
loop.kernel @first(%a: memref<64xi32>, %b: memref<64xi32>, %q: memref<64xi32>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    %x = loop.load %a[%i] : memref<64xi32>
    %y = loop.load %b[%i] : memref<64xi32>
    %d = arith.divsi %x, %y : i32
    %m = arith.remui %d, %y : i32
    %e = arith.divsi %m, %x : i32
    loop.store %e, %q[%i] : memref<64xi32>
  }
  loop.return
}
loop.kernel @second(%a: memref<64xi32>, %q: memref<64xi32>) {
  loop.parallel (%i) = (0) to (64) step (1) {
    %x = loop.load %a[%i] : memref<64xi32>
    %d = arith.remui %x, %x : i32
    loop.store %d, %q[%i] : memref<64xi32>
  }
  loop.return
}
"""


def _filtered(module: ModuleOp, kinds: tuple[type, ...]) -> list:
    return [
        op
        for kernel in module.ops
        if isinstance(kernel, KernelOp)
        for op in kernel.walk()
        if isinstance(op, kinds)
    ]


def test_the_ops_an_isinstance_filter_finds_in_order() -> None:
    module = parse_module(make_context(), PROGRAM)
    for kinds in (
        (arith.DivSIOp, arith.RemUIOp),
        (arith.RemUIOp,),
        (LoadOp, arith.DivSIOp),
        (arith.MulfOp,),
    ):
        assert kernel_ops_of(module, kinds) == _filtered(module, kinds)
    assert [
        op.name for op in kernel_ops_of(module, (arith.DivSIOp, arith.RemUIOp))
    ] == [
        "arith.divsi",
        "arith.remui",
        "arith.divsi",
        "arith.remui",
    ]

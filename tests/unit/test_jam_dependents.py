"""`jam.dependents`: the values of a nest's body that depend on some roots,
through the uses of each value, into and out of the loop-carried values."""

from __future__ import annotations

from xdsl.ir import SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.loops import ForOp, ParallelOp
from xlir.passes.loop.jam import dependents

from xlir import make_context, parse_module

KERNEL = """
loop.kernel @k(%a: memref<8xf32>, %o: memref<8xf32>) {
  %z = arith.constant 0.000000e+00 : f32
  loop.parallel (%i) = (0) to (8) step (1) {
    %s = loop.for %k = 0 to 8 step 1 iter_args(%acc = %z) -> (f32) {
      %x = loop.load %a[%k] : memref<8xf32>
      %y = arith.addf %acc, %x : f32
      loop.yield %y : f32
    }
    %c = loop.load %a[%i] : memref<8xf32>
    %t = arith.addf %s, %c : f32
    loop.store %t, %o[%i] : memref<8xf32>
  }
  loop.return
}
"""


def _nest() -> tuple[ParallelOp, ForOp]:
    module = parse_module(make_context(), KERNEL)
    (kernel,) = [op for op in module.ops if isinstance(op, KernelOp)]
    (nest,) = [op for op in kernel.body.block.ops if isinstance(op, ParallelOp)]
    (loop,) = [op for op in nest.body.block.ops if isinstance(op, ForOp)]
    return nest, loop


def _names(values: set[SSAValue]) -> set[str]:
    return {v.name_hint for v in values}


def test_an_index_reaches_what_it_loads_not_the_reduction() -> None:
    nest, _ = _nest()
    found = dependents(nest.induction_vars, nest.body.block.ops)
    assert _names(found) == {"i", "c", "t"}


def test_a_yielded_value_reaches_the_carried_value_and_the_result() -> None:
    nest, loop = _nest()
    found = dependents([loop.induction_var], nest.body.block.ops)
    assert _names(found) == {"k", "x", "y", "acc", "s", "t"}


def test_values_outside_the_ops_are_not_followed() -> None:
    _, loop = _nest()
    found = dependents([loop.induction_var], loop.body.block.ops)
    assert _names(found) == {"k", "x", "y"}, "the loop itself is not among the ops"

"""Loop-invariant hoisting on accel (`targets/accel/hoist_invariants.py`):
kernels whose loops read many constants give the loop evaluator's results
bit for bit, and hoisting stops where the register files would spill."""

from __future__ import annotations

import numpy as np
from xlir.dialects import accel
from xlir.targets.accel.loop_to_accel import LoopToAccelPass

import xlir
from tests.unit.test_accel_loop_lowering import _program, _same
from xlir.context import make_context
from xlir.parsing import parse_module


def _constants_kernel(count: int) -> str:
    """An elementwise kernel reading `count` distinct constants in its body."""
    lines, previous = [], "%v"
    for k in range(count):
        op = "arith.addf" if k % 2 == 0 else "arith.mulf"
        lines.append(f"    %c{k} = arith.constant {k + 2}.5 : f32")
        lines.append(f"    %t{k} = {op} {previous}, %c{k} : f32")
        previous = f"%t{k}"
    body = "\n".join(lines)
    return f"""loop.kernel @k(%x: memref<40xf32>, %y: memref<40xf32>) {{
  loop.parallel (%i) = (0) to (40) step (1) {{
    %v = loop.load %x[%i] : memref<40xf32>
{body}
    loop.store {previous}, %y[%i] : memref<40xf32>
  }}
  loop.return
}}"""


def _constants_in_loops(kernel_text: str) -> tuple[int, int]:
    """(`lui`s inside accel.for loops, `lui`s in all) after loop-to-accel:
    each constant of the kernel is one `lui` (its splat follows it)."""
    module = parse_module(make_context(), kernel_text, "k.mlir")
    LoopToAccelPass().apply(make_context(), module)
    constants = [
        op
        for op in module.walk()
        if isinstance(op, accel.AccelInstruction) and op.SPEC.mnemonic == "lui"
    ]
    inside = [op for op in constants if isinstance(op.parent_op(), accel.ForOp)]
    return len(inside), len(constants)


def test_invariants_leave_the_loop_and_the_results_stay_exact() -> None:
    text = _program(_constants_kernel(12), ["memref<40xf32>"], ["memref<40xf32>"])
    x = np.linspace(-3, 3, 40, dtype=np.float32)
    _same(text, x)
    assert _constants_in_loops(_constants_kernel(12))[0] == 0


def test_hoisting_stops_before_the_vector_registers_run_out() -> None:
    """Forty constants cannot all stay in the 32 vector registers through
    the loop: some are built in it, and nothing spills."""
    inside, total = _constants_in_loops(_constants_kernel(40))
    assert 0 < inside < total
    text = _program(_constants_kernel(40), ["memref<40xf32>"], ["memref<40xf32>"])
    _same(text, np.linspace(-1, 1, 40, dtype=np.float32))
    assert "sp)" not in xlir.compile(text, target="accel").as_text()

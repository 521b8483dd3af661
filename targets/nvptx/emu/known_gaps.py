"""What the nvptx-emu target does not compute yet, with the reason
(`KnownGaps`, targets/target.py). Most are the nvptx target's pipeline's
(the emulator runs its kernels), so they hold for nvptx on a GPU too; the
f8 reductions are the emulator's own."""

from __future__ import annotations

from xlir.targets.target import KnownGaps

GAPS = KnownGaps(
    stablehlo_suite={
        # complex values in a width-changing bitcast_convert and complex
        # triangular_solve: split-complex lists them (passes/hlo/split_complex.py)
        "bitcast_convert.mlir": ["bitcast_convert_op_test_c128_to_c64"],
        "triangular_solve.mlir": [
            "triangular_solve_op_test_complex_example",
            "triangular_solve_op_test_complex_example_adjoint",
        ],
        # a probe inside a loop records once per iteration; check-to-outputs
        # returns one value per probe
        "probe.mlir": ["probe_iterations"],
        # the emulator's own: a reduction of f8E3M4 / f8E4M3 values is a
        # lockstep kernel, and the loop evaluator has no buffers of those types
        "dot_general.mlir": ["add_op_test_f8E3M4", "add_op_test_f8E4M3"],
    },
)

"""What the cpu target does not compute yet, by test corpus, with the reason
(`KnownGaps`, targets/target.py). The test suite fails a listed case that
passes, so the lists stay true as the work that owns each lands."""

from __future__ import annotations

from xlir.targets.target import KnownGaps

_STABLEHLO_SUITE_BY_CAUSE: dict[str, dict[str, list[str]]] = {
    # complex values in a width-changing bitcast_convert (the cpu target has no
    # bitcast between widths) and complex triangular_solve (its kernel is real):
    # split-complex lists them (passes/hlo/split_complex.py)
    "complex": {
        "bitcast_convert.mlir": ["bitcast_convert_op_test_c128_to_c64"],
        "triangular_solve.mlir": [
            "triangular_solve_op_test_complex_example",
            "triangular_solve_op_test_complex_example_adjoint",
        ],
    },
    # a probe inside a loop records once per iteration; check-to-outputs
    # returns one value per probe
    "probe": {
        "probe.mlir": ["probe_iterations"],
    },
}

GAPS = KnownGaps(
    stablehlo_suite={
        name: [
            test
            for gaps in _STABLEHLO_SUITE_BY_CAUSE.values()
            for test in gaps.get(name, [])
        ]
        for name in sorted(
            {name for gaps in _STABLEHLO_SUITE_BY_CAUSE.values() for name in gaps}
        )
    },
)

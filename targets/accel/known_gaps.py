"""What the accel target does not compute yet, by test corpus, with the
reason (`KnownGaps`, targets/target.py)."""

from __future__ import annotations

from xlir.targets.target import KnownGaps

CORPUS_OPS = frozenset(
    f"{op}.mlir"
    for op in (
        "abs", "add", "and", "broadcast_in_dim", "compare", "concatenate",
        "constant", "convert", "convolution", "divide", "dot_general",
        "dynamic_slice", "dynamic_update_slice", "exponential", "gather", "iota",
        "log", "maximum", "minimum", "multiply", "negate", "or", "pad", "reduce",
        "remainder", "reshape", "reverse", "rsqrt", "select", "shift_left",
        "shift_right_arithmetic", "sign", "slice", "sqrt", "subtract", "tanh",
        "transpose", "while", "xor",
    )
)  # fmt: skip
"""StableHLO's suite files of the ops the corpus programs use: the accel
target is held to these (issue 31), on the element types it computes."""
SUITE_OPS = CORPUS_OPS | frozenset(
    f"{op}.mlir"
    for op in (
        "ceil", "count_leading_zeros", "floor", "popcnt", "round_nearest_afz",
        "round_nearest_even",
    )
)  # fmt: skip
"""And the files of the ops the fuzzers found refused although XA-1 computes
them (rounding, bit counts)."""

STABLEHLO_SUITE: dict[str, list[str]] = {}
"""Failing tests of the suite files the target is held to."""

JAX_EXPORTS = {
    "convert_f64": ("XA-1 has no f64 (manual table 2.7)", "computes on f64"),
    "fft_c64": (
        "complex numbers: XA-1 has none, split-complex is not in its pipeline",
        "on complex values",
    ),
}

GAPS = KnownGaps(
    stablehlo_suite=STABLEHLO_SUITE,
    stablehlo_suite_files=SUITE_OPS,
    jax_exports=JAX_EXPORTS,
)

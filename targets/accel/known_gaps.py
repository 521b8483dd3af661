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

STABLEHLO_SUITE = {
    # widen-floats converts an integer to bf16 through f64 (exact for 32
    # bits, then rounded once); XA-1 has no f64.
    "iota.mlir": ["iota_op_test_bf16_dim_0", "iota_op_test_bf16_dim_1"],
}
"""Failing tests of the suite files the target is held to."""

JAX_EXPORTS = {
    "convert_f64": ("XA-1 has no f64 (manual table 2.7)", "computes on f64"),
    "fft_c64": (
        "complex numbers: XA-1 has none, split-complex is not in its pipeline",
        "on complex values",
    ),
    "transformer_f16": (
        "f16: widen-floats keeps its conversions as extf/truncf (LLVM's half), "
        "which XA-1 has no instruction for; its rounding has no integer code yet",
        "computes on f16",
    ),
}

GAPS = KnownGaps(
    stablehlo_suite=STABLEHLO_SUITE,
    stablehlo_suite_files=CORPUS_OPS,
    jax_exports=JAX_EXPORTS,
)

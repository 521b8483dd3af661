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

TILING = (
    "its buffers exceed the scratchpad; loop-to-accel stages whole buffers "
    "and does not tile kernels yet"
)
BENCH = {
    name: TILING
    for name in (
        "bmm_einsum_16", "chain10_1m", "compare_select_1024", "dynamic_slice",
        "fma_xyz_1m", "gather_index", "gelu_1m", "int_ops_512",
        "layernorm_512x768", "matmul_512", "mlp_fwd_64", "reductions_1024x512",
        "slice_concat_pad", "softmax_rows_1024", "train_step_mlp",
        "transpose_reshape_bcast",
    )
}  # fmt: skip

JAX_EXPORTS = {
    "cnn_train_step": (
        "register allocation: a loop's carried values cannot spill yet",
        "would spill a loop's induction variable or carried value",
    ),
    "convert_f64": ("XA-1 has no f64 (manual table 2.7)", "computes on f64"),
    "dropout": ("64-bit integer emulation in loop-to-accel", "computes on i64"),
    "fft_c64": (
        "complex numbers: XA-1 has none, split-complex is not in its pipeline",
        "on complex values",
    ),
    "transformer_bf16": (
        "narrow floats: per-op rounding in registers is not lowered yet",
        "computes on bf16",
    ),
    "transformer_f16": (
        "narrow floats: per-op rounding in registers is not lowered yet",
        "computes on f16",
    ),
}

GAPS = KnownGaps(stablehlo_suite_files=CORPUS_OPS, bench=BENCH, jax_exports=JAX_EXPORTS)

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

GAPS = KnownGaps(
    stablehlo_suite_files=CORPUS_OPS,
    stablehlo_suite={
        # iota's kernel converts its index through i64, which loop-to-accel
        # does not emulate yet
        "iota.mlir": ["iota_op_test_f32_dim_0", "iota_op_test_f32_dim_1"],
    },
)

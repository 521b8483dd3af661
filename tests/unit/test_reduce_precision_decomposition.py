"""`decompose`'s reduce_precision (passes/hlo/decompositions/reduce_precision.py)
against the interpreter's kernel, bit for bit: random bit patterns (NaNs,
infinities, subnormals and signed zeros among them) through formats that
cut the mantissa, the exponent, both, or leave no mantissa bit, on the
interpreter after `decompose` and on the cpu target."""

from __future__ import annotations

import numpy as np
import pytest

import xlir

FLOATS = {
    "f16": (np.float16, np.uint16),
    "f32": (np.float32, np.uint32),
    "f64": (np.float64, np.uint64),
}
FORMATS = [(5, 10), (8, 7), (5, 2), (4, 3), (11, 52), (8, 23), (5, 0), (2, 1)]


def _values(float_type: type, bits_type: type) -> np.ndarray:
    rng = np.random.default_rng(3)
    info = np.iinfo(bits_type)
    bits = rng.integers(0, info.max, size=256, dtype=bits_type, endpoint=True)
    with np.errstate(over="ignore"):  # 65520 and up are inf in f16
        special = np.array(
            [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, 65504.0, 65520.0, 1e-40],
            float_type,
        )
    tiny = np.array([1, 2, 3, info.max // 2], bits_type).view(float_type)
    return np.concatenate([bits.view(float_type), special, tiny])


@pytest.mark.parametrize(
    "target, pipeline", [("cpu", None), ("interpreter", "decompose")]
)
@pytest.mark.parametrize("type_name", FLOATS)
def test_decomposition_matches_the_kernel(
    type_name: str, target: str, pipeline: str | None
) -> None:
    float_type, bits_type = FLOATS[type_name]
    x = _values(float_type, bits_type)
    t = f"tensor<{x.size}x{type_name}>"
    body = "".join(
        f"  %r{i} = stablehlo.reduce_precision %x, format = e{e}m{m} : {t}\n"
        for i, (e, m) in enumerate(FORMATS)
    )
    results = ", ".join(f"%r{i}" for i in range(len(FORMATS)))
    types = ", ".join([t] * len(FORMATS))
    program = (
        f"func.func @main(%x: {t}) -> ({types}) {{\n{body}"
        f"  func.return {results} : {types}\n}}\n"
    )
    reference = xlir.compile(program, target="interpreter", pipeline="")(x)
    got = xlir.compile(program, target=target, pipeline=pipeline)(x)
    for (e, m), want, have in zip(FORMATS, reference, got, strict=True):
        np.testing.assert_array_equal(
            have.view(bits_type), want.view(bits_type), err_msg=f"e{e}m{m}"
        )

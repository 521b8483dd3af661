"""Regenerate the shape-polymorphic test programs: `jax.export` with a
symbolic batch dimension `b`, so the text has `tensor<?x...>` arguments,
`get_dimension_size`, JAX's shape assertion and its dimension arithmetic.

    python tests/e2e/programs/shape_poly/export.py   (needs the bench extra)

For each program it writes NAME.mlir (the export's `mlir_module()`, with the
script's path in locations cut to its file name) and NAME.b{N}.npz for a few
concrete batch sizes N: arg0, ... the inputs, out0, ... JAX's outputs.
"""

from __future__ import annotations

import os
import re
import zlib
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np
from jax import export

HERE = Path(__file__).resolve().parent
BATCHES = (1, 3, 8)


def dot_tanh(x, w):
    return jnp.tanh(x @ w)


def reshape_pairs(x):
    return x.reshape(-1, 4) * 2.0


def mean_rows(x):
    return jnp.mean(x, axis=0)


def cumsum_rows(x):
    return jnp.cumsum(x, axis=0)


PROGRAMS = {
    "dot_tanh": (dot_tanh, lambda b: [(b, 16), (16, 8)]),
    "reshape_pairs": (reshape_pairs, lambda b: [(b, 8)]),
    "mean_rows": (mean_rows, lambda b: [(b, 8)]),
    "cumsum_rows": (cumsum_rows, lambda b: [(b, 3)]),
}


def main() -> None:
    (b,) = export.symbolic_shape("b")
    for name, (fn, shapes) in PROGRAMS.items():
        specs = [jax.ShapeDtypeStruct(s, jnp.float32) for s in shapes(b)]
        text = export.export(jax.jit(fn))(*specs).mlir_module()
        text = re.sub(r'loc\("[^"]*/([^/"]+\.py)"', r'loc("\1"', text)
        (HERE / f"{name}.mlir").write_text(text)
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        for n in BATCHES:
            args = [rng.standard_normal(s).astype(np.float32) for s in shapes(n)]
            outs = jax.jit(fn)(*args)
            outs = outs if isinstance(outs, tuple) else (outs,)
            arrays = {f"arg{i}": a for i, a in enumerate(args)}
            arrays |= {f"out{i}": np.asarray(o) for i, o in enumerate(outs)}
            np.savez(HERE / f"{name}.b{n}.npz", **arrays)


if __name__ == "__main__":
    main()

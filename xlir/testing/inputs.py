"""Argument arrays for random programs: ordinary values with edge cases mixed
in (NaN, +-inf, +-0, denormals, the largest finite values, integer extremes,
shift amounts at and past the width), seeded and deterministic."""

from __future__ import annotations

import numpy as np

from xlir.targets.interpreter.types import round_bf16
from xlir.testing.program import TType


def host_dtype(type_: TType) -> np.dtype:
    """The dtype that holds the type on the host (float32 for bf16)."""
    if type_.is_bool:
        return np.dtype(np.bool_)
    if type_.element == "bf16":
        return np.dtype(np.float32)
    if type_.is_float:
        return np.dtype(type_.element.replace("f", "float"))
    kind = "u" if type_.element.startswith("u") else "i"
    return np.dtype(f"{kind}{type_.bits // 8}")


def _float_specials(type_: TType) -> list[float]:
    if type_.element == "bf16":
        tiny, largest, subnormal = 1.1754944e-38, 3.3895314e38, 9.2e-41
    else:
        info = np.finfo(host_dtype(type_))
        tiny, largest = float(info.tiny), float(info.max)
        subnormal = float(info.smallest_subnormal)
    return [
        np.nan,
        np.inf,
        -np.inf,
        0.0,
        -0.0,
        subnormal,
        -subnormal,
        tiny,
        largest,
        -largest,
        1.0,
        -1.0,
        0.5,
    ]


def _int_specials(type_: TType) -> list[int]:
    info = np.iinfo(host_dtype(type_))
    width = type_.bits
    values = [info.min, info.max, 0, 1, width - 1, width, width + 1, 2 * width]
    if type_.is_signed:
        values += [-1, info.min + 1, -width]
    return values


def random_array(type_: TType, rng: np.random.Generator, edge_rate: float = 0.2):
    """An array of the type: small ordinary values, and edge cases at about
    `edge_rate` of the elements."""
    dtype = host_dtype(type_)
    shape = type_.shape
    if type_.is_bool:
        return np.asarray(rng.random(shape) < 0.5)
    specials: list = _float_specials(type_) if type_.is_float else _int_specials(type_)
    if type_.is_float:
        ordinary = rng.standard_normal(shape) * rng.choice([1.0, 4.0, 100.0])
        if rng.random() < 0.3:  # whole numbers, where rounding modes differ
            ordinary = np.round(ordinary * 2) / 2
    else:
        low = 0 if not type_.is_signed else -12
        ordinary = rng.integers(low, 13, size=shape)
    array = np.asarray(ordinary).astype(dtype)
    edges = rng.random(shape) < edge_rate
    if edges.any():
        picks = rng.integers(0, len(specials), size=int(edges.sum()))
        chosen = np.array([specials[i] for i in picks], dtype=dtype)
        array[edges] = chosen
    if type_.element == "bf16":
        array = round_bf16(array)
    return np.asarray(array, dtype=dtype)

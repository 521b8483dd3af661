"""Argument arrays for random programs: ordinary values with edge cases mixed
in (NaN, +-inf, +-0, denormals, the largest finite values, integer extremes,
shift amounts at and past the width), seeded and deterministic."""

from __future__ import annotations

from functools import cache

import ml_dtypes
import numpy as np
from xdsl.ir import Attribute
from xdsl.parser import Parser

from xlir.context import make_context
from xlir.element_dtypes import ml_dtype_of
from xlir.evaluator.hlo.types import dtype_of, rounding_by_name
from xlir.testing.program import TType


def host_dtype(type_: TType) -> np.dtype:
    """The dtype the evaluator holds the type in (`evaluator/hlo/types.py`:
    float32 for bf16 and the float8/6/4 types, 8-bit integers for 2- and
    4-bit ones)."""
    return dtype_of(_element_type(type_.element))


@cache
def _element_type(spelling: str) -> Attribute:
    return Parser(make_context(), spelling).parse_type()


def int_info(type_: TType) -> ml_dtypes.iinfo | np.iinfo:
    """The integer type's range (2- and 4-bit ones too)."""
    narrow = ml_dtype_of(type_.element)
    return ml_dtypes.iinfo(narrow) if narrow else np.iinfo(host_dtype(type_))


def float_info(type_: TType) -> ml_dtypes.finfo | np.finfo:
    """The float type's range and precision (bf16 and the narrow ones too)."""
    narrow = ml_dtype_of(type_.element)
    return ml_dtypes.finfo(narrow) if narrow else np.finfo(host_dtype(type_))


def _float_specials(type_: TType) -> list[float]:
    info = float_info(type_)
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
    info = int_info(type_)
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
        largest = float(float_info(type_).max)
        ordinary = np.clip(ordinary, -largest, largest)
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
    fix = rounding_by_name(type_.element)
    if fix is not None:  # to values of the type (inf and NaN too, where it has none)
        with np.errstate(all="ignore"):
            array = fix(array)
    return np.asarray(array, dtype=dtype)

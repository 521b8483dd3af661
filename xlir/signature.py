"""What a compiled function takes and returns (`Signature`, `TensorSpec`) and
its memory figures (`MemoryStats`), read off a module at the HLO level
(tensors) or the loop level (buffers). Below the targets: the API, shape
polymorphism, passes and every target use them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute

from xlir.diagnostics import XlirError
from xlir.dialects.stablehlo.shape_rules import shape_text
from xlir.element_dtypes import array_dtype, from_void, is_ml_dtype, value_kind


@dataclass(frozen=True)
class TensorSpec:
    """One argument or result: its name, shape and element type."""

    name: str
    shape: tuple[int, ...]
    element_type: str
    """The MLIR spelling, e.g. `f32`, `bf16`, `i1`, `ui8`."""
    dtype: np.dtype
    """The dtype of its arrays in and out of the API: numpy's, or
    `ml_dtypes`' for the types numpy lacks (`xlir/element_dtypes.py`)."""

    @staticmethod
    def from_type(name: str, type_: Attribute) -> TensorSpec:
        if not isinstance(type_, TensorType):
            raise XlirError(f"error: {name} has type {type_}, expected a tensor")
        element = type_.get_element_type()
        dtype = array_dtype(element)
        if dtype is None:
            raise XlirError(
                f"error: {name} has element type {element}, which has no "
                "host representation"
            )
        return TensorSpec(name, tuple(type_.get_shape()), str(element), dtype)

    @property
    def type_text(self) -> str:
        dims = "".join(f"{'?' if d < 0 else d}x" for d in self.shape)
        return f"tensor<{dims}{self.element_type}>"

    @property
    def is_dynamic(self) -> bool:
        """Whether a size is `?` (a shape-polymorphic program's argument)."""
        return any(d < 0 for d in self.shape)

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize

    def __str__(self) -> str:
        return f"{self.name}: {self.type_text}"


@dataclass(frozen=True)
class Signature:
    """What an executable expects and returns."""

    function: str
    arguments: tuple[TensorSpec, ...]
    results: tuple[TensorSpec, ...]

    def __str__(self) -> str:
        args = ", ".join(str(a) for a in self.arguments)
        results = ", ".join(r.type_text for r in self.results)
        return f"@{self.function}({args}) -> ({results})"

    def check_arguments(self, arrays: Sequence[Any]) -> list[np.ndarray]:
        """The arguments as numpy arrays of the expected dtypes, or a
        ValueError naming the first argument that does not fit."""
        if len(arrays) != len(self.arguments):
            names = ", ".join(a.name for a in self.arguments) or "none"
            raise ValueError(
                f"@{self.function} expects {len(self.arguments)} argument(s) "
                f"({names}), but {len(arrays)} were given"
            )
        checked: list[np.ndarray] = []
        for spec, value in zip(self.arguments, arrays, strict=True):
            checked.append(_check_argument(spec, value))
        return checked


def _check_argument(spec: TensorSpec, value: Any) -> np.ndarray:
    """`value` as an array of the spec's dtype and shape. An array of another
    dtype is taken only where the spec's type has no numpy dtype of its own
    and the values are of its kind (floats for bf16 or f8, rounded to the
    type; integers for i4, wrapped around), or as the raw bytes of such a
    type (a void array, as `.npz` files hold `ml_dtypes` arrays); a Python
    value or list may be of any kind the dtype holds."""
    want = value_kind(spec.dtype)
    if isinstance(value, np.ndarray | np.generic):
        array = from_void(np.asarray(value), spec.dtype)
        narrow = is_ml_dtype(spec.dtype) and value_kind(array.dtype) == want
        if array.dtype != spec.dtype and not narrow:
            raise ValueError(
                f"argument {spec.name}: expected dtype {spec.dtype} "
                f"({spec.type_text}), but got {array.dtype}"
            )
    else:
        try:
            array = np.asarray(value)
        except Exception as error:  # ragged lists and the like
            raise ValueError(
                f"argument {spec.name}: expected {spec.type_text}, but got a "
                f"{type(value).__name__} that is not an array ({error})"
            ) from None
        kinds = {"b": "b", "i": "iu", "u": "iu", "f": "iuf"}
        if array.dtype.kind not in kinds.get(want, ""):
            raise ValueError(
                f"argument {spec.name}: expected dtype {spec.dtype} "
                f"({spec.type_text}), but got {array.dtype}"
            )
    array = array.astype(spec.dtype, copy=False)
    if len(array.shape) != len(spec.shape) or any(
        want_size >= 0 and want_size != size
        for want_size, size in zip(spec.shape, array.shape, strict=True)
    ):
        raise ValueError(
            f"argument {spec.name}: expected shape {shape_text(spec.shape)} "
            f"({spec.type_text}), but got {list(array.shape)}"
        )
    return array


@dataclass(frozen=True)
class MemoryStats:
    """XLA's CompiledMemoryStats figures, in bytes."""

    argument_size_in_bytes: int = 0
    output_size_in_bytes: int = 0
    alias_size_in_bytes: int = 0
    temp_size_in_bytes: int = 0
    constant_size_in_bytes: int = 0
    generated_code_size_in_bytes: int = 0
    scratchpad_size_in_bytes: int = 0
    """On-chip memory the kernels stage their buffers in (the most one kernel
    takes: its high-water mark); 0 where the device has none."""

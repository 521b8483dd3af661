"""The runtime of `reference-f64`: the interpreter's device (the host's
numpy arrays) and evaluator, run on a copy of the module widened to f64;
arguments go in as f64 and results come back rounded to their types."""

from __future__ import annotations

from collections.abc import Sequence

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xlir.evaluator.hlo import ModuleInterpreter
from xlir.targets.base import Executable, ProgramRecord
from xlir.targets.interpreter import (
    InterpreterCompiler,
    InterpreterExecutable,
)

from xlir.context import make_context
from xlir_reference_f64.widen import WidenToF64Pass


class ReferenceF64Compiler(InterpreterCompiler):
    def run_backend(
        self,
        module: ModuleOp,
        record: ProgramRecord,
        sources: dict[str, str] | None = None,
    ) -> Executable:
        widened = module.clone()
        WidenToF64Pass().apply(make_context(), widened)
        image = ModuleInterpreter(widened, sources)
        return F64Executable(
            self.platform, record.signature, module, image, record.stats
        )


class F64Executable(InterpreterExecutable):
    """Floats in as f64, results rounded back to the program's types (the
    runtime's executor calls `run` with host arrays of the signature's
    dtypes)."""

    def run(self, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
        wide = [_wide(a) for a in arrays]
        results = self.image.call(self.signature.function, wide)
        return [
            np.asarray(r).astype(spec.dtype)
            for r, spec in zip(results, self.signature.results, strict=True)
        ]


NARROW = {np.dtype(np.float16), np.dtype(np.float32), np.dtype(ml_dtypes.bfloat16)}


def _wide(array: np.ndarray) -> np.ndarray:
    """The arrays of the types `widen` widened, as f64 (complex128)."""
    dtype = np.asarray(array).dtype
    if dtype in NARROW:
        return np.asarray(array, dtype=np.float64)
    if dtype == np.complex64:
        return np.asarray(array, dtype=np.complex128)
    return array

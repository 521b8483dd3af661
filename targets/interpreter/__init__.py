"""The `interpreter` target: runs stablehlo, chlo, func and check ops on
numpy arrays, with StableHLO's semantics. It is the reference every other
target is compared with.

Its device is the host (`targets/host_memory.py`): an executable of the HLO
level is one kernel on it; a module at the loop level runs its host schedule
through the generic executor of the `device` dialect
(`targets/device_schedule.py`), its kernels run by the loop evaluator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType
from xlir.dialects.hlo import complex_signature_type
from xlir.targets.base import (
    Compiler,
    Executable,
    HostExecutable,
    Platform,
    Signature,
    StreamExecutor,
    TensorSpec,
)

# Kernel modules register themselves in the engine's table on import.
from xlir.targets.interpreter import (  # noqa: F401
    check,
    chlo,
    contraction,
    control_flow,
    data_movement,
    elementwise,
    indexing,
    linalg,
    normalization,
    reduction,
    rng,
)
from xlir.targets.interpreter.engine import KERNELS, ModuleInterpreter
from xlir.targets.interpreter.types import rounding_by_name

from xlir.diagnostics import XlirError
from xlir.element_types import array_dtype
from xlir.levels import is_loop_level

__all__ = [
    "KERNELS",
    "InterpreterCompiler",
    "InterpreterExecutable",
    "InterpreterPlatform",
    "ModuleInterpreter",
    "function_signature",
]


class InterpreterPlatform(Platform):
    name = "interpreter"

    def device_count(self) -> int:
        return 1

    def _make_executor(self, ordinal: int) -> StreamExecutor:
        from xlir.targets.host_memory import HostMemoryExecutor

        return HostMemoryExecutor(self, ordinal)

    def compiler(self) -> Compiler:
        return InterpreterCompiler(self)


def _tensor_spec(name: str, type_: Any) -> TensorSpec:
    """A TensorSpec with the dtype arrays of the type have in the API
    (`ml_dtypes`' for bf16, float8, int4, ...; the storage integers of
    quantized types); the executor holds them in its host dtypes."""
    if not isinstance(type_, TensorType):
        raise XlirError(f"error: {name} has type {type_}, expected a tensor")
    element = type_.get_element_type()
    dtype = array_dtype(element)
    if dtype is None:
        raise XlirError(
            f"error: {name} has element type {element}, which has no host "
            "representation"
        )
    return TensorSpec(name, tuple(type_.get_shape()), str(element), dtype)


def _host_types(types: Sequence[Any], attrs: Any) -> list[Any]:
    """The types the host passes: complex where `split-complex` left a
    complex tensor as its interleaved parts (passes/hlo/split_complex.py)."""
    dictionaries = list(attrs.data) if attrs is not None else [None] * len(types)
    return [
        complex_signature_type(t, a) for t, a in zip(types, dictionaries, strict=True)
    ]


def function_signature(module: ModuleOp, function: str) -> Signature:
    for op in module.walk():
        if op.name != "func.func":
            continue
        name = op.properties.get("sym_name") or op.attributes.get("sym_name")
        if getattr(name, "data", None) != function:
            continue
        ftype = op.properties.get("function_type") or op.attributes.get("function_type")
        inputs = _host_types(ftype.inputs.data, op.properties.get("arg_attrs"))  # type: ignore[union-attr]
        outputs = _host_types(ftype.outputs.data, op.properties.get("res_attrs"))  # type: ignore[union-attr]
        return Signature(
            function,
            tuple(_tensor_spec(f"arg{i}", t) for i, t in enumerate(inputs)),
            tuple(_tensor_spec(f"result{i}", t) for i, t in enumerate(outputs)),
        )
    names = [
        getattr(op.properties.get("sym_name"), "data", "?")
        for op in module.walk()
        if op.name == "func.func"
    ]
    known = ", ".join(f"@{n}" for n in names) or "none"
    raise XlirError(
        f"error: there is no function @{function} in the module (functions: {known})"
    )


class InterpreterCompiler(Compiler):
    def run_backend(
        self,
        module: ModuleOp,
        function: str = "main",
        sources: dict[str, str] | None = None,
    ) -> Executable:
        """Loop-level modules (after hlo-to-loop) run their host schedule,
        with the loop evaluator's kernels."""
        # Imported here: both import the loop evaluator, which imports this
        # package's element types.
        from xlir.targets.device_schedule import DeviceScheduleExecutable

        if is_loop_level(module):
            image = self.compile_kernels(module, sources)
            return DeviceScheduleExecutable(
                self.platform, module, image, function, sources
            )
        signature = function_signature(module, function)
        image = ModuleInterpreter(module, sources)
        return InterpreterExecutable(self.platform, signature, module, image)

    def compile_kernels(
        self, module: ModuleOp, sources: dict[str, str] | None = None
    ) -> Any:
        from xlir.targets.host_memory import LoopKernels

        return LoopKernels(module, sources)


class InterpreterExecutable(HostExecutable):
    def __init__(
        self,
        platform: Platform,
        signature: Signature,
        module: ModuleOp,
        image: ModuleInterpreter,
    ):
        super().__init__(platform, signature, module)
        self.image = image

    @property
    def check_failures(self) -> list[str]:
        return self.image.check_failures

    def run(self, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Run on host arrays of the signature's dtypes, narrow types held
        as the wider one that computes them (bf16 as float32, int4 as int8)."""
        held = []
        for spec, array in zip(self.signature.arguments, arrays, strict=True):
            round_to_type = rounding_by_name(spec.element_type)
            held.append(array if round_to_type is None else round_to_type(array))
        return [np.asarray(r) for r in self.image.call(self.signature.function, held)]

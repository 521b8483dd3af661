"""The `interpreter` target: runs stablehlo, chlo, func and check ops on
numpy arrays, with StableHLO's semantics. It is the reference every other
target is compared with.

Its device is the host: device memory is numpy arrays, copies are array
copies, streams run their work at once, and a "kernel image" is a prepared
module (`ModuleInterpreter`) whose functions are launched by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType
from xlir.dialects.hlo import complex_signature_type
from xlir.targets.base import (
    Compiler,
    DeviceBuffer,
    Executable,
    Platform,
    Signature,
    Stream,
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
    "InterpreterExecutor",
    "InterpreterPlatform",
    "ModuleInterpreter",
    "function_signature",
]


class InterpreterExecutor(StreamExecutor):
    """The host as a device: buffers hold numpy arrays."""

    def allocate(self, size_in_bytes: int) -> DeviceBuffer:
        self._count(size_in_bytes)
        return DeviceBuffer(self.ordinal, size_in_bytes)

    def deallocate(self, buffer: DeviceBuffer) -> None:
        if not buffer.freed:
            self._count(-buffer.size_in_bytes)
            buffer.freed = True
            buffer.handle = None

    def copy_host_to_device(self, buffer: DeviceBuffer, host: np.ndarray) -> None:
        """Into the interpreter's host dtype: narrow types as the wider one
        that computes them (rounding brings bf16 to float32, int4 to int8)."""
        array = np.array(host, copy=True)
        round_to_type = rounding_by_name(buffer.element_type)
        if round_to_type is not None:
            array = round_to_type(array)
        buffer.handle = array
        buffer.shape = tuple(array.shape)

    def copy_device_to_host(self, host: np.ndarray, buffer: DeviceBuffer) -> None:
        if buffer.handle is None:
            raise XlirError("error: copy from a device buffer that holds no data")
        host[...] = buffer.handle

    def create_stream(self) -> Stream:
        return Stream(self, eager=True)

    def load_kernel(self, image: Any, name: str) -> Any:
        if not isinstance(image, ModuleInterpreter):
            raise XlirError("error: the interpreter loads prepared modules only")
        if name not in image.programs:
            raise XlirError(f"error: the module has no function @{name} to load")
        return (image, name)

    def launch(self, stream: Stream, kernel: Any, arguments: Sequence[Any]) -> None:
        image, name = kernel
        inputs, outputs = arguments

        def run() -> None:
            results = image.call(name, [b.handle for b in inputs])
            for buffer, value in zip(outputs, results, strict=True):
                value = np.asarray(value)
                buffer.handle = value if value.flags.writeable else value.copy()
                buffer.shape = tuple(value.shape)

        stream.enqueue(run)


class InterpreterPlatform(Platform):
    name = "interpreter"

    def device_count(self) -> int:
        return 1

    def _make_executor(self, ordinal: int) -> StreamExecutor:
        return InterpreterExecutor(self, ordinal)

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
        """Loop-level modules (after hlo-to-loop) run on the loop interpreter."""
        from xlir.targets.loop_interpreter import LoopExecutable

        if is_loop_level(module):
            return LoopExecutable(self.platform, module, function, sources)
        signature = function_signature(module, function)
        image = ModuleInterpreter(module, sources)
        return InterpreterExecutable(self.platform, signature, module, image)


class InterpreterExecutable(Executable):
    def __init__(
        self,
        platform: Platform,
        signature: Signature,
        module: ModuleOp,
        image: ModuleInterpreter,
    ):
        super().__init__(platform, signature, module)
        self.image = image
        executor = platform.executor(self.device)
        self._kernel = executor.load_kernel(image, signature.function)

    @property
    def check_failures(self) -> list[str]:
        return self.image.check_failures

    def execute(
        self, arguments: Sequence[DeviceBuffer], stream: Stream
    ) -> list[DeviceBuffer]:
        executor = stream.executor
        outputs = self.allocate_outputs(executor)
        executor.launch(stream, self._kernel, (list(arguments), outputs))
        return outputs

    def run(self, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Run on already checked host arrays, without the device round trip."""
        return [np.asarray(r) for r in self.image.call(self.signature.function, arrays)]

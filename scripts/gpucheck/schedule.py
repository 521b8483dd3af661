"""An xlir nvptx program run from its files alone: `model.manifest.json`
(the host schedule as data; docs/nvptx.md) and its image (`model.ptx` or
`model.cubin`), through a `cuda.Driver`.

`LoadedProgram` loads the image and looks up every kernel, allocates every
buffer of the manifest (constants filled from their data), copies inputs
in, runs the steps (launch, copy, while, if) in order on the default
stream, and copies the outputs out.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gpucheck.cuda import Driver, Module

FORMAT = "xlir-nvptx-manifest"
VERSION = 1
MAX_ITERATIONS = 1 << 20
"""A `while` step that runs longer than this is an error, not a hang."""


class ManifestError(Exception):
    """A manifest this runner cannot run: what was found, what was expected."""


def read_manifest(path: Path) -> dict[str, Any]:
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ManifestError(f"{path}: {error}") from None
    if manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
        raise ManifestError(
            f"{path}: format {manifest.get('format')!r} version "
            f"{manifest.get('version')!r}; expected {FORMAT!r} version {VERSION}"
        )
    return manifest


def dtype_of(name: str) -> np.dtype:
    """A manifest's dtype name as numpy's (bfloat16 and friends through
    ml_dtypes where it is installed)."""
    try:
        return np.dtype(name)
    except TypeError:
        import importlib

        try:
            return np.dtype(getattr(importlib.import_module("ml_dtypes"), name))
        except (ImportError, AttributeError):
            raise ManifestError(f"unknown dtype {name!r}") from None


class LoadedProgram:
    """One program's image loaded and its buffers allocated on `driver`."""

    def __init__(self, driver: Driver, manifest: dict[str, Any], image: bytes):
        self.driver = driver
        self.manifest = manifest
        self.module: Module = driver.load_module(image)
        self.kernels: dict[str, tuple[int, dict[str, Any]]] = {}
        self.buffers: dict[int, int] = {}
        self.iterations = 0
        try:
            for kernel in manifest["kernels"]:
                handle = driver.function(self.module, kernel["name"])
                self.kernels[kernel["name"]] = (handle, kernel)
            for buffer in manifest["buffers"]:
                pointer = driver.allocate(int(buffer["bytes"]))
                self.buffers[int(buffer["id"])] = pointer
                data = buffer.get("data")
                if data is not None:
                    raw = np.frombuffer(base64.b64decode(data), dtype=np.uint8)
                    if raw.size != int(buffer["bytes"]):
                        raise ManifestError(
                            f"buffer {buffer['id']}: {raw.size} bytes of data for "
                            f"{buffer['bytes']} bytes"
                        )
                    driver.to_device(pointer, raw)
        except Exception:
            self.release()
            raise

    def kernel_attributes(self) -> dict[str, dict[str, int]]:
        return {
            name: self.driver.function_attributes(handle)
            for name, (handle, _) in self.kernels.items()
        }

    def address(self, place: dict[str, Any]) -> int:
        buffer = int(place["buffer"])
        if buffer not in self.buffers:
            raise ManifestError(f"no buffer {buffer} in the manifest")
        return self.buffers[buffer] + int(place.get("offset", 0))

    def set_inputs(self, arrays: Sequence[np.ndarray]) -> None:
        inputs = self.manifest["inputs"]
        if len(arrays) != len(inputs):
            raise ManifestError(f"{len(arrays)} inputs for {len(inputs)} parameters")
        for index, (array, spec) in enumerate(zip(arrays, inputs, strict=True)):
            dtype, shape = dtype_of(spec["dtype"]), tuple(spec["shape"])
            if array.shape != shape or array.dtype != dtype:
                raise ManifestError(
                    f"input {index}: {array.dtype}{list(array.shape)}; expected "
                    f"{dtype}{list(shape)}"
                )
            self.driver.to_device(self.address(spec), array)

    def outputs(self) -> list[np.ndarray]:
        self.driver.synchronize()
        results = []
        for spec in self.manifest["outputs"]:
            host = np.empty(tuple(spec["shape"]), dtype_of(spec["dtype"]))
            self.driver.to_host(host, self.address(spec))
            results.append(host)
        return results

    def run(self) -> None:
        """The schedule's steps, enqueued (a `while` or `if` waits for the
        device to read its condition)."""
        self.steps(self.manifest["steps"])

    def steps(self, steps: Sequence[dict[str, Any]]) -> None:
        for step in steps:
            match step.get("op"):
                case "launch":
                    self.launch(step)
                case "copy":
                    self.driver.copy(
                        self.address(step["dst"]),
                        self.address(step["src"]),
                        int(step["bytes"]),
                    )
                case "while":
                    self.loop(step)
                case "if":
                    branch = step["then"] if self.test(step["test"]) else step["else"]
                    self.steps(branch)
                case other:
                    raise ManifestError(
                        f"step {other!r}: expected launch, copy, while or if"
                    )

    def launch(self, step: dict[str, Any]) -> None:
        name = step["kernel"]
        if name not in self.kernels:
            raise ManifestError(f"launch of {name}: not among the manifest's kernels")
        handle, kernel = self.kernels[name]
        kinds = kernel["params"]
        arguments = step["args"]
        if len(kinds) != len(arguments):
            raise ManifestError(
                f"launch of {name}: {len(arguments)} arguments for {len(kinds)} params"
            )
        parameters: list[tuple[str, int | float]] = []
        for kind, argument in zip(kinds, arguments, strict=True):
            if "buffer" in argument:
                parameters.append(("ptr", self.address(argument)))
            else:
                parameters.append((argument.get("type", kind), argument["value"]))
        self.driver.launch(
            handle,
            kernel["grid"],
            kernel["block"],
            int(kernel.get("shared_bytes", 0)),
            parameters,
        )

    def test(self, place: dict[str, Any]) -> bool:
        """The scalar at `place`, read once the work before it is done."""
        host = np.empty((), dtype_of(place["dtype"]))
        self.driver.synchronize()
        self.driver.to_host(host, self.address(place))
        return bool(host)

    def loop(self, step: dict[str, Any]) -> None:
        for _ in range(MAX_ITERATIONS):
            self.steps(step["cond"])
            if not self.test(step["test"]):
                return
            self.iterations += 1
            self.steps(step["body"])
        raise ManifestError(f"a while step ran {MAX_ITERATIONS} iterations")

    def release(self) -> None:
        for pointer in self.buffers.values():
            self.driver.free(pointer)
        self.buffers.clear()
        self.driver.unload(self.module)

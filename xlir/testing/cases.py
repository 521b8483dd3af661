"""What a fuzz worker runs (`worker.Worker.call` names these functions): one
program on one target, or one text through the parser, the verifier and a
pass pipeline. Each returns `(outcome, detail)`; outcomes:

* `ok`: it ran (detail: the outputs) or went through (detail: "");
* `diagnostic`: an error that names file:line:col (or an argument);
* `unlocated`: an error message without a location;
* `internal`: an exception that is not a diagnostic, or a diagnostic that
  reports an internal error (detail: type, message and where it was raised).
"""

from __future__ import annotations

import importlib
import re
import traceback
from io import StringIO
from typing import Any

import numpy as np

import xlir
from xlir.api import load_module
from xlir.context import make_context
from xlir.diagnostics import XlirError
from xlir.evaluator.hlo import ModuleInterpreter
from xlir.evaluator.hlo.flush import flush
from xlir.evaluator.hlo.types import as_held, store_held
from xlir.pass_manager import PassManager
from xlir.printing import BitExactPrinter
from xlir.targets.signatures import function_signature

LOCATED = re.compile(r"^[^\s:][^:\n]*:\d+:\d+: error: ", re.M)
"""A diagnostic's `file:line:col: error: ` head."""


def _internal(error: BaseException) -> tuple[str, str]:
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "/xdsl/" in f.filename or "xlir" in f.filename]
    where = (ours or frames)[-1] if frames else None
    at = f" (at {where.filename}:{where.lineno})" if where else ""
    message = str(error).splitlines()[0][:300] if str(error) else ""
    return "internal", f"{type(error).__name__}: {message}{at}"


def _diagnostic(message: str) -> tuple[str, str]:
    if "internal error" in message.partition("\n")[0]:  # not in the quoted source
        return "internal", message
    return ("diagnostic" if LOCATED.search(message) else "unlocated"), message


def run_program(
    text: str,
    arguments: list[np.ndarray],
    target: str,
    calls: int = 1,
    pipeline: str | None = None,
) -> tuple[str, Any]:
    """Compile `text` for `target` (with `pipeline`, None for the target's
    own) and call it `calls` times with the arguments; detail: the outputs
    of each call."""
    try:
        executable = xlir.compile(
            text, target=target, name="fuzz.mlir", pipeline=pipeline
        )
        runs = []
        for _ in range(calls):
            got = executable(*[np.copy(a) for a in arguments])
            runs.append(
                [np.asarray(g) for g in (got if isinstance(got, tuple) else (got,))]
            )
    except XlirError as error:
        return _diagnostic(str(error))
    except Exception as error:
        return _internal(error)
    return "ok", runs


def run_flushing_reference(text: str, arguments: list[np.ndarray]) -> tuple[str, Any]:
    """Run `text` on the evaluator as XLA:CPU computes, with f32 and f64
    denormals flushed to zero (`xlir.evaluator.hlo.flush`), the outputs
    too: XLA copies bf16 through f32 arithmetic now and then (a splat
    constant of rank 3, seed 41000849). Detail: the outputs, of the dtypes
    `run_program`'s are."""
    try:
        module, sources = load_module(text, "fuzz.mlir")
        signature = function_signature(module, "main")
        image = ModuleInterpreter(module, sources, flush_denormals=True)
        held = [
            as_held(a, spec.element_type)
            for spec, a in zip(signature.arguments, arguments, strict=True)
        ]
        outputs = []
        for spec, value in zip(
            signature.results, image.call("main", held), strict=True
        ):
            outputs.append(np.empty(spec.shape, spec.dtype))
            store_held(outputs[-1], flush(value))
    except XlirError as error:
        return _diagnostic(str(error))
    except Exception as error:
        return _internal(error)
    return "ok", outputs


def check_text(text: str, name: str, pipeline: str) -> tuple[str, str]:
    """Parse and verify `text`, run `pipeline` verifying after each pass,
    and print the result."""
    try:
        module, sources = load_module(text, name)
        PassManager(pipeline, verify_each=True, sources=sources).run(
            make_context(), module
        )
        BitExactPrinter(stream=StringIO()).print_op(module)
    except XlirError as error:
        return _diagnostic(str(error))
    except Exception as error:
        return _internal(error)
    return "ok", ""


def run_xla(
    text: str, arguments: list[np.ndarray], bf16: list[bool]
) -> tuple[str, Any]:
    """Compile `text` with XLA (JAX's CPU client) and run it once, a second
    reference where JAX is installed; `bf16` says which arguments are bf16
    (held as float32). Detail: the outputs (bf16 ones as `ml_dtypes.bfloat16`,
    as xlir returns them), or `unavailable` when JAX is not installed."""
    try:
        jax: Any = importlib.import_module("jax")
        importlib.import_module("jax.extend.backend")
        import jaxlib.xla_client as xla_client  # pyright: ignore[reportMissingImports]
        import ml_dtypes
    except ImportError:
        return "unavailable", "JAX is not installed"
    jax.config.update("jax_enable_x64", True)  # else 64-bit arrays shrink
    try:
        client = jax.extend.backend.get_backend("cpu")
        device = client.devices()[0]
        executable = client.compile_and_load(
            text, xla_client.DeviceList((device,)), xla_client.CompileOptions()
        )
        inputs = [
            jax.device_put(a.astype(ml_dtypes.bfloat16) if b else a, device)
            for a, b in zip(arguments, bf16, strict=True)
        ]
        results = executable.execute_sharded(inputs)
        outputs = [
            np.asarray(r[0]) for r in results.disassemble_into_single_device_arrays()
        ]
    except Exception as error:
        return _internal(error)
    return "ok", outputs

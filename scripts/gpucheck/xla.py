"""XLA (through JAX) on the same StableHLO text as xlir: its outputs and its
time, for `run` (a subprocess of it, so that JAX's GPU memory and any crash
stay out of the driver run) and for `prepare` (the bench programs' expected
outputs, on the CPU).

JAX has no public call that runs a StableHLO text. `text_function` wraps it
in a `jax.export.Exported`: one exported from a stand-in function of the
same argument and result types, its module replaced by the text (serialized
as JAX serializes its own), so that `jax.jit(exported.call)` compiles the
text for the device. Where that fails, it compiles the text with the
backend's own compiler (`compile_and_load`).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gpucheck.data import program_inputs, read_index


def jax_module() -> Any:
    return importlib.import_module("jax")


def platform_of(jax: Any) -> str:
    """jax.export's name of the default backend's platform."""
    backend = jax.default_backend()
    return {"gpu": "cuda"}.get(backend, backend)


def text_function(
    text: str,
    arguments: Sequence[np.ndarray],
    results: Sequence[tuple[tuple[int, ...], str]],
) -> tuple[Callable[..., Any], str]:
    """A callable running the StableHLO `text` on JAX's default device, and
    how it was made."""
    jax = jax_module()
    try:
        return _exported(jax, text, arguments, results), "jax.export"
    except Exception as first:
        try:
            return _compiled(jax, text), "backend.compile_and_load"
        except Exception as second:
            raise RuntimeError(
                f"jax.export: {type(first).__name__}: {first}; "
                f"compile_and_load: {type(second).__name__}: {second}"
            ) from None


def _exported(
    jax: Any,
    text: str,
    arguments: Sequence[np.ndarray],
    results: Sequence[tuple[tuple[int, ...], str]],
) -> Callable[..., Any]:
    jnp = importlib.import_module("jax.numpy")
    export = importlib.import_module("jax._src.export._export")
    mlir = importlib.import_module("jax._src.interpreters.mlir")
    ir = importlib.import_module("jax._src.lib.mlir").ir
    shapes = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in arguments]

    def stand_in(*_: Any) -> tuple[Any, ...]:
        return tuple(jnp.zeros(shape, dtype) for shape, dtype in results)

    exported = jax.export.export(jax.jit(stand_in), platforms=[platform_of(jax)])(
        *shapes
    )
    with mlir.make_ir_context():
        serialized = export._module_to_bytecode(ir.Module.parse(text))
    exported = dataclasses.replace(
        exported,
        mlir_module_serialized=serialized,
        module_kept_var_idx=tuple(range(len(arguments))),
    )
    call = jax.jit(exported.call)

    def run(*values: Any) -> list[Any]:
        return list(call(*values))

    return run


def _compiled(jax: Any, text: str) -> Callable[..., Any]:
    bridge = importlib.import_module("jax._src.xla_bridge")
    client = importlib.import_module("jax._src.lib").xla_client
    backend = bridge.get_backend()
    devices = client.DeviceList(tuple(backend.local_devices()[:1]))
    executable = backend.compile_and_load(text, devices, client.CompileOptions())

    def run(*values: Any) -> list[Any]:
        return list(executable.execute(list(values)))

    return run


def run_text(
    text: str,
    arguments: Sequence[np.ndarray],
    results: Sequence[tuple[tuple[int, ...], str]],
) -> list[np.ndarray]:
    """The outputs of the StableHLO `text` on `arguments`."""
    jax = jax_module()
    function, _ = text_function(text, arguments, results)
    return [np.asarray(o) for o in function(*[jax.device_put(a) for a in arguments])]


def time_programs(folder: Path, out: Path, repeats: int, warmup: int) -> int:
    """Every prepared program through XLA: its outputs into `out`/NAME.npz,
    its median wall time (ms, device-resident inputs, after `warmup` calls)
    and errors into `out`/xla.json."""
    jax = jax_module()
    index = read_index(folder)
    report: dict[str, Any] = {
        "jax": jax.__version__,
        "devices": [str(d) for d in jax.devices()],
        "platform": platform_of(jax),
        "programs": {},
    }
    for entry in index["programs"]:
        key = entry["dir"]
        try:
            text = (folder / entry["dir"] / "program.mlir").read_text()
            arguments = program_inputs(folder, entry)
            results = [(tuple(o["shape"]), o["dtype"]) for o in entry["outputs"]]
            function, method = text_function(text, arguments, results)
            values = [jax.device_put(a) for a in arguments]
            outputs = [np.asarray(o) for o in function(*values)]
            np.savez(out / f"{key.replace('/', '_')}.npz", *outputs)
            for _ in range(warmup):
                jax.block_until_ready(function(*values))
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                jax.block_until_ready(function(*values))
                times.append((time.perf_counter() - start) * 1e3)
            began = time.perf_counter()
            pending = [function(*values) for _ in range(repeats)]
            jax.block_until_ready(pending)
            amortized = (time.perf_counter() - began) * 1e3 / repeats
            del pending
            report["programs"][key] = {
                "ok": True,
                "method": method,
                "wall_ms": float(np.median(times)),
                "amortized_ms": amortized,
                "outputs": len(outputs),
            }
        except Exception as error:
            report["programs"][key] = {
                "ok": False,
                "error": f"{type(error).__name__}: {error}",
                "trace": traceback.format_exc(limit=3)[-2000:],
            }
        print(
            f"xla {key}: {report['programs'][key].get('wall_ms', 'failed')}",
            file=sys.stderr,
        )
    (out / "xla.json").write_text(json.dumps(report, indent=1))
    return 0

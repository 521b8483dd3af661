"""`gpu_check.py prepare`, on a machine with xlir: every program of the
corpus's small/ and bench/ compiled for the nvptx target (PTX and its
manifest by `xlir-compile --target nvptx`; cubins by ptxas where it is
installed, one per architecture of `CUBIN_SMS`: a cubin runs only on its
architecture's major version, where PTX is compiled for any newer GPU by
the driver), with its StableHLO text, inputs and expected outputs, into a
folder that `run` reads on the GPU machine (docs/nvptx.md).

small/NAME: the corpus's inputs and JAX's outputs, as they are. bench/NAME:
inputs drawn as the corpus's export script draws them (its recipe, so that
indices stay in range and divisors are not zero), the float ones stored as
a seed, mean and standard deviation (`data.normal_input`), the integer ones
as they are; expected outputs computed here by JAX on the CPU from the same
text and inputs, stored whole up to `SAMPLE` elements and as `SAMPLE`
evenly spaced elements beyond.

scaled/NAME_x64: each elementwise bench program of one size `n`, exported
afresh by JAX at `SCALE` times it (2^26 elements: 256 MiB an array, as the
copy roofline's), its data as bench/'s. At 1M elements a kernel lasts a
few microseconds, as long as the GPU takes to start and drain it; at this
size its fraction of the copy bandwidth is the kernel's own.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import shutil
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from gpucheck.data import FORMAT, INDEX, VERSION, checksum

SAMPLE = 1 << 16
"""Elements of an expected output stored whole; a larger one is sampled."""

STORED_FLOATS = 1 << 12
"""A float input up to this many elements is stored as it is."""

COMPILE_SECONDS = 600

SCALE = 64
"""How much larger the scaled/ programs are than their bench/ originals."""

CUBIN_SMS = (80, 90)
"""Cubins for the A100's and the H100's / H200's architectures."""


def corpus_programs(corpus: Path) -> list[tuple[str, str, Path]]:
    """(set, name, path) of the lowered flavour of every small and bench
    program."""
    found = [("small", p.stem, p) for p in sorted((corpus / "small").glob("*.mlir"))]
    found += [("bench", p.stem, p) for p in sorted((corpus / "bench").glob("*.mlir"))]
    return [(s, n, p) for s, n, p in found if ".export" not in p.name]


def small_name(name: str, tolerances: dict[str, Any]) -> str:
    """The small program a bench program is (`gelu` for `gelu_1m`)."""
    return next(
        n for n in sorted(tolerances, key=len, reverse=True) if name.startswith(n)
    )


def compile_program(folder: Path, sm: int) -> dict[str, Any]:
    """model.ptx and model.manifest.json by xlir-compile, and
    model.smNN.cubin by ptxas for each of `CUBIN_SMS` where it is installed;
    what went wrong, if anything."""
    tool = shutil.which("xlir-compile") or str(
        Path(sys.executable).parent / "xlir-compile"
    )
    command = [
        tool,
        "--target",
        "nvptx",
        "--sm",
        str(sm),
        "-o",
        str(folder / "model.ptx"),
    ]
    try:
        done = subprocess.run(
            [*command, str(folder / "program.mlir")],
            capture_output=True,
            text=True,
            timeout=COMPILE_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"compile_error": f"xlir-compile ran over {COMPILE_SECONDS} s"}
    if done.returncode != 0 or not (folder / "model.manifest.json").exists():
        return {"compile_error": (done.stderr or done.stdout)[-4000:]}
    ptxas = importlib.import_module("xlir.targets.nvptx.ptxas")
    if ptxas.ptxas_path() is None:
        return {"cubins": {}, "cubin_error": "ptxas is not installed"}
    cubins: dict[str, str] = {}
    for arch in CUBIN_SMS:
        try:
            cubin, _ = ptxas.assemble((folder / "model.ptx").read_text(), arch)
        except Exception as error:
            return {"cubins": cubins, "cubin_error": str(error)[-4000:]}
        (folder / f"model.sm{arch}.cubin").write_bytes(cubin)
        cubins[str(arch)] = f"model.sm{arch}.cubin"
    return {"cubins": cubins}


@functools.cache
def export_script(corpus: Path) -> Any:
    """The corpus's export script as a module of its own name (it needs
    jax): the repository's scripts/ has an `export_corpus` too."""
    spec = importlib.util.spec_from_file_location(
        "corpus_export_corpus", corpus / "export_corpus.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench_inputs(corpus: Path, name: str) -> list[np.ndarray]:
    """The bench program's inputs drawn by the corpus's export script's
    recipe."""
    script = export_script(corpus)
    program = next(p for p in script.PROGRAMS if p["bench_name"] == name)
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return program["inputs"](rng, **program["bench"])


def scaled_programs(corpus: Path, names: list[str]) -> list[tuple[str, str, Any]]:
    """(name, StableHLO text, inputs) of `names`' scaled versions (module
    docstring): those bench programs whose recipe has one size, `n`."""
    script = export_script(corpus)
    jax = importlib.import_module("jax")
    found = []
    for program in script.PROGRAMS:
        if program["bench_name"] not in names or set(program["bench"]) != {"n"}:
            continue
        name = f"{program['bench_name']}_x{SCALE}"
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        inputs = program["inputs"](rng, n=program["bench"]["n"] * SCALE)
        shapes = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in inputs]
        function = script.renamed(program["fn"], name)
        found.append((name, jax.jit(function).lower(*shapes).as_text(), inputs))
    return found


def input_specs(
    arrays: list[np.ndarray], name: str
) -> tuple[list[dict[str, Any]], list[np.ndarray]]:
    """How each bench input travels (module docstring), and the inputs the
    GPU machine will use (large floats drawn again from their spec)."""
    specs: list[dict[str, Any]] = []
    used: list[np.ndarray] = []
    for index, array in enumerate(arrays):
        if array.dtype.kind != "f" or array.size <= STORED_FLOATS:
            specs.append(
                {
                    "stored": f"arg{index}",
                    "shape": list(array.shape),
                    "dtype": str(array.dtype),
                }
            )
            used.append(array)
            continue
        normal = {
            "seed": zlib.crc32(f"{name}/arg{index}".encode()),
            "shape": list(array.shape),
            "dtype": str(array.dtype),
            "mean": float(np.mean(array, dtype=np.float64)),
            "std": float(np.std(array, dtype=np.float64)),
        }
        drawn = importlib.import_module("gpucheck.data").normal_input(normal)
        specs.append(
            {
                "normal": normal,
                "crc32": checksum(drawn),
                "shape": normal["shape"],
                "dtype": normal["dtype"],
            }
        )
        used.append(drawn)
    return specs, used


def sampled(outputs: list[np.ndarray]) -> dict[str, np.ndarray]:
    """The expected outputs as `data.npz` stores them (module docstring)."""
    stored: dict[str, np.ndarray] = {}
    for index, output in enumerate(outputs):
        if output.size <= SAMPLE:
            stored[f"out{index}"] = output
            continue
        positions = np.linspace(0, output.size - 1, SAMPLE).astype(np.int64)
        stored[f"out{index}"] = output.reshape(-1)[positions]
        stored[f"pos{index}"] = positions
    return stored


def prepare(corpus: Path, out: Path, sm: int, only: list[str] | None) -> int:
    """Fill `out` (module docstring); the number of programs that did not
    compile (they are in the index with their error, and fail the run)."""
    tolerances = json.loads((corpus / "tolerances.json").read_text())["programs"]
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    expected_from = ""
    for kind, name, path in corpus_programs(corpus):
        if only and name not in only:
            continue
        text = path.read_text()
        base = name if kind == "small" else small_name(name, tolerances)
        if kind == "small":
            data = np.load(corpus / "small" / f"{name}.npz")
            count = sum(k.startswith("arg") for k in data.files)
            specs: list[dict[str, Any]] = [
                {
                    "stored": f"arg{i}",
                    "shape": list(data[f"arg{i}"].shape),
                    "dtype": str(data[f"arg{i}"].dtype),
                }
                for i in range(count)
            ]
            arrays = {k: data[k] for k in data.files}
            outputs = [data[f"out{i}"] for i in range(len(data.files) - count)]
        else:
            inputs = bench_inputs(corpus, name)
            specs, arrays, outputs = drawn_data(text, inputs, name)
            expected_from = _jax_version()
        entries.append(
            _prepared(
                out, kind, name, text, tolerances[base], specs, arrays, outputs, sm
            )
        )
    scalable = [e["name"] for e in entries if e["set"] == "bench" and e["elementwise"]]
    for name, text, inputs in scaled_programs(corpus, scalable) if scalable else []:
        specs, arrays, outputs = drawn_data(text, inputs, name)
        tolerance = tolerances[small_name(name, tolerances)]
        entries.append(
            _prepared(out, "scaled", name, text, tolerance, specs, arrays, outputs, sm)
        )
    index = {
        "format": FORMAT,
        "version": VERSION,
        "sm": sm,
        "xlir_commit": _commit(),
        "expected_from": {
            "small": "the corpus (JAX 0.10.2, XLA:CPU)",
            "bench": expected_from,
            "scaled": expected_from,
        },
        "programs": entries,
    }
    (out / INDEX).write_text(json.dumps(index, indent=1))
    return sum("compile_error" in e for e in entries)


def drawn_data(
    text: str, inputs: list[np.ndarray], name: str
) -> tuple[list[dict[str, Any]], dict[str, np.ndarray], list[np.ndarray]]:
    """A bench or scaled program's input specs, the arrays its data.npz
    stores, and JAX's outputs here on the inputs the GPU machine will use."""
    xla = importlib.import_module("gpucheck.xla")
    specs, used = input_specs(inputs, name)
    outputs = xla.run_text(text, used, _result_types(text, used))
    arrays = {
        **{s["stored"]: a for s, a in zip(specs, used, strict=True) if "stored" in s},
        **sampled(outputs),
    }
    return specs, arrays, outputs


def _prepared(
    out: Path,
    kind: str,
    name: str,
    text: str,
    tolerance: dict[str, Any],
    specs: list[dict[str, Any]],
    arrays: dict[str, np.ndarray],
    outputs: list[np.ndarray],
    sm: int,
) -> dict[str, Any]:
    """The program's folder written and compiled; its index entry."""
    folder = out / kind / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    (folder / "program.mlir").write_text(text)
    np.savez_compressed(folder / "data.npz", **arrays)
    compiled = compile_program(folder, sm)
    status = compiled.get("compile_error", "ok").splitlines()[-1:] or ["?"]
    print(f"prepare {kind}/{name}: {status[0][:200]}", file=sys.stderr)
    return {
        "name": name,
        "set": kind,
        "dir": f"{kind}/{name}",
        "tolerance": {
            "rtol": tolerance["rtol"],
            "atol": tolerance["atol"],
            "exact_outputs": tolerance["exact_outputs"],
        },
        "elementwise": tolerance["tier"] == "elementwise"
        and "stablehlo.reduce" not in text,
        "inputs": specs,
        "outputs": [{"shape": list(o.shape), "dtype": str(o.dtype)} for o in outputs],
        **compiled,
    }


def _jax_version() -> str:
    jax = importlib.import_module("jax")
    return f"jax {jax.__version__} ({jax.default_backend()})"


def _result_types(
    text: str, inputs: list[np.ndarray]
) -> list[tuple[tuple[int, ...], str]]:
    """The result types of @main, read by compiling it for the reference
    interpreter (the stand-in function of `xla.text_function` needs them)."""
    xlir = importlib.import_module("xlir")
    executable = xlir.compile(text, target="interpreter")
    return [
        (tuple(r.shape), str(np.dtype(r.dtype))) for r in executable.signature.results
    ]


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
            cwd=Path(__file__).parent,
        )
    except OSError:
        return ""
    return done.stdout.strip()

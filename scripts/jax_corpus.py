"""The one exporter of JAX programs into the corpus format of
`../shared/corpus` (its README describes the format): scripts/export_corpus.py
and benchmarks/broad_corpus.py each hold a list of programs and hand it to
`main`.

For a program NAME (bench name BENCH) in folder OUT it writes

    OUT/small/NAME.mlir          the lowered flavour: jax.jit(f).lower(*args).as_text()
    OUT/small/NAME.export.mlir   the export flavour: jax.export's module text,
                                 file locations cut to the script's bare name
    OUT/small/NAME.npz           arg0.. (the inputs), out0.. (JAX's outputs)
    OUT/bench/BENCH.mlir         the lowered flavour at benchmark shapes
    OUT/bench/BENCH.npz          with `bench_data`: inputs and JAX's outputs there

Inputs are drawn from numpy.random.default_rng(zlib.crc32(NAME)) (the bench
data's from BENCH), so a rerun writes the same data. JAX runs on the CPU.
Needs jax (the `bench` extra). Run the scripts as scripts: the export
flavour records the call stack in its locations.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import numpy as np

SMALL_NPZ_LIMIT = 256 * 1024
"""Bytes at most per small NAME.npz: the small corpus stays light to store."""

Inputs = Callable[..., list[np.ndarray]]
"""(rng, **dims) -> the program's positional arguments."""


@dataclass(frozen=True)
class Program:
    """A JAX function with how to draw its inputs at two sizes."""

    name: str
    bench_name: str
    function: Callable[..., Any]
    inputs: Inputs
    small: dict[str, Any]
    bench: dict[str, Any]

    def arguments(self, size: str) -> list[np.ndarray]:
        """Seeded inputs at `size` ("small" or "bench")."""
        name = self.name if size == "small" else self.bench_name
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        return self.inputs(rng, **(self.small if size == "small" else self.bench))

    def named(self, size: str) -> Callable[..., Any]:
        """The function under the file's name, which JAX gives the module
        (`@jit_NAME`)."""
        name = self.name if size == "small" else self.bench_name

        @functools.wraps(self.function)
        def renamed(*args: Any) -> Any:
            return self.function(*args)

        renamed.__name__ = renamed.__qualname__ = name
        return renamed


@dataclass
class ProgramList:
    """Programs in the order they are registered, by small name."""

    programs: dict[str, Program] = field(default_factory=dict)

    def add(
        self,
        inputs: Inputs,
        small: dict[str, Any],
        bench: dict[str, Any],
        bench_name: str | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator: registers the function under its own name (and its
        bench version under `bench_name`, by default the same)."""

        def register(function: Callable[..., Any]) -> Callable[..., Any]:
            name = function.__name__
            if name in self.programs:
                raise ValueError(f"program {name} is registered twice")
            self.programs[name] = Program(
                name, bench_name or name, function, inputs, small, bench
            )
            return function

        return register


def randn(
    rng: np.random.Generator, *shape: int, scale: float = 1.0, dtype: Any = np.float32
) -> np.ndarray:
    """Standard normal values times `scale`, rounded to `dtype`."""
    return (rng.standard_normal(shape) * scale).astype(dtype)


def run_jax(function: Callable[..., Any], arguments: Sequence[np.ndarray]) -> list:
    """JAX's outputs of `jax.jit(function)`, flattened in result order."""
    results = jax.jit(function)(*arguments)
    return [np.asarray(r) for r in jax.tree_util.tree_leaves(results)]


def lowered_text(function: Callable[..., Any], arguments: Sequence[Any]) -> str:
    """The lowered flavour (`arguments` may be shapes only)."""
    return jax.jit(function).lower(*arguments).as_text()


_FILE_LOCATION = re.compile(r'loc\("((?:[^"\\]|\\.)*)":(\d+)')


def without_folders(text: str) -> str:
    """`loc("/some/dir/file.py":L...` as `loc("file.py":L...`, so the text
    does not depend on where the script ran."""

    def bare(match: re.Match[str]) -> str:
        name = match.group(1).replace("\\", "/").rpartition("/")[2]
        return f'loc("{name}":{match.group(2)}'

    return _FILE_LOCATION.sub(bare, text)


def exported_text(function: Callable[..., Any], arguments: Sequence[Any]) -> str:
    """The export flavour, with bare file names in its locations."""
    module = jax.export.export(jax.jit(function))(*arguments).mlir_module()
    return without_folders(module)


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="\n")


def save_case(
    path: Path, arguments: Sequence[np.ndarray], outputs: Sequence[np.ndarray]
) -> None:
    """arg0.., out0.. as numpy.savez writes them."""
    arrays = {f"arg{i}": a for i, a in enumerate(arguments)}
    arrays |= {f"out{i}": o for i, o in enumerate(outputs)}
    np.savez(path, **arrays)


def export_small(program: Program, folder: Path) -> tuple[list, list]:
    """small/NAME.mlir, .export.mlir and .npz; returns (inputs, outputs)."""
    arguments = program.arguments("small")
    function = program.named("small")
    outputs = run_jax(function, arguments)
    write(folder / f"{program.name}.mlir", lowered_text(function, arguments))
    write(folder / f"{program.name}.export.mlir", exported_text(function, arguments))
    npz = folder / f"{program.name}.npz"
    save_case(npz, arguments, outputs)
    if npz.stat().st_size > SMALL_NPZ_LIMIT:
        raise SystemExit(
            f"{npz}: {npz.stat().st_size} bytes, above the small corpus's "
            f"{SMALL_NPZ_LIMIT}: make the program's small dims smaller"
        )
    return arguments, outputs


def export_bench(program: Program, folder: Path, with_data: bool) -> list:
    """bench/BENCH.mlir (and with `with_data` BENCH.npz); returns the inputs'
    shapes (or the inputs)."""
    arguments = program.arguments("bench")
    function = program.named("bench")
    if with_data:
        save_case(
            folder / f"{program.bench_name}.npz",
            arguments,
            run_jax(function, arguments),
        )
        shapes: list = arguments
    else:
        shapes = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in arguments]
    write(folder / f"{program.bench_name}.mlir", lowered_text(function, shapes))
    return shapes


def describe(arrays: Sequence[Any]) -> str:
    return ", ".join(f"{np.dtype(a.dtype).name}{list(a.shape)}" for a in arrays)


def main(
    programs: ProgramList,
    description: str,
    argv: Sequence[str] | None = None,
    default_folder: Path | None = None,
    bench_data: bool = False,
) -> tuple[Path, dict[str, list[np.ndarray]]]:
    """The command line of an export script over `programs`; returns the
    folder and the small programs' outputs by name."""
    parser = argparse.ArgumentParser(description=description)
    where = "where small/ and bench/ are written"
    if default_folder:  # an option, so that a first program name is a name
        parser.add_argument(
            "-o",
            "--out",
            dest="folder",
            type=Path,
            default=default_folder,
            help=f"{where} (default: {default_folder})",
        )
    else:
        parser.add_argument("folder", type=Path, help=where)
    parser.add_argument("names", nargs="*", help="only these programs (small names)")
    parser.add_argument(
        "--only",
        choices=("small", "bench"),
        help="write one of the two sizes (default: both)",
    )
    parser.add_argument(
        "--list", action="store_true", help="print the program names and stop"
    )
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(programs.programs))
        raise SystemExit(0)
    unknown = sorted(set(args.names) - set(programs.programs))
    if unknown:
        parser.error(
            f"unknown program(s) {', '.join(unknown)}; "
            f"known: {', '.join(programs.programs)}"
        )
    selected = [
        p
        for name, p in programs.programs.items()
        if not args.names or name in args.names
    ]
    sizes = [args.only] if args.only else ["small", "bench"]
    for size in sizes:
        (args.folder / size).mkdir(parents=True, exist_ok=True)
    small_outputs = {}
    for program in selected:
        line = f"{program.name:26}"
        if "small" in sizes:
            inputs, outputs = export_small(program, args.folder / "small")
            small_outputs[program.name] = outputs
            line += f" small in: {describe(inputs)} out: {describe(outputs)}"
        if "bench" in sizes:
            shapes = export_bench(program, args.folder / "bench", bench_data)
            line += f" bench {program.bench_name}: {describe(shapes)}"
        print(line, flush=True)
    print(
        f"wrote {len(selected)} program(s) to {args.folder} "
        f"(jax {jax.__version__}, numpy {np.__version__})"
    )
    return args.folder, small_outputs

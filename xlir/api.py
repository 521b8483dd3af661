"""`xlir.compile`: the one-line entry for Python users."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError

from xlir.context import make_context
from xlir.deep_stack import run_deep
from xlir.diagnostics import (
    XlirError,
    decode_source,
    format_parse_error,
    verify_module,
)
from xlir.dialects.stablehlo.process_groups import Grid, module_grid
from xlir.parsing import parse_module
from xlir.polymorphic import ShapePolymorphicExecutable, needs_refinement
from xlir.targets.base import Executable
from xlir.targets.collective_steps import process_communicator
from xlir.targets.mpi_communicator import launched_by_mpiexec
from xlir.targets.registry import get_platform, program_target
from xlir.targets.target import CompileOptions
from xlir.verified_signatures import signatures_shared


def load_module(
    source: str | os.PathLike[str] | ModuleOp, name: str | None = None
) -> tuple[ModuleOp, dict[str, str]]:
    """Parse (text or a file path) and verify; errors become XlirErrors with
    file:line:col diagnostics. Returns the module and the source texts."""
    if isinstance(source, ModuleOp):
        sources: dict[str, str] = {}
        module = source
    else:
        if isinstance(source, os.PathLike):
            path = Path(source)
            name = name or str(path)
            try:
                text = decode_source(path.read_bytes(), name)
            except OSError as error:
                raise XlirError(
                    f"error: cannot read {path}: {error.strerror}"
                ) from None
        else:
            text = source
            name = name or "<source>"
        sources = {name: text}
        try:
            module = parse_module(make_context(), text, name)
        except ParseError as error:
            raise XlirError(format_parse_error(error)) from None
        except DiagnosticException as error:
            raise XlirError(f"{name}: error: {error}") from None
    verify_module(module, sources)
    return module, sources


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Python's cycle collector off for a while, as it was after. A compile
    builds and drops hundreds of thousands of IR objects, and each time
    their count passes a threshold the collector scans the young ones, and
    now and then the whole heap: in a process holding a framework's objects
    (JAX's, a model's) that cost a compile 10-20%. The IR's cycles are
    collected at the next collection after the compile."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def compile(
    source: str | os.PathLike[str] | ModuleOp,
    target: str = "interpreter",
    function: str = "main",
    name: str | None = None,
    pipeline: str | None = None,
    bounds_check: bool = False,
    options: CompileOptions | None = None,
    num_partitions: int | None = None,
    num_replicas: int | None = None,
) -> Executable:
    """Compile StableHLO (text, a path as `os.PathLike`, or a parsed module)
    for a target. A `str` is always program text, never a file name.

    `pipeline` is the HLO-level pass pipeline (a spec as for `xlir-opt -p`);
    None runs the target's default (`hlo-opt`), "" runs no pass.
    `bounds_check` (cpu) makes the generated code check every load and
    store against its buffer's bounds and abort with a message naming the
    kernel and the buffer at the first one out (a debug mode, slower;
    `XLIR_CPU_BOUNDS_CHECK=1` in the environment does it for every compile).
    `options` sets every choice of the compile at once (fast math, threads,
    bounds checks: `CompileOptions`); `XLIR_FAST_MATH=1` in the environment
    turns fast math on.

    The result is callable with numpy arrays (`ml_dtypes` arrays for bf16,
    float8, int4, ...) and returns an array, or a tuple of arrays for several
    results; `executable.signature` lists the expected arguments. A
    shape-polymorphic program (`tensor<?x16xf32>`, from `jax.export` with
    symbolic dimensions) is compiled on each call for the arguments' shapes,
    once per distinct shape signature (`xlir/polymorphic.py`). Errors in the program are `XlirError`s with file:line:col
    diagnostics; wrong arguments at call time are `ValueError`s naming the
    argument.

    `num_partitions` and `num_replicas` give the grid of a sharded (SPMD)
    program: they must match the module's `mhlo.num_partitions` /
    `mhlo.num_replicas` where it has them, and set them where it has not.
    The executable runs on the caller's rank: under `mpiexec -n N` (N the
    grid's size, checked here) each process calls it with its own shards and
    its collectives go through MPI (docs/collectives-runtime.md).
    """
    compiler = get_platform(target).compiler()
    chosen = options or CompileOptions()
    if bounds_check:
        chosen = replace(chosen, bounds_check=True)
    compiler.options = chosen.with_environment()
    sharded = num_partitions is not None or num_replicas is not None
    if isinstance(source, str) and not sharded:
        cached = compiler.lookup(source, function, pipeline)
        if cached is not None:
            return cached

    def build() -> Executable:
        module, sources = load_module(source, name)
        if sharded:
            grid = set_grid(module, num_replicas, num_partitions)
            if launched_by_mpiexec():
                process_communicator(grid)  # this process count, or a diagnostic
        if needs_refinement(module):
            return ShapePolymorphicExecutable(
                compiler, module, function, sources, pipeline
            )
        return compiler.compile(module, function, sources, pipeline)

    def build_verifying_once() -> Executable:
        # The parsed program's verification and the HLO result's share the
        # signatures found valid (xlir/verified_signatures.py).
        with signatures_shared():
            return build()

    with cyclic_gc_paused():
        return run_deep(build_verifying_once)


def load_executable(
    source: bytes | os.PathLike[str], name: str | None = None
) -> Executable:
    """A program `xlir-compile` wrote (its bytes, or a path; `name` for
    messages), callable as `compile`'s executables are, without compiling:
    on the target whose files start as it does (`Target.program_magic`,
    e.g. accel's .xa1, docs/accel.md), which checks it and says what is
    wrong with a corrupted or foreign file."""
    if isinstance(source, bytes):
        data, name = source, name or "<bytes>"
    else:
        path = Path(source)
        name = name or str(path)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise XlirError(f"error: cannot read {path}: {error.strerror}") from None
    target = program_target(data, name)
    return target.platform().compiler().load_ahead_of_time(data, name)


def set_grid(
    module: ModuleOp, num_replicas: int | None, num_partitions: int | None
) -> Grid:
    """The module's grid with the counts asked for: each one the module
    states must agree, one it lacks is set."""
    for key, wanted in (
        ("mhlo.num_replicas", num_replicas),
        ("mhlo.num_partitions", num_partitions),
    ):
        if wanted is None:
            continue
        if wanted < 1:
            raise XlirError(f"error: {key.removeprefix('mhlo.')} must be at least 1")
        stated = module.attributes.get(key)
        if isinstance(stated, IntegerAttr) and stated.value.data != wanted:
            raise XlirError(
                f"error: the module says {key} = {stated.value.data}, but it is "
                f"compiled with {key.removeprefix('mhlo.')}={wanted}"
            )
        module.attributes[key] = IntegerAttr(wanted, 32)
    return module_grid(module)

"""`xlir-run` of a sharded program: one rank per process under mpiexec.

    mpiexec -n N xlir-run PROGRAM.mlir --target cpu --inputs in.npz
            [--expected ref.npz] [--output out.npz]
    xlir-run PROGRAM.mlir --processes N --target cpu --inputs in.npz ...

Each rank compiles the program and runs it on its own arguments: `r{rank}_arg0,
r{rank}_arg1, ...` of the `.npz` (the layout of `../shared/corpus/sharded`;
a file with plain `arg0, ...` gives every rank the same), or random ones
seeded with the seed plus the rank. Rank 0 gathers every rank's outputs,
prints them with the comparison against `r{rank}_out{i}` of `--expected`,
and saves them to `--output` in the same layout; every rank exits with the
status of the comparison.

A rank that fails prints its diagnostic prefixed with its rank and calls
MPI_Abort, which stops every other rank at once (mpiexec then reports the
rank too); one that dies is named by its guard under `--processes`
(tools/rank_guard.py). `--processes N` starts `mpiexec -n N` on this
command itself (tools/mpi_launcher.py); without MPI installed it runs the
ranks as threads of one process on the evaluator's in-process communicator
instead.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
from xlir.dialects.stablehlo.process_groups import Grid, module_grid
from xlir.evaluator.hlo.process_grid import run_ranks
from xlir.targets.base import Executable
from xlir.targets.collective_steps import running_as
from xlir.targets.mpi_communicator import abort, mpi_module
from xlir.targets.registry import get_platform
from xlir.tools.cli import UsageError
from xlir.tools.compare import compare, tolerance_for
from xlir.tools.rank_guard import ENDED, REPORTS

from xlir.api import load_module
from xlir.communicator import Communicator
from xlir.diagnostics import XlirError
from xlir.element_dtypes import from_void, to_void
from xlir.signature import Signature


def run_rank(
    args: argparse.Namespace,
    read_source: Callable[[str], tuple[str, str]],
    preview: Callable[[np.ndarray], str],
    random_arguments: Callable[[Signature, int], list[np.ndarray]],
) -> NoReturn:
    """This rank's part of the run; exits with the run's status on every
    rank, or aborts every rank when this one fails."""
    world = mpi_module().COMM_WORLD
    try:
        status = _run(args, world, read_source, preview, random_arguments)
    except XlirError as error:
        _fail(str(error))
    except (UsageError, ValueError) as error:
        _fail(f"xlir-run: error: {error}")
    except MemoryError:
        _fail("xlir-run: error: out of memory")
    except Exception as error:
        _fail(f"xlir-run: internal error: {type(error).__name__}: {error}")
    sys.stdout.flush()
    _record_end()
    raise SystemExit(status)


def _fail(message: str) -> NoReturn:
    _record_end()
    abort(message)
    raise SystemExit(1)  # not reached: MPI_Abort ends the process


def _run(
    args: argparse.Namespace,
    world: Any,
    read_source: Callable[[str], tuple[str, str]],
    preview: Callable[[np.ndarray], str],
    random_arguments: Callable[[Signature, int], list[np.ndarray]],
) -> int:
    rank, size = world.Get_rank(), world.Get_size()
    executable, _ = _compile(args, read_source)
    arrays = _rank_arguments(args, executable.signature, rank, random_arguments)
    times = []
    results: tuple[np.ndarray, ...] = ()
    for _ in range(args.repeat):
        world.Barrier()
        started = time.perf_counter()
        value = executable(*arrays)
        times.append(time.perf_counter() - started)
        results = value if isinstance(value, tuple) else (value,)
    everyone = world.gather([np.asarray(r) for r in results], root=0)
    status = 0
    if rank == 0:
        assert everyone is not None
        status = _report(args, executable.signature, everyone, preview)
        _print_time(args, times, f"{size} processes")
    return world.bcast(status, root=0)


def run_in_process(
    args: argparse.Namespace,
    read_source: Callable[[str], tuple[str, str]],
    preview: Callable[[np.ndarray], str],
    random_arguments: Callable[[Signature, int], list[np.ndarray]],
) -> int:
    """`--processes N` without MPI: the ranks are threads of this process,
    meeting at their collectives on the evaluator's in-process grid."""
    executable, grid = _compile(args, read_source)
    if args.processes != grid.size:
        raise UsageError(
            f"the program runs on {grid.size} device(s) ({grid.num_replicas} "
            f"replica(s) x {grid.num_partitions} partition(s)); give --processes "
            f"{grid.size}"
        )
    signature = executable.signature
    inputs = [
        _rank_arguments(args, signature, rank, random_arguments)
        for rank in range(grid.size)
    ]
    times: list[float] = []

    def rank_run(communicator: Communicator) -> list[np.ndarray]:
        results: tuple[np.ndarray, ...] = ()
        with running_as(communicator):
            for _ in range(args.repeat):
                started = time.perf_counter()
                value = executable(*inputs[communicator.rank])
                if communicator.rank == 0:
                    times.append(time.perf_counter() - started)
                results = value if isinstance(value, tuple) else (value,)
        return [np.asarray(r) for r in results]

    everyone = run_ranks(grid, rank_run)
    status = _report(args, signature, everyone, preview)
    _print_time(args, times, f"{grid.size} threads of one process")
    return status


def _compile(
    args: argparse.Namespace, read_source: Callable[[str], tuple[str, str]]
) -> tuple[Executable, Grid]:
    for flag, value in (
        ("--check", args.check),
        ("--bisect", args.bisect),
        ("--profile", args.profile is not None),
    ):
        if value:
            raise UsageError(f"{flag} does not run a sharded program; run it alone")
    text, name = read_source(args.file)
    module, sources = load_module(text, name)
    grid = module_grid(module)
    executable = (
        get_platform(args.target)
        .compiler()
        .compile(module, args.function, sources, args.pipeline)
    )
    return executable, grid


def _rank_arguments(
    args: argparse.Namespace,
    signature: Signature,
    rank: int,
    random_arguments: Callable[[Signature, int], list[np.ndarray]],
) -> list[np.ndarray]:
    if args.inputs:
        return rank_arrays(args.inputs, rank, "arg", len(signature.arguments))
    if args.random:
        return random_arguments(signature, args.seed + rank)
    if signature.arguments:
        raise UsageError(
            f"@{args.function} takes {len(signature.arguments)} argument(s); give "
            "--inputs FILE.npz (r0_arg0, r1_arg0, ...) or --random"
        )
    return []


def _print_time(args: argparse.Namespace, times: Sequence[float], ranks: str) -> None:
    median = sorted(times)[len(times) // 2]
    print(
        f"time per call on rank 0: {median * 1e3:.3f} ms (median of "
        f"{len(times)}) on {args.target}, {ranks}"
    )


def rank_arrays(path: str, rank: int, kind: str, count: int) -> list[np.ndarray]:
    """`r{rank}_{kind}0 ...` of an `.npz`, or `{kind}0 ...` where it has no
    rank's arrays."""
    try:
        data = np.load(path, allow_pickle=False)
    except Exception as error:
        raise UsageError(f"cannot read {path}: {error}") from None
    if isinstance(data, np.ndarray):
        raise UsageError(f"{path} is one array; a sharded run needs an .npz")
    prefix = f"r{rank}_{kind}" if f"r{rank}_{kind}0" in data.files else kind
    if count and f"{prefix}0" not in data.files:
        raise UsageError(
            f"{path} has neither 'r{rank}_{kind}0' nor '{kind}0' for rank {rank} "
            f"(keys: {', '.join(data.files[:8]) or 'none'})"
        )
    arrays = []
    for i in range(count):
        key = f"{prefix}{i}"
        if key not in data.files:
            raise UsageError(f"{path} has no array '{key}' for rank {rank}")
        arrays.append(np.asarray(data[key]))
    return arrays


def _report(
    args: argparse.Namespace,
    signature: Signature,
    everyone: Sequence[Sequence[np.ndarray]],
    preview: Callable[[np.ndarray], str],
) -> int:
    """Rank 0: every rank's outputs, the comparison with `--expected`, and
    `--output`; 1 on a mismatch."""
    status = 0
    for rank, results in enumerate(everyone):
        wanted = (
            rank_arrays(args.expected, rank, "out", len(results))
            if args.expected
            else None
        )
        for i, (spec, got) in enumerate(zip(signature.results, results, strict=True)):
            line = f"rank {rank} out{i}: {spec.type_text} = {preview(got)}"
            if wanted is not None:
                tolerance = tolerance_for(spec.dtype, args.rtol, args.atol)
                want = from_void(np.asarray(wanted[i]), spec.dtype)
                ok, verdict = compare(np.asarray(got), want, tolerance)
                line += f"\n  {'ok' if ok else 'MISMATCH'}: {verdict}"
                status |= 0 if ok else 1
            print(line)
    if args.expected:
        print(
            "PASSED" if status == 0 else "FAILED: outputs differ from the expected ones"
        )
    if args.output:
        outputs: dict[str, Any] = {"num_devices": np.asarray(len(everyone))}
        outputs |= {
            f"r{rank}_out{i}": to_void(np.asarray(r))
            for rank, results in enumerate(everyone)
            for i, r in enumerate(results)
        }
        try:
            with open(args.output, "wb") as file:
                np.savez(file, **outputs)
        except OSError as error:
            raise UsageError(f"cannot write {args.output}: {error.strerror}") from None
    return status


def _record_end() -> None:
    """Tell this rank's guard under `--processes` (tools/rank_guard.py) that
    the rank ends by itself, so that it reports no death."""
    folder = os.environ.get(REPORTS)
    if folder:
        Path(folder, f"{os.getpid()}{ENDED}").touch()

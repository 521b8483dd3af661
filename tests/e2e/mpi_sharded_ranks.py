"""One rank of tests/e2e/test_mpi_sharded.py, run under mpiexec: compiles
each sharded corpus program named on the command line for the cpu target
(`xlir.compile(..., num_partitions=N)`, the Python API of a rank),
runs it on this rank's inputs and compares with JAX's outputs for the rank;
rank 0 prints every rank's verdicts as one JSON line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from mpi4py import MPI
from xlir.tools.compare import compare, tolerance_for

import xlir

SHARDED = Path(sys.argv[1])


def verdicts(name: str, rank: int) -> list[list[object]]:
    data = np.load(SHARDED / f"{name}.npz")
    executable = xlir.compile(
        SHARDED / f"{name}.mlir",
        target="cpu",
        num_partitions=int(data["num_devices"]),  # the corpus's grids are 1 x N
    )
    count = len(executable.signature.arguments)
    value = executable(*[data[f"r{rank}_arg{i}"] for i in range(count)])
    results = value if isinstance(value, tuple) else (value,)
    found = []
    for i, (spec, got) in enumerate(
        zip(executable.signature.results, results, strict=True)
    ):
        ok, verdict = compare(
            np.asarray(got),
            data[f"r{rank}_out{i}"],
            tolerance_for(spec.dtype, None, None),
        )
        found.append([ok, f"out{i}: {verdict}"])
    return found


def main() -> None:
    world = MPI.COMM_WORLD
    rank = world.Get_rank()
    try:
        mine = {name: verdicts(name, rank) for name in sys.argv[2:]}
    except Exception as error:  # stop every rank, not only this one
        print(f"rank {rank}: {type(error).__name__}: {error}", flush=True)
        world.Abort(1)
        raise
    everyone = world.gather(mine, root=0)
    if rank == 0:
        print(json.dumps(everyone), flush=True)


if __name__ == "__main__":
    main()

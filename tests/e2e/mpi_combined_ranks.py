"""One rank of tests/e2e/test_mpi_sharded.py's combined all_reduces, run
under `mpiexec -n 2`: compiles a step of three independent all_reduces
(which hlo-opt combines into one), runs it through an MPI communicator
whose world counts its collective calls, and writes this rank's line: its
rank, whether every sum is right, and the calls of the second run."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import numpy as np
from mpi4py import MPI
from xlir.dialects.stablehlo.process_groups import Grid
from xlir.targets.collective_steps import running_as
from xlir.targets.mpi_communicator import MpiCommunicator

import xlir

SUM = """({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %t = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %t : tensor<f32>
    })"""
GROUP = (
    "<{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
    "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}>"
)
PROGRAM = f"""
module attributes {{mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32}} {{
  func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<f32>)
      -> (tensor<2x3xf32>, tensor<3xf32>, tensor<f32>) {{
    %x = stablehlo.multiply %a, %a : tensor<2x3xf32>
    %ga = "stablehlo.all_reduce"(%x) {GROUP} {SUM} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %gb = "stablehlo.all_reduce"(%b) {GROUP} {SUM} : (tensor<3xf32>) -> tensor<3xf32>
    %twice = stablehlo.add %gb, %gb : tensor<3xf32>
    %gc = "stablehlo.all_reduce"(%c) {GROUP} {SUM} : (tensor<f32>) -> tensor<f32>
    func.return %ga, %twice, %gc : tensor<2x3xf32>, tensor<3xf32>, tensor<f32>
  }}
}}
"""


class CountingWorld:
    """MPI.COMM_WORLD, counting the calls of its collectives (All...)."""

    def __init__(self, comm: Any):
        self.comm = comm
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.comm, name)
        if not name.startswith("All"):
            return method

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return method(*args, **kwargs)

        return counted


def inputs(rank: int) -> list[np.ndarray]:
    a = np.arange(6, dtype=np.float32).reshape(2, 3) + rank
    return [a, np.full(3, rank + 1, np.float32), np.array(10 * rank + 1, np.float32)]


def main() -> None:
    world = CountingWorld(MPI.COMM_WORLD)
    communicator = MpiCommunicator(Grid(1, 2), world)
    step = xlir.compile(PROGRAM, "cpu", num_partitions=2)
    mine, other = inputs(communicator.rank), inputs(1 - communicator.rank)
    want = [mine[0] ** 2 + other[0] ** 2, 2 * (mine[1] + other[1]), mine[2] + other[2]]
    with running_as(communicator):
        step(*mine)
        world.calls.clear()
        got = step(*mine)
    ok = all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
    calls = sorted(world.calls.items())
    sys.stdout.write(f"{communicator.rank} {ok} {calls}\n")  # one write: shared
    sys.stdout.flush()


if __name__ == "__main__":
    main()

"""Collectives across processes on MPI: xlir's against mpi4py's own, and a
data-parallel training step's scaling.

    python benchmarks/collectives.py [--repeat 20] [--max-mib 64]

starts mpiexec itself (the `mpi` extra's):

* bandwidth, under `mpiexec -n 2`: a compiled cpu program of one
  `stablehlo.all_reduce` (sum) or `all_gather` of f32 buffers from 1 KiB to
  64 MiB, called with its output preallocated, against `Allreduce` /
  `Allgather` of mpi4py on the same buffers. Bandwidth is the buffer's bytes
  over the median call time; the ratio is xlir's over mpi4py's.
* a data-parallel training step (a two-layer MLP, squared loss, SGD; the
  gradients summed by all_reduce) on a fixed global batch split over 1, 2
  and 4 processes, each compiled without threads (one core per process, as
  data parallelism uses them): samples per second and the speed-up over one
  process. Four processes on a 2-core machine share its cores. Beside the
  wall time, each step's process CPU time (the slowest rank's median): on a
  machine others share, wall time counts the waits for a core, CPU time
  does not, so its speed-up is the one a core per process would give (MPI's
  waits for a peer poll, and so count as CPU time).

Times are medians of `--repeat` calls after a warm-up, rank 0's; every rank
starts each call together (a barrier). They are comparable only within one
run on one machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

ALL_REDUCE = """
module attributes {{mhlo.num_partitions = {p} : i32, mhlo.num_replicas = 1 : i32}} {{
  func.func @main(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{
    %s = "stablehlo.all_reduce"(%x) <{{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[{group}]]> : tensor<1x{p}xi64>, use_global_device_ids}}> ({{
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }}) : (tensor<{n}xf32>) -> tensor<{n}xf32>
    func.return %s : tensor<{n}xf32>
  }}
}}
"""

ALL_GATHER = """
module attributes {{mhlo.num_partitions = {p} : i32, mhlo.num_replicas = 1 : i32}} {{
  func.func @main(%x: tensor<{n}xf32>) -> tensor<{m}xf32> {{
    %g = "stablehlo.all_gather"(%x) <{{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[{group}]]> : tensor<1x{p}xi64>, use_global_device_ids}}> : (tensor<{n}xf32>) -> tensor<{m}xf32>
    func.return %g : tensor<{m}xf32>
  }}
}}
"""

TRAIN_STEP = """
module attributes {{mhlo.num_partitions = {p} : i32, mhlo.num_replicas = 1 : i32}} {{
  func.func @main(%w1: tensor<{d}x{h}xf32>, %w2: tensor<{h}x{k}xf32>, %x: tensor<{b}x{d}xf32>, %y: tensor<{b}x{k}xf32>) -> (tensor<{d}x{h}xf32>, tensor<{h}x{k}xf32>, tensor<f32>) {{
    %h1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<{b}x{d}xf32>, tensor<{d}x{h}xf32>) -> tensor<{b}x{h}xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<{b}x{h}xf32>
    %a = stablehlo.maximum %h1, %zero : tensor<{b}x{h}xf32>
    %out = stablehlo.dot_general %a, %w2, contracting_dims = [1] x [0] : (tensor<{b}x{h}xf32>, tensor<{h}x{k}xf32>) -> tensor<{b}x{k}xf32>
    %e = stablehlo.subtract %out, %y : tensor<{b}x{k}xf32>
    %scale = stablehlo.constant dense<{inv_batch}> : tensor<{b}x{k}xf32>
    %dout = stablehlo.multiply %e, %scale : tensor<{b}x{k}xf32>
    %dw2 = stablehlo.dot_general %a, %dout, contracting_dims = [0] x [0] : (tensor<{b}x{h}xf32>, tensor<{b}x{k}xf32>) -> tensor<{h}x{k}xf32>
    %da = stablehlo.dot_general %dout, %w2, contracting_dims = [1] x [1] : (tensor<{b}x{k}xf32>, tensor<{h}x{k}xf32>) -> tensor<{b}x{h}xf32>
    %on = stablehlo.compare GT, %h1, %zero, FLOAT : (tensor<{b}x{h}xf32>, tensor<{b}x{h}xf32>) -> tensor<{b}x{h}xi1>
    %dh = stablehlo.select %on, %da, %zero : tensor<{b}x{h}xi1>, tensor<{b}x{h}xf32>
    %dw1 = stablehlo.dot_general %x, %dh, contracting_dims = [0] x [0] : (tensor<{b}x{d}xf32>, tensor<{b}x{h}xf32>) -> tensor<{d}x{h}xf32>
    %sq = stablehlo.multiply %e, %dout : tensor<{b}x{k}xf32>
    %c0 = stablehlo.constant dense<0.0> : tensor<f32>
    %part = stablehlo.reduce(%sq init: %c0) applies stablehlo.add across dimensions = [0, 1] : (tensor<{b}x{k}xf32>, tensor<f32>) -> tensor<f32>
    %g1 = "stablehlo.all_reduce"(%dw1) <{{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[{group}]]> : tensor<1x{p}xi64>, use_global_device_ids}}> ({{
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %t = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }}) : (tensor<{d}x{h}xf32>) -> tensor<{d}x{h}xf32>
    %g2 = "stablehlo.all_reduce"(%dw2) <{{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[{group}]]> : tensor<1x{p}xi64>, use_global_device_ids}}> ({{
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %t = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }}) : (tensor<{h}x{k}xf32>) -> tensor<{h}x{k}xf32>
    %loss = "stablehlo.all_reduce"(%part) <{{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[{group}]]> : tensor<1x{p}xi64>, use_global_device_ids}}> ({{
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %t = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }}) : (tensor<f32>) -> tensor<f32>
    %lr1 = stablehlo.constant dense<0.01> : tensor<{d}x{h}xf32>
    %lr2 = stablehlo.constant dense<0.01> : tensor<{h}x{k}xf32>
    %s1 = stablehlo.multiply %g1, %lr1 : tensor<{d}x{h}xf32>
    %s2 = stablehlo.multiply %g2, %lr2 : tensor<{h}x{k}xf32>
    %n1 = stablehlo.subtract %w1, %s1 : tensor<{d}x{h}xf32>
    %n2 = stablehlo.subtract %w2, %s2 : tensor<{h}x{k}xf32>
    func.return %n1, %n2, %loss : tensor<{d}x{h}xf32>, tensor<{h}x{k}xf32>, tensor<f32>
  }}
}}
"""

GLOBAL_BATCH, FEATURES, HIDDEN, OUTPUTS = 1024, 256, 512, 128


def _median_time(call, world, repeat: int) -> float:
    call()  # warm-up
    times = []
    for _ in range(repeat):
        world.Barrier()
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return sorted(times)[len(times) // 2]


def bandwidth(repeat: int, max_mib: int) -> None:
    """One rank of the bandwidth table; rank 0 prints it as JSON."""
    from mpi4py import MPI

    import xlir

    world = MPI.COMM_WORLD
    p = world.Get_size()
    group = ", ".join(map(str, range(p)))
    rows = []
    size = 1024
    while size <= max_mib << 20:
        n = size // 4
        x = np.random.default_rng(world.Get_rank()).standard_normal(n, np.float32)
        reduced = np.empty_like(x)
        gathered = np.empty(n * p, np.float32)
        row = {"bytes": size}
        for name, template, out in (
            ("all_reduce", ALL_REDUCE, reduced),
            ("all_gather", ALL_GATHER, gathered),
        ):
            text = template.format(p=p, n=n, m=n * p, group=group)
            executable = xlir.compile(text, target="cpu", num_partitions=p)
            row[f"xlir_{name}"] = _median_time(
                partial(executable, x, out=[out]), world, repeat
            )
        row["mpi4py_all_reduce"] = _median_time(
            partial(world.Allreduce, x, reduced, MPI.SUM), world, repeat
        )
        row["mpi4py_all_gather"] = _median_time(
            partial(world.Allgather, x, gathered), world, repeat
        )
        rows.append(row)
        size *= 4
    if world.Get_rank() == 0:
        print(json.dumps(rows))


def train(repeat: int) -> None:
    """One rank of the training step; rank 0 prints its time as JSON."""
    from mpi4py import MPI
    from xlir.targets.target import CompileOptions

    import xlir

    world = MPI.COMM_WORLD
    p, rank = world.Get_size(), world.Get_rank()
    b = GLOBAL_BATCH // p
    text = TRAIN_STEP.format(
        p=p,
        b=b,
        d=FEATURES,
        h=HIDDEN,
        k=OUTPUTS,
        group=", ".join(map(str, range(p))),
        inv_batch=1.0 / GLOBAL_BATCH,
    )
    step = xlir.compile(
        text, target="cpu", num_partitions=p, options=CompileOptions(threads=1)
    )
    rng = np.random.default_rng(0)
    w1 = (rng.standard_normal((FEATURES, HIDDEN)) / FEATURES**0.5).astype(np.float32)
    w2 = (rng.standard_normal((HIDDEN, OUTPUTS)) / HIDDEN**0.5).astype(np.float32)
    data = np.random.default_rng(1 + rank)
    x = data.standard_normal((b, FEATURES)).astype(np.float32)
    y = data.standard_normal((b, OUTPUTS)).astype(np.float32)
    seconds = _median_time(lambda: step(w1, w2, x, y), world, repeat)
    cpu = []
    for _ in range(repeat):
        world.Barrier()
        started = time.process_time()
        step(w1, w2, x, y)
        cpu.append(time.process_time() - started)
    slowest = world.allreduce(sorted(cpu)[len(cpu) // 2], op=MPI.MAX)
    if rank == 0:
        print(json.dumps({"processes": p, "seconds": seconds, "cpu": slowest}))


def _ranks(count: int, *args: str) -> str:
    from xlir.tools.mpi_launcher import mpiexec_path

    mpiexec = mpiexec_path()
    if mpiexec is None:
        raise SystemExit("mpiexec not found: pip install -e '.[mpi]'")
    command = [mpiexec, "-n", str(count), sys.executable, str(Path(__file__)), *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise SystemExit(done.stdout + done.stderr)
    return done.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--max-mib", type=int, default=64)
    parser.add_argument(
        "--rank", choices=["bandwidth", "train"], help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.rank == "bandwidth":
        return bandwidth(args.repeat, args.max_mib)
    if args.rank == "train":
        return train(args.repeat)
    repeat = ["--repeat", str(args.repeat)]
    rows = json.loads(
        _ranks(2, "--rank", "bandwidth", "--max-mib", str(args.max_mib), *repeat)
    )
    print("bandwidth under mpiexec -n 2 (MB/s = buffer bytes / median call time)")
    print(
        f"{'bytes':>10} {'all_reduce xlir':>16} {'mpi4py':>10} {'ratio':>6}"
        f" {'all_gather xlir':>16} {'mpi4py':>10} {'ratio':>6}"
    )
    for row in rows:
        cells = [f"{row['bytes']:>10}"]
        for name in ("all_reduce", "all_gather"):
            ours = row["bytes"] / row[f"xlir_{name}"] / 1e6
            theirs = row["bytes"] / row[f"mpi4py_{name}"] / 1e6
            cells.append(f"{ours:>16.1f} {theirs:>10.1f} {ours / theirs:>6.2f}")
        print(" ".join(cells))
    print(
        f"\ndata-parallel training step: global batch {GLOBAL_BATCH}, MLP "
        f"{FEATURES}-{HIDDEN}-{OUTPUTS}, one thread per process; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"{'processes':>9} {'step ms':>9} {'samples/s':>10} {'speed-up':>9}"
        f" {'cpu ms':>8} {'cpu speed-up':>13}"
    )
    base = None
    for count in (1, 2, 4):
        row = json.loads(_ranks(count, "--rank", "train", *repeat))
        base = base or row
        print(
            f"{count:>9} {row['seconds'] * 1e3:>9.2f} "
            f"{GLOBAL_BATCH / row['seconds']:>10.0f} "
            f"{base['seconds'] / row['seconds']:>9.2f} {row['cpu'] * 1e3:>8.2f} "
            f"{base['cpu'] / row['cpu']:>13.2f}"
        )


if __name__ == "__main__":
    main()

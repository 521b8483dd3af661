"""Sharded programs across processes on MPI (docs/collectives.md): every
program of `../shared/corpus/sharded` on the cpu target under `mpiexec`,
against JAX's per-rank outputs, and what happens when a rank fails or dies.

The tests start mpiexec themselves (the `mpi` extra's, beside this Python)
and batch the corpus into one launch per process count. They skip, saying
how to install it, only where MPI is not installed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from xlir.targets.mpi_communicator import INSTALL_HINT
from xlir.tools.mpi_launcher import mpiexec_path

import xlir
from tests.conftest import CORPUS
from xlir.diagnostics import XlirError

SHARDED = CORPUS / "sharded"
HERE = Path(__file__).resolve().parent
MPIEXEC = mpiexec_path()
pytestmark = pytest.mark.skipif(
    MPIEXEC is None or importlib.util.find_spec("mpi4py") is None,
    reason=INSTALL_HINT,
)
PROGRAMS = sorted(p.stem for p in SHARDED.glob("*.mlir"))
STOP_WITHIN_S = 30
CHILD_ENV = {**os.environ, "XLIR_VERIFY_EACH": "0"}
"""The ranks check execution; the passes are verified by the other tests."""


def _devices(name: str) -> int:
    return int(np.load(SHARDED / f"{name}.npz")["num_devices"])


@cache
def _corpus_verdicts() -> dict[str, list[list[list[object]]]]:
    """Per program, each rank's [ok, verdict] per output: one mpiexec launch
    per process count."""
    by_size: dict[int, list[str]] = {}
    for name in PROGRAMS:
        by_size.setdefault(_devices(name), []).append(name)
    found: dict[str, list[list[list[object]]]] = {}
    for size, names in by_size.items():
        assert MPIEXEC is not None
        command = [MPIEXEC, "-n", str(size), sys.executable]
        command += [str(HERE / "mpi_sharded_ranks.py"), str(SHARDED), *names]
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=540, env=CHILD_ENV
        )
        assert done.returncode == 0, done.stdout + done.stderr
        everyone = json.loads(done.stdout.strip().splitlines()[-1])
        for name in names:
            found[name] = [ranks[name] for ranks in everyone]
    return found


@pytest.mark.parametrize("name", PROGRAMS)
def test_cpu_under_mpiexec_gives_jax_outputs(name: str) -> None:
    per_rank = _corpus_verdicts()[name]
    assert len(per_rank) == _devices(name)
    wrong = [
        f"rank {rank} {verdict}"
        for rank, outputs in enumerate(per_rank)
        for ok, verdict in outputs
        if not ok
    ]
    assert not wrong, "\n".join(wrong)


def _xlir_run(*args: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "xlir.tools.run", *args]
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=CHILD_ENV,
    )


def test_xlir_run_processes_compares_every_rank() -> None:
    program = SHARDED / "all_to_all_transpose.npz"
    run = _xlir_run(
        str(program.with_suffix(".mlir")),
        "--processes",
        "2",
        "--target",
        "cpu",
        "--inputs",
        str(program),
        "--expected",
        str(program),
    )
    stdout, stderr = run.communicate(timeout=300)
    assert run.returncode == 0, stderr
    assert "rank 1 out1: tensor<2x12xi32>" in stdout
    assert stdout.count("ok: ") == 4 and "PASSED" in stdout


def test_a_failing_rank_stops_the_others(tmp_path: Path) -> None:
    """Rank 1 has no inputs: it raises, and rank 0, waiting for it at the
    first all_to_all, is stopped too."""
    data = np.load(SHARDED / "all_to_all_transpose.npz")
    inputs = tmp_path / "rank0_only.npz"
    np.savez(inputs, **{k: data[k] for k in data.files if k.startswith("r0_")})
    started = time.monotonic()
    run = _xlir_run(
        str(SHARDED / "all_to_all_transpose.mlir"),
        "--processes",
        "2",
        "--target",
        "cpu",
        "--inputs",
        str(inputs),
    )
    _, stderr = run.communicate(timeout=120)
    assert time.monotonic() - started < 120
    assert run.returncode != 0
    assert "rank 1: xlir-run: error:" in stderr and "'r1_arg0'" in stderr
    assert "died" not in stderr, "a rank that fails ends by itself"


def _rank_pid(launcher: int, rank: int) -> int | None:
    """The pid of rank `rank` among `launcher`'s descendants (by the
    PMI_RANK mpiexec gives it)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    pending = [launcher]
    while pending:
        pid = pending.pop()
        pending += children.get(pid, [])
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"xlir.tools.run" in cmdline and f"PMI_RANK={rank}".encode() in environ:
            return pid
    return None


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find a rank")
def test_a_killed_rank_stops_the_others_naming_it() -> None:
    """Rank 1 is killed while both ranks run the program over and over: the
    other rank stops within 30 s and the report names rank 1."""
    program = SHARDED / "ring_allreduce"
    run = _xlir_run(
        str(program.with_suffix(".mlir")),
        "--processes",
        "4",
        "--target",
        "cpu",
        "--inputs",
        str(program.with_suffix(".npz")),
        "--repeat",
        "1000000",
    )
    pid = None
    deadline = time.monotonic() + 240
    while pid is None and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.5)
        pid = _rank_pid(run.pid, 1)
    assert pid is not None, "rank 1 never started"
    time.sleep(8)  # past the compile, into the runs and their collectives
    os.kill(pid, signal.SIGKILL)
    killed = time.monotonic()
    _, stderr = run.communicate(timeout=STOP_WITHIN_S + 30)
    assert time.monotonic() - killed < STOP_WITHIN_S
    assert run.returncode != 0
    assert f"rank 1 (pid {pid}) died" in stderr


MISMATCH = """
import numpy as np
from mpi4py import MPI
from xlir.communicator import CollectiveError, Reduction, ReduceKind
from xlir.dialects.stablehlo.process_groups import Grid
from xlir.targets.mpi_communicator import MpiCommunicator
comm = MpiCommunicator(Grid(1, 2))
try:
    comm.all_reduce(np.ones(comm.rank + 2, np.float32), [0, 1],
                    Reduction(np.add, ReduceKind.SUM))
except CollectiveError as error:
    print(error, flush=True)
try:  # a variadic one, packed: its second operand differs
    comm.all_reduce_many(
        [np.ones(4, np.float32), np.ones((2, comm.rank + 1), np.float32)],
        [0, 1], Reduction(np.add, ReduceKind.SUM))
except CollectiveError as error:
    print(error, flush=True)
"""


def test_shapes_that_differ_across_ranks_are_a_diagnostic() -> None:
    assert MPIEXEC is not None
    done = subprocess.run(
        [MPIEXEC, "-n", "2", sys.executable, "-c", MISMATCH],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("do not agree on what they exchange") == 4
    assert "rank 0: all_reduce of float32[2]\n" in done.stdout
    assert "rank 1: all_reduce of float32[3]\n" in done.stdout
    assert "rank 0: all_reduce of float32[4], float32[2x1]\n" in done.stdout
    assert "rank 1: all_reduce of float32[4], float32[2x2]\n" in done.stdout


def test_combined_all_reduces_are_one_exchange_under_mpi() -> None:
    """hlo-opt combines a step's three independent all_reduces; on MPI they
    cost one shape check and one Allreduce of the packed operands, and give
    each operand's sum (tests/e2e/mpi_combined_ranks.py)."""
    assert MPIEXEC is not None
    done = subprocess.run(
        [MPIEXEC, "-n", "2", sys.executable, str(HERE / "mpi_combined_ranks.py")],
        capture_output=True,
        text=True,
        timeout=300,
        env=CHILD_ENV,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    calls = "[('Allgather', 1), ('Allreduce', 1)]"
    lines = sorted(done.stdout.splitlines())
    assert lines == [f"0 True {calls}", f"1 True {calls}"], done.stdout


@pytest.mark.parametrize("target", ["cpu", "interpreter"])
def test_send_and_recv_pair_through_channels_across_processes(
    tmp_path: Path, target: str
) -> None:
    """send/recv name a channel, not a rank: the channel's home rank queues
    the values, and each receive gets the oldest (programs/
    send_recv_channels.mlir under mpiexec; on cpu its tokens are empty
    buffers and each send and recv a collective step)."""
    inputs, expected = tmp_path / "in.npz", tmp_path / "expected.npz"
    np.savez(inputs, **{f"r{r}_arg0": np.full(2, r + 1, np.float32) for r in range(3)})
    outs = {0: (1, 2), 1: (1, 2), 2: (3, 3)}  # rank 1 gets rank 0's x, then 2x
    np.savez(
        expected,
        **{
            f"r{r}_out{i}": np.full(2, value, np.float32)
            for r, values in outs.items()
            for i, value in enumerate(values)
        },
    )
    run = _xlir_run(
        str(HERE / "programs" / "send_recv_channels.mlir"),
        "--processes",
        "3",
        "--target",
        target,
        "--inputs",
        str(inputs),
        "--expected",
        str(expected),
    )
    stdout, stderr = run.communicate(timeout=300)
    assert run.returncode == 0, stdout + stderr
    assert stdout.count("ok: ") == 6 and "PASSED" in stdout


GATHER_ALONG = """
import sys
import numpy as np
from xlir.dialects.stablehlo.process_groups import Grid
from xlir.targets.mpi_communicator import MpiCommunicator
comm = MpiCommunicator(Grid(1, 2))
def part(rank):
    return np.arange(24, dtype=np.int32).reshape(2, 3, 4) * 10 + rank
for axis in range(3):
    want = np.concatenate([part(0), part(1)], axis=axis)
    into = np.zeros_like(want)
    strided = np.zeros(want.shape + (2,), np.int32)[..., 0]
    got = [
        comm.gather_along(part(comm.rank), [0, 1], axis),
        comm.gather_along(part(comm.rank), [0, 1], axis, into),
        comm.gather_along(part(comm.rank), [0, 1], axis, strided),
        into,
        strided,
    ]
    ok = all(np.array_equal(g, want) for g in got)
    sys.stdout.write(f"{axis} {ok}\\n")  # one write: the ranks share stdout
    sys.stdout.flush()
"""


def test_all_gather_concatenates_along_any_axis_into_its_output() -> None:
    """The gathered axis leading (straight into the result) or not (one
    reorder), into a given buffer, contiguous or strided, or a new one."""
    assert MPIEXEC is not None
    done = subprocess.run(
        [MPIEXEC, "-n", "2", sys.executable, "-c", GATHER_ALONG],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.split("\n")) == sorted(
        ["", *[f"{axis} True" for axis in range(3) for _ in range(2)]]
    ), done.stdout


def test_a_grid_that_is_not_the_process_count_is_refused() -> None:
    program = SHARDED / "ring_allreduce"  # 4 devices, on 2 processes
    run = _xlir_run(
        str(program.with_suffix(".mlir")),
        "--processes",
        "2",
        "--target",
        "cpu",
        "--inputs",
        str(program.with_suffix(".npz")),
    )
    _, stderr = run.communicate(timeout=300)
    assert run.returncode != 0
    assert "mpiexec started 2 process(es); run it with `mpiexec -n 4`" in stderr


def test_compile_refuses_a_grid_the_module_does_not_state() -> None:
    with pytest.raises(XlirError, match=r"says mhlo\.num_partitions = 4, but it is"):
        xlir.compile(SHARDED / "ring_allreduce.mlir", "cpu", num_partitions=2)

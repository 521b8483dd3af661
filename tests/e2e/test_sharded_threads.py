"""`xlir-run --processes N` where MPI is not installed: the ranks run as
threads of one process on the evaluator's in-process communicator, the cpu
target's collective steps included (tools/sharded_run.py). Runs whether or
not MPI is installed (the test hides it)."""

from __future__ import annotations

import pytest
import xlir.tools.run as run_tool

from tests.conftest import CORPUS

SHARDED = CORPUS / "sharded"


@pytest.mark.parametrize("name", ["all_to_all_transpose", "sp_layernorm_mlp"])
@pytest.mark.parametrize("target", ["cpu", "interpreter"])
def test_ranks_as_threads_give_jax_outputs(
    name: str, target: str, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setattr(run_tool, "mpi_installed", lambda: False)
    program = SHARDED / name
    with pytest.raises(SystemExit) as stopped:
        run_tool.main(
            [
                str(program.with_suffix(".mlir")),
                "--processes",
                "2",
                "--target",
                target,
                "--inputs",
                str(program.with_suffix(".npz")),
                "--expected",
                str(program.with_suffix(".npz")),
            ]
        )
    out, err = capsys.readouterr()
    assert stopped.value.code == 0, out + err
    assert "running the ranks as threads" in err
    assert "rank 1 out0:" in out and "PASSED" in out


def test_a_process_count_that_is_not_the_grid_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setattr(run_tool, "mpi_installed", lambda: False)
    program = SHARDED / "ring_allreduce"
    with pytest.raises(SystemExit) as stopped:
        run_tool.main(
            [
                str(program.with_suffix(".mlir")),
                "--processes",
                "2",
                "--target",
                "cpu",
                "--random",
            ]
        )
    assert stopped.value.code == 1
    expected = (
        "the program runs on 4 device(s) (1 replica(s) x 4 partition(s)); give "
        "--processes 4"
    )
    assert expected in capsys.readouterr().err

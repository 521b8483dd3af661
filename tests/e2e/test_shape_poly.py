"""Shape-polymorphic JAX exports (`programs/shape_poly/`, written by its
`export.py`: a symbolic batch `b`; cumsum's `dynamic_reduce_window` custom
call among them) compiled for concrete batches by `refine-shapes`, on every
target, against JAX's outputs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xlir.tools.run import main as run_main

import xlir
from xlir.diagnostics import XlirError
from xlir.polymorphic import ShapePolymorphicExecutable

PROGRAMS = Path(__file__).resolve().parent / "programs" / "shape_poly"
NAMES = ("dot_tanh", "reshape_pairs", "mean_rows", "cumsum_rows")
BATCHES = (1, 3, 8)


def _data(name: str, batch: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    data = np.load(PROGRAMS / f"{name}.b{batch}.npz")
    count = sum(key.startswith("arg") for key in data.files)
    outs = sum(key.startswith("out") for key in data.files)
    return [data[f"arg{i}"] for i in range(count)], [
        data[f"out{i}"] for i in range(outs)
    ]


@pytest.mark.parametrize("target", ["interpreter", "cpu"])
@pytest.mark.parametrize("name", NAMES)
def test_each_batch_matches_jax(name: str, target: str) -> None:
    path = PROGRAMS / f"{name}.mlir"
    executable = xlir.compile(path, target=target)
    assert isinstance(executable, ShapePolymorphicExecutable)
    assert "?" in str(executable.signature)
    for batch in BATCHES:
        arguments, expected = _data(name, batch)
        got = executable(*arguments)
        np.testing.assert_allclose(got, expected[0], rtol=1e-5, atol=1e-6)
    # one specialisation per shape signature, reused on a second call
    executable(*_data(name, BATCHES[0])[0])
    assert len(executable.specialisations) == len(BATCHES)
    stats = executable.specialize([a.shape for a in _data(name, 3)[0]]).memory_stats()
    assert stats.argument_size_in_bytes > 0


def test_a_failed_shape_assertion_is_jax_message() -> None:
    """JAX asserts the batch is at least 1; an empty batch fails it."""
    path = PROGRAMS / "mean_rows.mlir"
    executable = xlir.compile(path)
    with pytest.raises(XlirError) as error:
        executable(np.zeros((0, 8), np.float32))
    message = str(error.value)
    assert "mean_rows.mlir:8:5: error: refine-shapes: shape assertion failed" in message
    assert "Expected value >= 1 for dimension variable 'b'" in message
    assert "'b' = 0" in message


def test_wrong_static_size_names_the_argument() -> None:
    executable = xlir.compile(PROGRAMS / "dot_tanh.mlir")
    with pytest.raises(ValueError, match=r"argument arg0: expected shape \[\?, 16\]"):
        executable(np.zeros((3, 15), np.float32), np.zeros((16, 8), np.float32))


def test_xlir_run_compiles_for_the_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    data = str(PROGRAMS / "reshape_pairs.b3.npz")
    program = str(PROGRAMS / "reshape_pairs.mlir")
    with pytest.raises(SystemExit) as exit_:
        run_main([program, "--inputs", data, "--expected", data])
    out = capsys.readouterr().out
    assert exit_.value.code == 0, out
    assert "out0: tensor<6x4xf32>" in out and "PASSED" in out


def test_xlir_run_random_needs_shapes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        run_main([str(PROGRAMS / "dot_tanh.mlir"), "--random"])
    assert exit_.value.code == 1
    assert "@main has dynamic shapes (arg0: tensor<?x16xf32>" in capsys.readouterr().err


def test_execute_on_device_buffers_specialises_too() -> None:
    """The runtime interface (`execute` on device buffers) compiles for the
    buffers' shapes, as a call with arrays does."""
    executable = xlir.compile(PROGRAMS / "mean_rows.mlir")
    arguments, expected = _data("mean_rows", 3)
    executor = executable.platform.executor(0)
    transfer = executable.platform.transfer_manager()
    stream = executor.create_stream()
    inputs = [transfer.to_device(executor, a) for a in arguments]
    outputs = executable.execute(inputs, stream)
    stream.synchronize()
    specialised = executable.specialisations[((3, 8),)]
    got = transfer.from_device(executor, outputs[0], specialised.signature.results[0])
    np.testing.assert_allclose(got, expected[0], rtol=1e-6)

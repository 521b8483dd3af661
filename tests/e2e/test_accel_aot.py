"""Corpus programs compiled ahead of time for accel (`xlir-compile --target
accel`), written to a file and run from it without compiling
(`xlir.load_executable`, `xlir-run MODEL.xa1`): the same outputs as the JIT
bit for bit, and the reference evaluator's within the corpus tolerances;
a corrupted, truncated or foreign file is a diagnostic naming the file."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from xlir.targets.accel.aot import PROGRAM_MAGIC
from xlir.targets.accel.assembler import assemble
from xlir.targets.accel.objfile import ObjectFile
from xlir.targets.aot import AotOptions
from xlir.targets.registry import get_platform, reference_target
from xlir.tools.compile import main as compile_main
from xlir.tools.run import main as run_main

import xlir
from tests.corpus import SMALL, TOLERANCES, load_case
from xlir.api import load_module
from xlir.diagnostics import XlirError

PROGRAMS = ["mlp_fwd", "while_loops", "int_ops", "gather_index"]
"""The matrix unit, a host loop on a scalar the device computed and a
constant, integers, buffers kept in DRAM."""


def compile_file(name: str) -> bytes:
    module, sources = load_module(SMALL / f"{name}.mlir")
    compiler = get_platform("accel").compiler()
    return compiler.compile_ahead_of_time(
        module, AotOptions(), "main", sources
    ).object_code


@pytest.fixture(scope="module")
def mlp_file() -> bytes:
    return compile_file("mlp_fwd")


def results(value: np.ndarray | tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    return value if isinstance(value, tuple) else (value,)


@pytest.mark.parametrize("name", PROGRAMS)
def test_file_runs_as_the_jit_and_the_evaluator(name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.xa1"
    path.write_bytes(compile_file(name))
    arguments, _ = load_case(SMALL / f"{name}.mlir")
    loaded = xlir.load_executable(path)
    assert loaded.platform.name == "accel"
    got = results(loaded(*arguments))
    jit = results(xlir.compile(SMALL / f"{name}.mlir", target="accel")(*arguments))
    for from_file, from_jit in zip(got, jit, strict=True):
        np.testing.assert_array_equal(from_file, from_jit)
    evaluated = results(
        xlir.compile(SMALL / f"{name}.mlir", target=reference_target())(*arguments)
    )
    tolerance = TOLERANCES[name]
    for from_file, want in zip(got, evaluated, strict=True):
        assert from_file.dtype == want.dtype
        np.testing.assert_allclose(
            from_file, want, rtol=tolerance["rtol"], atol=tolerance["atol"]
        )


def test_loaded_executable_reports_its_program(mlp_file: bytes) -> None:
    loaded = xlir.load_executable(mlp_file, "mlp.xa1")
    jit = xlir.compile(SMALL / "mlp_fwd.mlir", target="accel")
    assert loaded.signature == jit.signature
    assert loaded.memory_stats() == jit.memory_stats()
    assert loaded.memory_stats().scratchpad_size_in_bytes > 0
    assert loaded.as_text().startswith(".kernel fusion_1, 4\n")


def test_cli_compiles_and_runs_a_file(tmp_path: Path, capsys) -> None:
    model, outputs = tmp_path / "model.xa1", tmp_path / "out.npz"
    source = SMALL / "while_loops.mlir"
    with pytest.raises(SystemExit) as exit_:
        compile_main([str(source), "--target", "accel", "-o", str(model)])
    assert exit_.value.code == 0
    case = str(SMALL / "while_loops.npz")
    argv = [str(model), "--inputs", case, "--expected", case, "--output", str(outputs)]
    with pytest.raises(SystemExit) as exit_:
        run_main(argv)
    assert exit_.value.code == 0, capsys.readouterr().err
    assert "PASSED" in capsys.readouterr().out
    arguments, _ = load_case(source)
    jit = results(xlir.compile(source, target="accel")(*arguments))
    saved = np.load(outputs)
    for index, want in enumerate(jit):
        np.testing.assert_array_equal(saved[f"out{index}"], want)


def section_start(data: bytes) -> int:
    return data.index(PROGRAM_MAGIC)


def with_payload(data: bytes, payload: dict) -> bytes:
    """The file with its program section's payload replaced (checksums
    recomputed, so that only the loader's own checks can catch it)."""
    start = section_start(data)
    body = json.dumps(payload).encode()
    header = bytearray(data[start : start + 32])
    struct.pack_into("<II", header, 8, len(body), zlib.crc32(body))
    return data[:start] + bytes(header) + body


def payload_of(data: bytes) -> dict:
    return json.loads(data[section_start(data) + 32 :])


def flipped(data: bytes, offset: int) -> bytes:
    changed = bytearray(data)
    changed[offset] ^= 0x40
    return bytes(changed)


def load_error(data: bytes) -> str:
    with pytest.raises(XlirError) as error:
        xlir.load_executable(data, "model.xa1")
    return str(error.value)


def test_corrupted_code_is_caught_by_the_checksum(mlp_file: bytes) -> None:
    assert load_error(flipped(mlp_file, 100)) == (
        "model.xa1: error: the object's bytes do not match the checksum its "
        "program section records: the file is corrupted"
    )


def test_corrupted_schedule_is_caught_by_the_checksum(mlp_file: bytes) -> None:
    assert "the program section's bytes do not match its checksum" in load_error(
        flipped(mlp_file, len(mlp_file) - 20)
    )


def test_truncated_files(mlp_file: bytes) -> None:
    assert "not a loadable XA-1 object: code [64, +" in load_error(mlp_file[:100])
    start = section_start(mlp_file)
    assert "too few for a 32-byte program section header" in load_error(
        mlp_file[: start + 8]
    )
    assert "payload bytes, the file has" in load_error(mlp_file[:-1])


def test_object_without_program_section() -> None:
    obj = assemble(".kernel k, 0\n    halt\n", "k.s").to_bytes()
    assert "an XA-1 object without a program section" in load_error(obj)


def test_foreign_files() -> None:
    assert load_error(b"\x7fELF\x02\x01\x01\0" + bytes(56)) == (
        "model.xa1: error: a binary file that no registered target runs: it "
        "starts with b'\\x7fELF' (targets that run compiled files, and the "
        "bytes those start with: accel (b'XA1\\x00'))"
    )


def test_section_of_another_version(mlp_file: bytes) -> None:
    start = section_start(mlp_file)
    changed = bytearray(mlp_file)
    changed[start + 4] = 9
    assert "program section version 9, flags 0" in load_error(bytes(changed))


def test_schedule_that_launches_what_the_object_lacks(mlp_file: bytes) -> None:
    payload = payload_of(mlp_file)
    payload["schedule"] = payload["schedule"].replace("@fusion_2(", "@fusion_9(")
    assert "the schedule launches @fusion_9, which is no kernel of the object" in (
        load_error(with_payload(mlp_file, payload))
    )
    payload = payload_of(mlp_file)
    payload["schedule"] = payload["schedule"].replace(
        "@fusion_2(%10, %3, %4, %11) on %7 : memref<8x64xf32>, memref<64x48xf32>, "
        "memref<48xf32>, memref<8x48xf32>",
        "@fusion_2(%10, %3, %4) on %7 : memref<8x64xf32>, memref<64x48xf32>, "
        "memref<48xf32>",
    )
    assert "launches @fusion_2 with 3 argument(s); the object's symbol takes 4" in (
        load_error(with_payload(mlp_file, payload))
    )


def test_payload_that_is_not_a_program(mlp_file: bytes) -> None:
    payload = payload_of(mlp_file)
    del payload["results"]
    assert "the program section's 'results' is missing or not a list" in (
        load_error(with_payload(mlp_file, payload))
    )
    payload = payload_of(mlp_file)
    payload["arguments"][0] = "tensor<8x195xf32>"
    assert (
        "arg0 is recorded as tensor<8x195xf32>, but the schedule's buffer is "
        "tensor<8x196xf32>"
    ) in load_error(with_payload(mlp_file, payload))
    payload = payload_of(mlp_file)
    payload["schedule"] = "func.func @main( {"
    assert load_error(with_payload(mlp_file, payload)).startswith(
        "model.xa1(schedule):1:"
    )


def test_options_that_do_not_apply() -> None:
    module, sources = load_module(SMALL / "mlp_fwd.mlir")
    compiler = get_platform("accel").compiler()
    options = AotOptions(triple="x86_64-linux-gnu", threads=2)
    with pytest.raises(XlirError, match="--triple, --threads do not apply"):
        compiler.compile_ahead_of_time(module, options, "main", sources)


def test_targets_without_program_files_refuse_to_load() -> None:
    compiler = get_platform(reference_target()).compiler()
    with pytest.raises(XlirError, match="does not run ahead-of-time compiled files"):
        compiler.load_ahead_of_time(b"XA1\0", "model.xa1")


def test_constants_are_the_objects_rodata() -> None:
    data = compile_file("while_loops")
    payload = payload_of(data)
    assert "loop.global" not in payload["schedule"]
    (name, (offset, size)), *others = payload["constants"].items()
    assert not others and "loop.get_global @" + name in payload["schedule"]
    loaded = xlir.load_executable(data, "while_loops.xa1")
    jit = xlir.compile(SMALL / "while_loops.mlir", target="accel")
    assert loaded.memory_stats() == jit.memory_stats()
    assert loaded.memory_stats().constant_size_in_bytes == size
    assert len(ObjectFile.from_bytes(data).rodata) == offset + size


def test_constants_are_not_copied_per_call(monkeypatch) -> None:
    """Only the arguments go to the device: the constant is in DRAM since
    the object was loaded."""
    executable = xlir.compile(SMALL / "while_loops.mlir", target="accel")
    arguments, _ = load_case(SMALL / "while_loops.mlir")
    executor = executable.platform.executor(0)
    copies: list[int] = []
    original = executor.copy_host_to_device

    def counted(buffer, host) -> None:
        copies.append(host.nbytes)
        original(buffer, host)

    monkeypatch.setattr(executor, "copy_host_to_device", counted)
    executable(*arguments)
    assert sorted(copies) == sorted(a.nbytes for a in arguments)


def test_constants_the_rodata_does_not_hold() -> None:
    data = compile_file("while_loops")
    payload = payload_of(data)
    (name, (offset, size)), *_ = payload["constants"].items()
    payload["constants"] = {}
    assert f"reads constant @{name} of {size} bytes, which the rodata does not" in (
        load_error(with_payload(data, payload))
    )
    payload["constants"] = {name: [offset + 1, size]}
    assert f"constant '{name}' at [{offset + 1}, +{size}) is not a 64-byte" in (
        load_error(with_payload(data, payload))
    )
    payload["constants"] = {name: "here"}
    assert f"constant '{name}': 'here' is not [offset, size]" in (
        load_error(with_payload(data, payload))
    )

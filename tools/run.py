"""`xlir-run`: compile a module for a target and run it.

    xlir-run FILE.mlir [--target NAME] [--function main]
             [--inputs in.npz | --random [--seed N]] [--output out.npz]
             [--expected ref.npz [--rtol R] [--atol A]] [--repeat N]
    xlir-run --check [--split-input-file] FILE.mlir

Inputs come from an `.npz` with keys `arg0, arg1, ...` (other keys are
ignored; a single-argument function may take an `.npy`), or are random with
a seed. Outputs are printed (shape, dtype, a short preview) and may be saved
as `out0, out1, ...`; `--expected` compares them with an `.npz` of `outN`
(floats within `|got - want| <= atol + rtol * |want|`, integers and booleans
exactly) and exits 1 on a mismatch.

`--check` runs every argument-free function that uses `check.*` ops (in
every `// -----` chunk with `--split-input-file`) on the interpreter, as
parsed or after `--pipeline`, and prints PASS or FAIL for each, exiting 1 if
any fails.

Every error is a diagnostic on stderr (file:line:col, or the argument's
name) and exit status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from xlir.targets.base import Executable, Signature, get_target
from xlir.tools.check_runner import check_source
from xlir.tools.cli import UsageError, run_command

from xlir.api import load_module
from xlir.diagnostics import XlirError, decode_source

PROG = "xlir-run"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Compile a StableHLO module for a target and run it."
    )
    parser.add_argument("file", help="the .mlir file to run ('-' for stdin)")
    parser.add_argument("--target", default="interpreter", help="target name")
    parser.add_argument("--function", default="main", help="function to run")
    parser.add_argument(
        "--pipeline",
        metavar="PASSES",
        help="HLO-level pass pipeline before the target runs (default: the "
        "target's, e.g. hlo-opt; '' for none; with --check, none unless given)",
    )
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--inputs", metavar="NPZ", help="inputs as arg0, arg1, ...")
    source.add_argument("--random", action="store_true", help="random inputs")
    parser.add_argument("--seed", type=int, default=0, help="seed for --random")
    parser.add_argument("--output", metavar="NPZ", help="save outputs as out0, ...")
    parser.add_argument("--expected", metavar="NPZ", help="compare with out0, ...")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--repeat", type=int, default=1, help="calls to time")
    parser.add_argument(
        "--check", action="store_true", help="run the check.* test functions"
    )
    parser.add_argument(
        "--split-input-file",
        action="store_true",
        help="with --check: treat each '// -----' chunk as its own module",
    )
    return parser


# --- inputs and outputs -------------------------------------------------------


def random_arguments(signature: Signature, seed: int) -> list[np.ndarray]:
    """Standard normal floats (and parts of complex numbers), integers in
    [0, 10), fair booleans."""
    rng = np.random.default_rng(seed)
    arrays = []
    for spec in signature.arguments:
        kind = spec.dtype.kind
        if kind == "f":
            value = rng.standard_normal(spec.shape).astype(spec.dtype)
        elif kind == "c":
            parts = rng.standard_normal((2, *spec.shape))
            value = (parts[0] + 1j * parts[1]).astype(spec.dtype)
        elif kind in "iu":
            value = rng.integers(0, 10, spec.shape).astype(spec.dtype)
        else:
            value = rng.integers(0, 2, spec.shape).astype(bool)
        arrays.append(np.asarray(value))
    return arrays


NPY_MAGIC = b"\x93NUMPY"
ZIP_MAGIC = b"PK\x03\x04"


def _load_arrays(path: str, prefix: str, count: int, what: str) -> list[np.ndarray]:
    try:
        with open(path, "rb") as file:
            magic = file.read(6)
    except OSError as error:
        raise UsageError(f"cannot read {what} file {path}: {error.strerror}") from None
    if not magic.startswith((NPY_MAGIC, ZIP_MAGIC)):
        raise UsageError(
            f"{what} file {path} is neither an .npz (a zip of arrays) nor an .npy file"
        )
    try:
        data = np.load(path, allow_pickle=False)
    except Exception as error:
        raise UsageError(f"cannot read {what} file {path}: {error}") from None
    if isinstance(data, np.ndarray):
        if count != 1:
            raise UsageError(
                f"{path} holds one array, but {count} {what}s are needed; "
                f"use an .npz with keys {prefix}0, {prefix}1, ..."
            )
        return [data]
    arrays = []
    for i in range(count):
        key = f"{prefix}{i}"
        if key not in data.files:
            present = ", ".join(data.files) or "none"
            raise UsageError(f"{path} has no array '{key}' (keys: {present})")
        arrays.append(_array(data, key, path))
    return arrays


def _array(data: Any, key: str, path: str) -> np.ndarray:
    """One array of an .npz; an entry that is not one (object arrays, which
    need pickle, or bytes that are no .npy) is a UsageError."""
    try:
        value = data[key]
    except Exception as error:
        raise UsageError(f"cannot read array '{key}' of {path}: {error}") from None
    if not isinstance(value, np.ndarray):
        raise UsageError(f"'{key}' in {path} is not an .npy array")
    return value


def _save_outputs(path: str, results: Sequence[np.ndarray]) -> None:
    """`out0, out1, ...` to `path` itself (`np.savez` given a name would add
    `.npz` to one that lacks it)."""
    outputs: dict[str, Any] = {f"out{i}": r for i, r in enumerate(results)}
    try:
        with open(path, "wb") as file:
            np.savez(file, **outputs)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None


def preview(array: np.ndarray, limit: int = 160) -> str:
    text = np.array2string(
        np.asarray(array), threshold=8, edgeitems=3, precision=6, max_line_width=10**6
    )
    text = re.sub(r"\s*\n\s*", " ", text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def compare(
    got: np.ndarray, want: np.ndarray, rtol: float, atol: float
) -> tuple[bool, str]:
    """(ok, verdict text) for one output."""
    if got.shape != want.shape:
        return False, f"shape {list(got.shape)} != expected {list(want.shape)}"
    if want.dtype.kind in "biu" or got.dtype.kind in "biu":
        if got.dtype != want.dtype:
            return False, f"dtype {got.dtype} != expected {want.dtype}"
        differ = got != want
        if not differ.any():
            return True, "exact match"
        index = tuple(int(i) for i in np.argwhere(differ)[0])
        return False, (
            f"{int(differ.sum())} of {got.size} elements differ; first at "
            f"{list(index)}: got {got[index]}, expected {want[index]}"
        )
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    same = (g == w) | (np.isnan(g) & np.isnan(w))  # inf and NaN where expected
    with np.errstate(invalid="ignore"):
        error = np.where(same, 0.0, np.abs(g - w))
    bad = ~same & (~np.isfinite(w) | ~(error <= atol + rtol * np.abs(w)))
    worst_abs = float(np.nanmax(error)) if error.size else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(
            w != 0, error / np.abs(w), np.where(error == 0, 0.0, np.inf)
        )
    worst_rel = float(np.nanmax(relative)) if relative.size else 0.0
    summary = f"max abs err {worst_abs:.3g}, max rel err {worst_rel:.3g}"
    if not bad.any():
        return True, f"within rtol={rtol:g} atol={atol:g} ({summary})"
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    return False, (
        f"{int(bad.sum())} of {got.size} elements outside rtol={rtol:g} "
        f"atol={atol:g} ({summary}); first at {list(index)}: got {got[index]}, "
        f"expected {want[index]}"
    )


# --- running ---------------------------------------------------------------------


def _read_source(path: str) -> tuple[str, str]:
    if path == "-":
        return decode_source(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
    try:
        return decode_source(Path(path).read_bytes(), path), path
    except FileNotFoundError:
        raise UsageError(f"no such file: {path}") from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None


def run_main(args: argparse.Namespace) -> int:
    if args.repeat < 1:
        raise UsageError("--repeat must be at least 1")
    if args.seed < 0:
        raise UsageError(f"--seed must be non-negative, not {args.seed}")
    text, name = _read_source(args.file)
    module, sources = load_module(text, name)
    platform = get_target(args.target)
    executable = platform.compiler().compile(
        module, args.function, sources, args.pipeline
    )
    signature = executable.signature
    count = len(signature.arguments)
    if args.inputs:
        arrays = _load_arrays(args.inputs, "arg", count, "input")
    elif args.random:
        arrays = random_arguments(signature, args.seed)
    elif count:
        names = ", ".join(str(a) for a in signature.arguments)
        raise UsageError(
            f"@{args.function} takes {count} argument(s) ({names}); "
            "give --inputs FILE.npz or --random"
        )
    else:
        arrays = []
    times = []
    results: tuple[np.ndarray, ...] = ()
    for _ in range(args.repeat):
        started = time.perf_counter()
        value = executable(*arrays)
        times.append(time.perf_counter() - started)
        results = value if isinstance(value, tuple) else (value,)
    _report_checks(executable)
    for i, (spec, result) in enumerate(zip(signature.results, results, strict=True)):
        print(f"out{i}: {spec.type_text} = {preview(result)}")
    status = 0
    if args.expected:
        wanted = _load_arrays(args.expected, "out", len(results), "expected output")
        for i, (got, want) in enumerate(zip(results, wanted, strict=True)):
            ok, verdict = compare(
                np.asarray(got), np.asarray(want), args.rtol, args.atol
            )
            print(f"out{i}: {'ok' if ok else 'MISMATCH'}: {verdict}")
            status |= 0 if ok else 1
        print(
            "PASSED" if status == 0 else "FAILED: outputs differ from the expected ones"
        )
    if args.output:
        _save_outputs(args.output, results)
    median = sorted(times)[len(times) // 2]
    print(
        f"time per call: {median * 1e3:.3f} ms (median of {len(times)}, "
        f"best {min(times) * 1e3:.3f} ms) on {platform.name}"
    )
    return status


def _report_checks(executable: Executable) -> None:
    failures = getattr(executable, "check_failures", None)
    if failures:
        for failure in failures:
            print(failure, file=sys.stderr)
        raise XlirError(f"error: {len(failures)} check(s) failed")


def run_checks(args: argparse.Namespace) -> int:
    if args.target != "interpreter":
        raise UsageError("--check runs on the interpreter target only for now")
    text, name = _read_source(args.file)
    passed = failed = 0
    broken_chunks: set[int] = set()
    for result in check_source(text, name, args.split_input_file, args.pipeline):
        if result.chunk_error:
            failed += 1
            if result.line not in broken_chunks:
                broken_chunks.add(result.line)
                print(result.problems[0], file=sys.stderr)
            print(f"FAIL @{result.function} (its chunk has errors)")
        elif result.skipped:
            print(f"SKIP @{result.function} (it takes arguments)")
        elif result.passed:
            passed += 1
            print(f"PASS @{result.function}")
        else:
            failed += 1
            print(f"FAIL @{result.function}")
            for problem in result.problems:
                print("  " + problem.replace("\n", "\n  "))
    summary = f"{passed} passed, {failed} failed"
    if broken_chunks:
        summary += f", {len(broken_chunks)} chunk(s) with errors"
    print(summary)
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)

    def body() -> int:
        with np.errstate(all="ignore"):
            return run_checks(args) if args.check else run_main(args)

    run_command(PROG, body)


if __name__ == "__main__":
    main()

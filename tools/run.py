"""`xlir-run`: compile a module for a target and run it.

    xlir-run FILE.mlir [--target NAME] [--function main]
             [--inputs in.npz | --random [--seed N]] [--output out.npz]
             [--expected ref.npz [--rtol R] [--atol A]] [--repeat N]
    xlir-run MODEL.xa1 (--inputs in.npz | --random) [--output out.npz] ...
    xlir-run FILE.mlir --target NAME (--inputs in.npz | --random) --bisect
             [--against interpreter] [--reproducer-dir DIR]
    xlir-run FILE.mlir --target NAME (--inputs in.npz | --random)
             --profile[=trace.json] [--repeat N]
    mpiexec -n N xlir-run FILE.mlir --target cpu --inputs in.npz [--expected ref.npz]
    xlir-run FILE.mlir --processes N --target cpu --inputs in.npz [--expected ref.npz]
    xlir-run --check [--split-input-file] [--target NAME[,NAME...]] FILE.mlir
    xlir-run --list-targets

Inputs come from an `.npz` with keys `arg0, arg1, ...` (other keys are
ignored; a single-argument function may take an `.npy`), or are random with
a seed. Outputs are printed (shape, dtype, a short preview) and may be saved
as `out0, out1, ...`; `--expected` compares them with an `.npz` of `outN`
with a tolerance per dtype (`tools/compare.py`: integers and booleans
exactly, f32 within `1e-5 + 1e-4 * |want|`, bf16 and f16 within 8 ulp, ...;
`--rtol`/`--atol` set one rule for every float type) and exits 1 on a
mismatch. Arrays of bf16, float8, int4, ... are `ml_dtypes` arrays; an
`.npz` holds them as raw bytes (`|V2` for bf16, as JAX's arrays save), which
are read as the function's argument or result type. A shape-polymorphic
function (`tensor<?x16xf32>`) is compiled for the shapes of its inputs.

A file that `xlir-compile` wrote for a target that runs its files
(`Target.program_magic`: accel's `.xa1`) runs as it is, without compiling,
on that target (`Compiler.load_ahead_of_time`), with the same flags for
inputs and outputs.

`--check` runs every argument-free function that uses `check.*` ops (in
every `// -----` chunk with `--split-input-file`) on each target named
(`--target interpreter,cpu`: one section per target), and prints PASS or FAIL
for each, exiting 1 if any fails on any target. A target that runs check
ops itself (`Target.runs_check_ops`: the interpreter) runs the module as
parsed, or after `--pipeline`; another target compiles each test through
`check-to-outputs` and its pipeline (tools/check_runner.py).

`--bisect` (tools/bisect.py) finds the first kernel whose outputs differ
from the reference's and writes a reproducer; `--profile`
(tools/profile.py) times each kernel (docs/tools.md).

Under mpiexec (or with `--processes N`, which starts it) each rank runs a
sharded program on its own `r{rank}_arg*` inputs and rank 0 reports every
rank's outputs (tools/sharded_run.py).

`--list-targets` prints every registered target (the `xlir.targets` entry
points, targets/registry.py): its name, then its one-line description.

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

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xlir.targets.base import Executable
from xlir.targets.mpi_communicator import INSTALL_HINT, launched_by_mpiexec
from xlir.targets.registry import (
    get_platform,
    get_target,
    reference_target,
    target_names,
)
from xlir.targets.signatures import function_signature
from xlir.tools.check_runner import check_source
from xlir.tools.cli import UsageError, run_command
from xlir.tools.compare import compare, tolerance_for
from xlir.tools.mpi_launcher import launch, mpi_installed, without_processes
from xlir.tools.sharded_run import run_in_process, run_rank

from xlir.api import load_executable, load_module
from xlir.diagnostics import XlirError, decode_source
from xlir.element_dtypes import from_void, to_void, value_kind
from xlir.polymorphic import ShapePolymorphicExecutable, needs_refinement
from xlir.signature import Signature

PROG = "xlir-run"
DEFAULT_TARGET = "interpreter"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Compile a StableHLO module for a target and run it."
    )
    parser.add_argument(
        "file",
        nargs="?",
        help="the .mlir file to run, or a file xlir-compile wrote for a target "
        "that runs it (e.g. model.xa1); '-' for stdin",
    )
    parser.add_argument(
        "--list-targets",
        action="store_true",
        help="print each registered target's name and description, and exit",
    )
    parser.add_argument(
        "--target",
        help=f"target name (default: {DEFAULT_TARGET}, or the target of a compiled "
        "file; with --check, a comma-separated list runs each)",
    )
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
    parser.add_argument(
        "--rtol", type=float, help="relative tolerance for floats (default: per dtype)"
    )
    parser.add_argument(
        "--atol", type=float, help="absolute tolerance for floats (default: per dtype)"
    )
    parser.add_argument("--repeat", type=int, default=1, help="calls to time")
    parser.add_argument(
        "--check", action="store_true", help="run the check.* test functions"
    )
    parser.add_argument(
        "--profile",
        nargs="?",
        const="",
        metavar="TRACE.json",
        help="time each kernel (--repeat calls after a warm-up) on the "
        "device's clock where it keeps one (accel: simulated cycles) and print "
        "a table with bytes, FLOPs and their rates; with a file name, also "
        "write a Chrome trace there (tools/profile.py)",
    )
    parser.add_argument(
        "--bisect",
        action="store_true",
        help="find the first kernel whose outputs differ on --target from "
        "--against, and write a reproducer of it (tools/bisect.py)",
    )
    parser.add_argument(
        "--against",
        metavar="TARGET",
        help="with --bisect: the target to compare with (default: the reference "
        "target, Target.is_reference)",
    )
    parser.add_argument(
        "--reproducer-dir",
        metavar="DIR",
        help="with --bisect: where the reproducer's .mlir and .npz go (default: .)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        metavar="N",
        help="run a sharded program on N ranks: starts `mpiexec -n N` on this "
        "command (tools/sharded_run.py)",
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
    [0, 10) (up to the type's largest), fair booleans."""
    rng = np.random.default_rng(seed)
    arrays = []
    for spec in signature.arguments:
        kind = value_kind(spec.dtype)
        if kind == "f":
            value = rng.standard_normal(spec.shape).astype(spec.dtype)
        elif kind == "c":
            parts = rng.standard_normal((2, *spec.shape))
            value = (parts[0] + 1j * parts[1]).astype(spec.dtype)
        elif kind in "iu":
            high = min(10, int(ml_dtypes.iinfo(spec.dtype).max) + 1)
            value = rng.integers(0, high, spec.shape).astype(spec.dtype)
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
    `.npz` to one that lacks it); `ml_dtypes` arrays as their raw bytes."""
    outputs: dict[str, Any] = {
        f"out{i}": to_void(np.asarray(r)) for i, r in enumerate(results)
    }
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


# --- running ---------------------------------------------------------------------


def _read_source(path: str) -> tuple[str, str]:
    data, name = _read_bytes(path)
    return decode_source(data, name), name


def _is_binary(data: bytes) -> bool:
    """Whether a file is binary rather than MLIR text, which holds no NUL
    byte (checked over the first KiB)."""
    return b"\0" in data[:1024]


def _read_bytes(path: str) -> tuple[bytes, str]:
    if path == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    try:
        return Path(path).read_bytes(), path
    except FileNotFoundError:
        raise UsageError(f"no such file: {path}") from None
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None


def list_targets() -> int:
    """One line per registered target: its name, then its description."""
    targets = [get_target(name) for name in target_names()]
    width = max((len(t.name) for t in targets), default=0)
    for target in targets:
        print(f"{target.name:<{width}}  {target.description}")
    return 0


def run_main(args: argparse.Namespace) -> int:
    if args.repeat < 1:
        raise UsageError("--repeat must be at least 1")
    if args.seed < 0:
        raise UsageError(f"--seed must be non-negative, not {args.seed}")
    if args.target and "," in args.target:
        raise UsageError(
            f"--target {args.target}: several targets run only with --check; "
            "name one target to run a function"
        )
    _check_modes(args)
    data, name = _read_bytes(args.file)
    if _is_binary(data):
        return _run_program(args, data, name)
    args.target = args.target or DEFAULT_TARGET
    module, sources = load_module(decode_source(data, name), name)
    if args.bisect:
        return _bisect(args, module, sources, name)
    if args.profile is not None:
        return _profile(args, module, sources)
    platform = get_platform(args.target)
    compiler = platform.compiler()
    if needs_refinement(module):
        executable: Executable = ShapePolymorphicExecutable(
            compiler, module, args.function, sources, args.pipeline
        )
    else:
        executable = compiler.compile(module, args.function, sources, args.pipeline)
    signature = executable.signature
    dynamic = isinstance(executable, ShapePolymorphicExecutable)
    arrays = _arguments(args, signature, dynamic)
    if isinstance(executable, ShapePolymorphicExecutable):
        checked = signature.check_arguments(arrays)
        executable = executable.specialize([a.shape for a in checked])
    return _call(args, executable, arrays)


def _run_program(args: argparse.Namespace, data: bytes, name: str) -> int:
    """Run a file `xlir-compile` wrote, as it is, on its target."""
    for flag, given in (
        ("--pipeline", args.pipeline is not None),
        ("--bisect", args.bisect),
        ("--profile", args.profile is not None),
    ):
        if given:
            raise UsageError(
                f"{flag} needs the program's source: {name} is compiled "
                "already; give the .mlir"
            )
    executable = load_executable(data, name)
    target = executable.platform.name
    if args.target not in (None, target):
        raise UsageError(
            f"{name} is compiled for target '{target}'; it does not run on "
            f"'{args.target}' (drop --target, or compile the .mlir for it)"
        )
    function = executable.signature.function
    if args.function not in ("main", function):
        raise UsageError(
            f"{name} holds @{function}, not @{args.function}; drop --function"
        )
    args.function = function
    return _call(args, executable, _arguments(args, executable.signature, False))


def _call(
    args: argparse.Namespace, executable: Executable, arrays: list[np.ndarray]
) -> int:
    """Call `executable` `--repeat` times and report its outputs and time."""
    times = []
    results: tuple[np.ndarray, ...] = ()
    for _ in range(args.repeat):
        started = time.perf_counter()
        value = executable(*arrays)
        times.append(time.perf_counter() - started)
        results = value if isinstance(value, tuple) else (value,)
    _report_checks(executable)
    status = _report_outputs(args, executable.signature, results)
    median = sorted(times)[len(times) // 2]
    print(
        f"time per call: {median * 1e3:.3f} ms (median of {len(times)}, "
        f"best {min(times) * 1e3:.3f} ms) on {executable.platform.name}"
    )
    return status


def _report_outputs(
    args: argparse.Namespace, signature: Signature, results: Sequence[np.ndarray]
) -> int:
    """Print the outputs, compare them with `--expected` and save them to
    `--output`; 1 on a mismatch."""
    for i, (spec, result) in enumerate(zip(signature.results, results, strict=True)):
        print(f"out{i}: {spec.type_text} = {preview(result)}")
    status = 0
    if args.expected:
        wanted = _load_arrays(args.expected, "out", len(results), "expected output")
        for i, (spec, got, want) in enumerate(
            zip(signature.results, results, wanted, strict=True)
        ):
            tolerance = tolerance_for(spec.dtype, args.rtol, args.atol)
            ok, verdict = compare(
                np.asarray(got), from_void(np.asarray(want), spec.dtype), tolerance
            )
            print(f"out{i}: {'ok' if ok else 'MISMATCH'}: {verdict}")
            status |= 0 if ok else 1
        print(
            "PASSED" if status == 0 else "FAILED: outputs differ from the expected ones"
        )
    if args.output:
        _save_outputs(args.output, results)
    return status


def _check_modes(args: argparse.Namespace) -> None:
    """Flags that belong to a mode given without it, or modes together."""
    if args.bisect and args.profile is not None:
        raise UsageError("--bisect and --profile run separately; give one")
    if not args.bisect:
        for flag, value in (
            ("--against", args.against),
            ("--reproducer-dir", args.reproducer_dir),
        ):
            if value is not None:
                raise UsageError(f"{flag} goes with --bisect")
    elif args.expected or args.output:
        raise UsageError(
            "--bisect compares with --against, and saves a reproducer rather "
            "than outputs; drop --expected and --output"
        )


def _arguments(
    args: argparse.Namespace, signature: Signature, dynamic: bool
) -> list[np.ndarray]:
    """The arrays `--inputs` or `--random` give the function."""
    count = len(signature.arguments)
    names = ", ".join(str(a) for a in signature.arguments)
    if args.inputs:
        return _load_arrays(args.inputs, "arg", count, "input")
    if args.random and dynamic:
        raise UsageError(
            f"@{args.function} has dynamic shapes ({names}); give --inputs "
            "FILE.npz with arrays of the shapes to compile it for"
        )
    if args.random:
        return random_arguments(signature, args.seed)
    if count:
        raise UsageError(
            f"@{args.function} takes {count} argument(s) ({names}); "
            "give --inputs FILE.npz or --random"
        )
    return []


def _profile(
    args: argparse.Namespace, module: ModuleOp, sources: dict[str, str]
) -> int:
    if needs_refinement(module):
        raise UsageError(
            "--profile needs static shapes; specialise the program first "
            "(xlir-opt -p 'refine-shapes{types=...}')"
        )
    # Imported here, as bisect below: they bring in the loop level's lowering,
    # which running on the interpreter does without.
    from xlir.tools.profile import profile, profile_table, write_trace

    signature = function_signature(module, args.function)
    arrays = signature.check_arguments(_arguments(args, signature, False))
    results, measured = profile(
        module,
        sources,
        arrays,
        args.target,
        args.function,
        args.pipeline,
        args.repeat,
    )
    status = _report_outputs(args, signature, results)
    print(profile_table(measured))
    if args.profile:
        write_trace(measured, args.profile)
        print(
            f"trace: {args.profile} (trace-event JSON: chrome://tracing or "
            "https://ui.perfetto.dev)"
        )
    return status


def _bisect(
    args: argparse.Namespace, module: ModuleOp, sources: dict[str, str], name: str
) -> int:
    if needs_refinement(module):
        raise UsageError(
            "--bisect needs static shapes; specialise the program first "
            "(xlir-opt -p 'refine-shapes{types=...}')"
        )
    from xlir.tools.bisect import BisectOptions, bisect

    against = args.against or reference_target()
    get_target(against)  # an unknown name is a diagnostic before any run
    signature = function_signature(module, args.function)
    arrays = signature.check_arguments(_arguments(args, signature, False))
    options = BisectOptions(
        target=args.target,
        against=against,
        function=args.function,
        pipeline=args.pipeline,
        rtol=args.rtol,
        atol=args.atol,
        out_dir=Path(args.reproducer_dir or "."),
        stem=Path(name).name.removesuffix(".mlir"),
    )
    return bisect(module, sources, arrays, options)


def _report_checks(executable: Executable) -> None:
    failures = executable.check_failures
    if failures:
        for failure in failures:
            print(failure, file=sys.stderr)
        raise XlirError(f"error: {len(failures)} check(s) failed")


def run_checks(args: argparse.Namespace) -> int:
    if args.bisect or args.profile is not None:
        raise UsageError("--check runs test functions; --bisect and --profile run one")
    targets = [t.strip() for t in args.target.split(",")]
    for target in targets:
        get_target(target)  # an unknown name is a diagnostic before any run
    text, name = _read_source(args.file)
    status = 0
    for target in targets:
        if len(targets) > 1:
            print(f"== target {target} ==")
        status |= _run_checks_on(target, text, name, args)
    return status


def _run_checks_on(target: str, text: str, name: str, args: argparse.Namespace) -> int:
    passed = failed = 0
    broken_chunks: set[int] = set()
    results = check_source(text, name, args.split_input_file, args.pipeline, target)
    for result in results:
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
    print(f"{summary} on {target}")
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    if launched_by_mpiexec() and args.file is not None and not args.list_targets:
        args.target = args.target or DEFAULT_TARGET
        run_rank(args, _read_source, preview, random_arguments)

    def body() -> int:
        if args.list_targets:
            return list_targets()
        if args.file is None:
            raise UsageError("give the .mlir file to run ('-' for stdin)")
        if args.processes is not None and mpi_installed():
            given = sys.argv[1:] if argv is None else list(argv)
            return launch(args.processes, without_processes(given))
        if args.processes is not None:
            print(
                f"{PROG}: {INSTALL_HINT}; running the ranks as threads", file=sys.stderr
            )
            args.target = args.target or DEFAULT_TARGET
            return run_in_process(args, _read_source, preview, random_arguments)
        with np.errstate(all="ignore"):
            if args.check:
                args.target = args.target or DEFAULT_TARGET
                return run_checks(args)
            return run_main(args)

    run_command(PROG, body)


if __name__ == "__main__":
    main()

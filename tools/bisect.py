"""`xlir-run --bisect`: the first kernel a target computes wrongly.

The program runs on the target and on the reference (the interpreter, by
default) as a whole; then the target's HLO pipeline fuses it, and each
kernel of the entry function (tools/kernel_extraction.py), in execution
order, is compiled alone on both and run on the inputs the *reference* gave
it, so one wrong kernel does not make every later one look wrong. The first
kernel whose outputs differ (or that the target fails to compile) is
reported with its fusion, the source lines it comes from and the worst
error, and written as a reproducer: `PREFIX.mlir` (the kernel's fused HLO,
an `@main`) and `PREFIX.npz` (its inputs `argN` and the reference's outputs
`outN`), which `xlir-run PREFIX.mlir --target T --inputs PREFIX.npz
--expected PREFIX.npz` replays.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xlir.targets.base import Executable
from xlir.targets.registry import get_platform
from xlir.tools.cli import UsageError
from xlir.tools.compare import compare, tolerance_for
from xlir.tools.kernel_extraction import (
    Kernel,
    entry_steps,
    kernel_module,
    read_from_outside,
    source_locations,
)

from xlir.api import load_module
from xlir.diagnostics import XlirError
from xlir.element_dtypes import to_void
from xlir.printing import module_text

SHOWN_LOCATIONS = 6
"""Source locations listed per kernel before the rest are counted."""


@dataclass(frozen=True)
class BisectOptions:
    target: str
    against: str
    function: str
    pipeline: str | None
    rtol: float | None
    atol: float | None
    out_dir: Path
    stem: str
    """The input file's name without `.mlir`: the reproducer's prefix."""


@dataclass
class Verdict:
    ok: bool
    lines: list[str]


def bisect(
    module: ModuleOp,
    sources: dict[str, str],
    arrays: Sequence[np.ndarray],
    options: BisectOptions,
) -> int:
    """Print the bisection's report; 1 when a kernel (or the program)
    differs, 0 when the target agrees with the reference throughout."""
    if options.target == options.against:
        raise UsageError(
            f"--bisect compares two targets; --target and --against are both "
            f"'{options.target}'"
        )
    target = get_platform(options.target).compiler()
    reference = get_platform(options.against).compiler()
    label = f"{options.target} against {options.against}"
    want = _call(
        reference.compile(module.clone(), options.function, sources, ""), arrays
    )
    got = _call(
        target.compile(module.clone(), options.function, sources, options.pipeline),
        arrays,
    )
    program = _compare(got, want, options)
    print(f"program: {'ok' if program.ok else 'MISMATCH'} on {label}")
    for line in program.lines:
        print("  " + line)
    optimized = target.run_hlo_passes(module.clone(), options.pipeline, sources)
    entry = _entry(optimized, options.function)
    values: dict[SSAValue, np.ndarray] = dict(
        zip(entry.body.block.args, arrays, strict=True)
    )
    steps = entry_steps(entry)
    count = sum(kernel is not None for _, kernel in steps)
    number = 0
    for op, kernel in steps:
        if op.name == "func.return":
            break
        step = kernel or Kernel(op, op.name, read_from_outside(op))
        text = module_text(kernel_module(step, optimized))
        name = f"{options.stem}.{_file_safe(step.name)}.mlir"
        inputs = [values[v] for v in step.inputs]
        expected = _run(reference, text, name, "", inputs)
        values.update(zip(op.results, expected, strict=True))
        if kernel is None:
            continue
        number += 1
        try:
            outputs = _run(target, text, name, options.pipeline, inputs)
        except XlirError as error:
            verdict = Verdict(False, [f"fails to compile on {options.target}:"])
            verdict.lines += str(error).splitlines()
        else:
            verdict = _compare(outputs, expected, options)
        print(f"{'ok' if verdict.ok else 'MISMATCH'} [{number}/{count}] {kernel.name}")
        if not verdict.ok:
            _report(kernel, verdict, number, count, label)
            _write_reproducer(text, name, inputs, expected, kernel, options)
            return 1
    if program.ok:
        print(f"no kernel differs: {count} kernel(s) agree on {label}")
        return 0
    print(
        f"every one of the {count} kernel(s) agrees on {label} alone, but the "
        "program does not: the difference lies between kernels (the host "
        "schedule, the buffer plan)"
    )
    return 1


def _entry(module: ModuleOp, function: str) -> func.FuncOp:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == function:
            return op
    raise XlirError(f"error: the optimized module has no function @{function}")


def _call(executable: Executable, arrays: Sequence[Any]) -> tuple[np.ndarray, ...]:
    value = executable(*arrays)
    return value if isinstance(value, tuple) else (value,)


def _run(
    compiler: Any,
    text: str,
    name: str,
    pipeline: str | None,
    inputs: Sequence[np.ndarray],
) -> tuple[np.ndarray, ...]:
    """Compile the kernel's text as `xlir-run` would its reproducer, and run."""
    kernel, sources = load_module(text, name)
    return _call(compiler.compile(kernel, "main", sources, pipeline), inputs)


def _compare(
    got: Sequence[np.ndarray], want: Sequence[np.ndarray], options: BisectOptions
) -> Verdict:
    verdict = Verdict(True, [])
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        tolerance = tolerance_for(w.dtype, options.rtol, options.atol)
        ok, text = compare(np.asarray(g), np.asarray(w), tolerance)
        verdict.ok &= ok
        verdict.lines.append(f"out{index}: {text}")
    return verdict


def _report(
    kernel: Kernel, verdict: Verdict, number: int, count: int, label: str
) -> None:
    print(
        f"first wrong kernel: {kernel.description}, kernel {number} of {count}, "
        f"on {label}"
    )
    where = source_locations(kernel.op)
    shown = ", ".join(where[:SHOWN_LOCATIONS])
    if len(where) > SHOWN_LOCATIONS:
        shown += f", ... ({len(where) - SHOWN_LOCATIONS} more)"
    print(f"  from: {shown or 'no source location'}")
    for line in verdict.lines:
        print("  " + line)


def _write_reproducer(
    text: str,
    name: str,
    inputs: Sequence[np.ndarray],
    expected: Sequence[np.ndarray],
    kernel: Kernel,
    options: BisectOptions,
) -> None:
    mlir = options.out_dir / name
    npz = mlir.with_suffix(".npz")
    command = (
        f"xlir-run {mlir} --target {options.target} --inputs {npz} --expected {npz}"
    )
    if options.pipeline is not None:
        command += f" --pipeline '{options.pipeline}'"
    header = (
        f"// The first kernel xlir-run --bisect found wrong on {options.target} "
        f"(against {options.against}): {kernel.description}\n"
        f"// from: {', '.join(source_locations(kernel.op)) or 'no source location'}\n"
        f"// replay: {command}\n"
    )
    arrays: dict[str, Any] = {f"arg{i}": to_void(a) for i, a in enumerate(inputs)}
    arrays |= {f"out{i}": to_void(np.asarray(a)) for i, a in enumerate(expected)}
    try:
        options.out_dir.mkdir(parents=True, exist_ok=True)
        mlir.write_text(header + text)
        with open(npz, "wb") as file:
            np.savez(file, **arrays)
    except OSError as error:
        raise UsageError(f"cannot write the reproducer {mlir}: {error}") from None
    print(f"reproducer: {mlir} and {npz}")
    print(f"  {command}")


def _file_safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)

"""Running self-checking files (`check.*` ops) on a target.

A *test* is an argument-free function that uses `check.*` ops (in a chunk
where no function does, every argument-free function is a test, which passes
if it runs). A file is one
module, or with `split` one module per `// -----` chunk. A chunk that does not
parse, verify or prepare fails every test it holds; those are found in its
text, so that a broken chunk still counts as many tests as a working one.
`xlir-run --check` prints what `check_source` returns, and the conformance
tests compare it with their lists of known failures. With a pass pipeline,
each test runs through it first (as `xlir-run` runs programs), so the suite
checks the passes too.

On a target that runs check ops itself (`Target.runs_check_ops`, the
reference) a test runs as written, its `pipeline` applied first (None: none).
On every other target a test goes through `check-to-outputs`
(passes/hlo/check_to_outputs.py): the target compiles and runs the function
with its constants as arguments and the checked values as results, and the
evaluator runs the check ops on those results; no target needs code for
them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xlir.evaluator.hlo import ModuleInterpreter
from xlir.evaluator.hlo.types import as_held
from xlir.targets.base import Executable
from xlir.targets.registry import get_platform, get_target
from xlir.targets.signatures import function_signature

from xlir.context import make_context
from xlir.diagnostics import XlirError, format_parse_error, verify_module
from xlir.parsing import XlirParser
from xlir.pass_manager import run_pipeline
from xlir.walk import walk

_FUNCTION = re.compile(r"func\.func\s+(?:(?:public|private|nested)\s+)?@([\w$.-]+)")


@dataclass
class CheckResult:
    """One test: its function, the line of its chunk, and what went wrong
    (nothing when it passed). `skipped` tests take arguments."""

    function: str
    line: int
    problems: list[str] = field(default_factory=list)
    skipped: bool = False
    chunk_error: bool = False
    """The chunk did not parse, verify or prepare (its one problem says why)."""

    @property
    def passed(self) -> bool:
        return not self.problems and not self.skipped


def split_chunks(text: str) -> list[tuple[str, int]]:
    """The `// -----` chunks of a file with the line offset of each."""
    chunks: list[tuple[str, int]] = []
    lines = text.split("\n")
    start = 0
    for index, line in enumerate(lines):
        if line.strip() == "// -----":
            chunks.append(("\n".join(lines[start:index]), start))
            start = index + 1
    chunks.append(("\n".join(lines[start:]), start))
    return chunks


def _parse_chunk(text: str, name: str, offset: int, whole: str) -> ModuleOp:
    try:
        module = XlirParser(make_context(), text, name, offset).parse_module()
    except ParseError as error:
        raise XlirError(format_parse_error(error, offset)) from None
    except DiagnosticException as error:
        raise XlirError(f"{name}: error: {error}") from None
    verify_module(module, {name: whole})
    return module


def _check_functions(module: ModuleOp) -> list[tuple[str, int]]:
    """(name, argument count) of each test function: those that use check
    ops, or where none does, those that take no arguments."""
    checking, argument_free = [], []
    for op in walk(module):
        if op.name != "func.func" or not op.regions[0].blocks:
            continue
        name = op.properties.get("sym_name") or op.attributes.get("sym_name")
        entry = (getattr(name, "data", "?"), len(op.regions[0].blocks[0].args))
        if any(n.name.startswith("check.") for n in walk(op)):
            checking.append(entry)
        elif entry[1] == 0:
            argument_free.append(entry)
    return checking or argument_free


def _functions_in_text(text: str, offset: int) -> list[str]:
    """The test functions of a chunk that cannot be parsed, found as
    `_check_functions` finds them; the chunk's line if there are none."""
    starts = list(_FUNCTION.finditer(text))
    checking, argument_free = [], []
    for match, after in zip(starts, [*starts[1:], None], strict=False):
        body = text[match.end() : after.start() if after else len(text)]
        if "check." in body:
            checking.append(match.group(1))
        elif body.lstrip().startswith("()"):
            argument_free.append(match.group(1))
    return checking or argument_free or [f"<chunk at line {offset + 1}>"]


def check_source(
    text: str,
    name: str,
    split: bool,
    pipeline: str | None = None,
    target: str = "interpreter",
) -> list[CheckResult]:
    """Run every test of a self-checking file on `target`, each with
    `pipeline` (a pass pipeline, e.g. `hlo-opt`) applied first. None: as
    written on a target that runs check ops, else the target's default."""
    results: list[CheckResult] = []
    sources = {name: text}
    chunks = split_chunks(text) if split else [(text, 0)]
    run_test = _run_as_written if get_target(target).runs_check_ops else _run_split
    for chunk, offset in chunks:
        try:
            module = _parse_chunk(chunk, name, offset, text)
        except XlirError as error:
            results.extend(
                CheckResult(function, offset + 1, [str(error)], chunk_error=True)
                for function in _functions_in_text(chunk, offset)
            )
            continue
        for function, arguments in _check_functions(module):
            result = CheckResult(function, offset + 1, skipped=arguments > 0)
            results.append(result)
            if result.skipped:
                continue
            try:
                with np.errstate(all="ignore"):
                    result.problems = run_test(
                        module, function, sources, pipeline, target
                    )
            except XlirError as error:
                result.problems = [str(error)]
    return results


def _run_as_written(
    module: ModuleOp,
    function: str,
    sources: dict[str, str],
    pipeline: str | None,
    target: str,
) -> list[str]:
    """The failures of the test's check ops, run by `target` itself."""
    compiler = get_platform(target).compiler()
    passes = "" if pipeline is None else pipeline
    executable = compiler.compile(module.clone(), function, sources, passes)
    executable()
    return list(executable.check_failures)


def _split_test(
    module: ModuleOp, function: str, sources: dict[str, str]
) -> tuple[ModuleOp, ModuleOp]:
    """(what the target compiles, what the host runs) for one test: the
    chunk without the other tests, through `check-to-outputs`; the test's
    inputs and checks functions go to the host's module."""
    from xdsl.dialects.func import FuncOp
    from xlir.passes.hlo.check_to_outputs import (
        CHECKS_SUFFIX,
        INPUTS_SUFFIX,
        CheckToOutputsPass,
    )

    program = module.clone()
    others = {name for name, _ in _check_functions(program)} - {function}
    for op in list(program.ops):
        if isinstance(op, FuncOp) and op.sym_name.data in others:
            program.body.block.erase_op(op)
    run_pipeline(make_context(), program, CheckToOutputsPass.name, sources)
    host = ModuleOp([])
    for op in list(program.ops):
        if isinstance(op, FuncOp) and op.sym_name.data in (
            function + CHECKS_SUFFIX,
            function + INPUTS_SUFFIX,
        ):
            op.detach()
            host.body.block.add_op(op)
    return program, host


def _run_split(
    module: ModuleOp,
    function: str,
    sources: dict[str, str],
    pipeline: str | None,
    target: str,
) -> list[str]:
    """Compile the test for `target`, feed it its constants, and run its
    checks on the evaluator over what it returns (a test without checks
    passes if it runs)."""
    from xlir.passes.hlo.check_to_outputs import CHECKS_SUFFIX, INPUTS_SUFFIX

    program, host = _split_test(module, function, sources)
    compiler = get_platform(target).compiler()
    record = compiler.optimize(program, function, sources, pipeline)
    executable = compiler.run_backend(program, record, sources)
    if not list(host.ops):
        _call(executable, [])
        return []
    reference = ModuleInterpreter(host, sources)
    outputs = _call(executable, reference.call(function + INPUTS_SUFFIX, []))
    checks = function_signature(host, function + CHECKS_SUFFIX).arguments
    checked = outputs[len(outputs) - len(checks) :]
    held = [
        as_held(array.astype(spec.dtype, copy=False), spec.element_type)
        for array, spec in zip(checked, checks, strict=True)
    ]
    reference.call(function + CHECKS_SUFFIX, held)
    return list(reference.check_failures)


def _call(executable: Executable, arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The executable's results on `arrays`, each first held in the dtype
    its signature asks (targets may hold a narrow type differently)."""
    arguments = [
        np.asarray(array).astype(spec.dtype, copy=False)
        for array, spec in zip(arrays, executable.signature.arguments, strict=True)
    ]
    results = executable(*arguments)
    return list(results) if isinstance(results, tuple) else [results]

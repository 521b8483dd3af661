"""LLVM's time on each function of a program's cpu module.

    python benchmarks/llvm_functions.py [--repeat N] [--dump DIR] PROGRAM ...

PROGRAM is a StableHLO file, or the name of a program of the broad corpus
(`benchmarks/broad/bench/NAME.mlir`) or of the bench corpus. Each program
is optimized and lowered to the llvm dialect as the cpu target compiles it
(`lower_to_llvm`); then each function definition is translated as an LLVM
module of its own (the symbols it uses declared, as `codegen_parts` makes a
part) and optimized and emitted on this thread, `--repeat` times; the table
gives per function the least thread CPU time of `optimize` and of `emit`,
its lines of LLVM IR, its blocks and ops in the llvm dialect and
`codegen_parts`' cost estimate, costliest first, and last the same for the
whole module as one part. A module of its own costs what every module does
(a pass pipeline and a code generator set up: the loop-free launchers show
about how much), so the functions' sum is above the whole module's.
`--dump DIR` writes each function's LLVM IR to `DIR/PROGRAM.FUNCTION.ll`
(for `opt`, `llc -time-passes`, or an edited copy timed again).

Thread CPU time, not wall time: on a shared machine it is the steadier
figure; compare variants in one run, alternated.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import llvmlite.binding as llvm
from llvmlite.binding import ffi
from xdsl.dialects import llvm as llvm_dialect
from xdsl.dialects.builtin import ModuleOp
from xlir.lowering.llvm.llvmlite_module import OPT_LEVEL, _optimized, llvm_ir
from xlir.targets.cpu import CpuCompiler, lower_to_llvm
from xlir.targets.cpu.codegen_parts import Part, _cost_and_uses, part_modules
from xlir.targets.cpu.host_machine import thread_host_machine
from xlir.targets.registry import get_platform

from xlir.context import make_context
from xlir.parsing import parse_module

ROOT = Path(__file__).resolve().parent
CORPORA = (ROOT / "broad" / "bench", ROOT.parents[1] / "shared" / "corpus" / "bench")


def program_path(name: str) -> Path:
    """A file, or a corpus program's by its name."""
    path = Path(name)
    if path.exists():
        return path
    for corpus in CORPORA:
        found = corpus / f"{name}.mlir"
        if found.exists():
            return found
    raise SystemExit(f"error: no program {name!r} (a file, or a name in {CORPORA})")


def llvm_module(text: str) -> ModuleOp:
    """The program lowered to the llvm dialect as the cpu target does."""
    compiler = get_platform("cpu").compiler()
    assert isinstance(compiler, CpuCompiler)
    module = parse_module(make_context(), text)
    record = compiler.optimize(module)
    lower_to_llvm(compiler.cpu, module, record, compiler.options)
    return module


def llvm_seconds(ir: str, repeat: int) -> tuple[float, float]:
    """The least thread CPU seconds of optimizing `ir` and of emitting its
    object code for this host, as `codegen_parts`' workers do."""
    machine = thread_host_machine()
    best: tuple[float, float] | None = None
    for _ in range(repeat):
        start = time.thread_time()
        module = _optimized(ir, machine, OPT_LEVEL, llvm.create_context())
        optimized = time.thread_time()
        with ffi.OutputString() as error:
            buffer = ffi.lib.LLVMPY_TargetMachineEmitToMemory(machine, module, 1, error)
            if not buffer:
                raise RuntimeError(str(error))
        emitted = time.thread_time()
        ffi.lib.LLVMPY_DisposeMemoryBuffer(buffer)
        times = (optimized - start, emitted - optimized)
        if best is None or sum(times) < sum(best):
            best = times
    assert best is not None
    return best


def function_rows(module: ModuleOp) -> list[tuple[str, str, float, int, int]]:
    """(name, LLVM IR, estimated cost, blocks, ops) of each function
    definition, translated as a module of its own."""
    definitions = [
        op
        for op in module.body.block.ops
        if isinstance(op, llvm_dialect.FuncOp) and op.body.blocks
    ]
    parts = []
    for op in definitions:
        cost, uses = _cost_and_uses(op)
        parts.append(Part([op], cost, uses))
    rows = []
    with part_modules(module, parts) as modules:
        for op, part, (part_module, exported) in zip(
            definitions, parts, modules, strict=True
        ):
            blocks = len(op.body.blocks)
            ops = sum(len(block.ops) for block in op.body.blocks)
            ir = llvm_ir(part_module, exported=exported)
            rows.append((op.sym_name.data, ir, part.cost, blocks, ops))
    return rows


def ir_lines(ir: str) -> int:
    """Instructions and labels of the function bodies in `ir`."""
    return sum(1 for line in ir.splitlines() if line.startswith(("  ", ".")))


def report(name: str, repeat: int, dump: Path | None) -> None:
    module = llvm_module(program_path(name).read_text())
    rows = []
    for function, ir, cost, blocks, ops in function_rows(module):
        optimize, emit = llvm_seconds(ir, repeat)
        rows.append((optimize + emit, function, optimize, emit, ir, cost, blocks, ops))
        if dump is not None:
            dump.mkdir(parents=True, exist_ok=True)
            (dump / f"{Path(name).stem}.{function}.ll").write_text(ir)
    whole = llvm_ir(module)
    optimize, emit = llvm_seconds(whole, repeat)
    print(f"{name}: optimize + emit, ms (least of {repeat}, thread CPU)")
    print(
        f"  {'function':<36} {'opt':>6} {'emit':>6} {'lines':>6} {'blocks':>6} "
        f"{'ops':>5} {'est':>6}"
    )
    for _, function, opt, em, ir, cost, blocks, ops in sorted(rows, reverse=True):
        print(
            f"  {function:<36} {opt * 1e3:6.1f} {em * 1e3:6.1f} {ir_lines(ir):6d} "
            f"{blocks:6d} {ops:5d} {cost:6.1f}"
        )
    total = sum(row[0] for row in rows)
    print(f"  {'sum of the functions':<36} {total * 1e3:13.1f}")
    print(
        f"  {'whole module':<36} {optimize * 1e3:6.1f} {emit * 1e3:6.1f} "
        f"{ir_lines(whole):6d}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("programs", nargs="+", metavar="PROGRAM")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dump", type=Path, help="write each function's LLVM IR here")
    args = parser.parse_args(argv)
    for name in args.programs:
        report(name, max(1, args.repeat), args.dump)


if __name__ == "__main__":
    main()

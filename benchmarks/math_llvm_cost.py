"""LLVM's time on the math expansions of each program's cpu module.

    python benchmarks/math_llvm_cost.py [--repeat N] [PROGRAM ...]

`expand-math` writes each transcendental as straight-line arithmetic where
it stands, and LLVM optimizes and emits every copy: the copies LLVM's loop
vectorizer makes of a scalar loop (a vector body per interleaved iteration,
a scalar remainder), and the vector copies the loop passes write (a
register tile's epilogue, a reduction's row lanes, a jammed column loop).
This prints how much of LLVM's time that is. Each program (a StableHLO
file, or a name in the broad or the bench corpus; default: every program
of the broad corpus) is lowered to the llvm dialect as the cpu target
compiles it (`llvm_functions.llvm_module`) four times: as it is, and with
the expansions of the ops on scalars, on vectors, or on both replaced by
one `math.absf` of the op's first operand (an op LLVM vectorizes as it
does the expansions' arithmetic, so the loops around it vectorize as
before). Columns: the whole module's LLVM time (optimize + emit on this
thread, as one part: `llvm_functions.llvm_seconds`), least thread CPU
time of `--repeat`, the four modules alternated; then what the expansions
cost: `scalar`, `vector`, `all`, each against the cheap op. Programs whose
module holds no expansion are left out.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from llvm_functions import CORPORA, llvm_module, llvm_seconds, program_path
from xlir.lowering.llvm.llvmlite_module import llvm_ir
from xlir.passes.loop.expand_math import EXPANSIONS, Expansion
from xlir.passes.loop.math_approximations.scalar_builder import ScalarBuilder, Value

KINDS = ("scalar", "vector", "all")
"""Which expansions a variant replaces by the cheap op."""


@contextmanager
def cheap(kind: str | None) -> Iterator[None]:
    """`EXPANSIONS` writing `math.absf` for the ops of `kind` (None: none)
    while the block runs; the table's keys stay (the loop passes ask it
    which ops expand)."""
    saved = dict(EXPANSIONS)

    def replaced(expansion: Expansion) -> Expansion:
        def write(code: ScalarBuilder, *operands: Value) -> Value:
            on_vectors = code.lanes is not None
            if kind == "all" or (kind == "vector") == on_vectors:
                return operands[0].abs()
            return expansion(code, *operands)

        return write

    if kind is not None:
        EXPANSIONS.update({op: replaced(e) for op, e in saved.items()})
    try:
        yield
    finally:
        EXPANSIONS.update(saved)


def module_irs(text: str) -> list[str]:
    """The program's LLVM IR as it is, then without each `KINDS`' expansions."""
    irs = []
    for kind in (None, *KINDS):
        with cheap(kind):
            irs.append(llvm_ir(llvm_module(text)))
    return irs


def report(names: list[str], repeat: int) -> None:
    print("LLVM time of the whole module, ms (optimize + emit, one thread, least")
    print(f"of {repeat}, thread CPU); the expansions' cost against one cheap op")
    print(f"  {'program':<32} {'module':>7} {'scalar':>7} {'vector':>7} {'all':>7}")
    totals = [0.0] * (1 + len(KINDS))
    for name in names:
        irs = module_irs(program_path(name).read_text())
        if irs[-1] == irs[0]:
            continue
        best = [float("inf")] * len(irs)
        for _ in range(repeat):
            for index, ir in enumerate(irs):
                best[index] = min(best[index], sum(llvm_seconds(ir, 1)))
        costs = [best[0] - other for other in best[1:]]
        for index, value in enumerate([best[0], *costs]):
            totals[index] += value
        cells = " ".join(f"{value * 1e3:7.1f}" for value in (best[0], *costs))
        print(f"  {name:<32} {cells}", flush=True)
    cells = " ".join(f"{value * 1e3:7.1f}" for value in totals)
    print(f"  {'total':<32} {cells}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("programs", nargs="*", metavar="PROGRAM")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    names = args.programs or sorted(path.stem for path in CORPORA[0].glob("*.mlir"))
    report(names, args.repeat)


if __name__ == "__main__":
    main()

"""The long-running fuzzers:

    python -m xlir.testing.fuzz --minutes N [--programs | --mutants]
                                [--seed S] [--out DIR] [--corpus DIR ...] [--xla]
                                [--elements T,...]

`--programs` differential-tests random programs (`generator`) on every
registered target against the evaluator (and JAX's XLA with `--xla`;
`--elements`: the generator's elementwise mode over those element types,
compared bit for bit);
`--mutants` sends mutated corpus texts (`mutate`) through the parser, the
verifier and `hlo-opt`. With
neither, the time is split between the two. Counts per outcome class are
printed as it goes and at the end; each new failure class is minimized and
written to DIR (`programs/` or `mutants/`: the `.mlir`, its arguments and
the evaluator's outputs as `.npz`, and a `.txt` saying what went wrong).
The exit status is 1 when anything failed.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from xlir.testing import differential
from xlir.testing.generator import generate
from xlir.testing.inputs import random_array
from xlir.testing.minimize import minimize, minimize_text
from xlir.testing.mutate import Mutator, seed_texts
from xlir.testing.program import Program
from xlir.testing.worker import Worker

MUTANT_PIPELINE = "hlo-opt"
MUTANT_FAILURES = ("unlocated", "internal", "crash", "hang")
LOG = functools.partial(print, flush=True)
"""Where the fuzzers say what they found, as they find it."""


@dataclass
class Tally:
    """Outcomes by class, failures by signature, and the reproducers written
    (by the signature refined with the ops of the reduced case, so that one
    signature may hold several distinct defects)."""

    outcomes: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    reproducers: dict[str, Path] = field(default_factory=dict)
    minimized: Counter[str] = field(default_factory=Counter)

    @property
    def failed(self) -> int:
        return sum(self.failures.values())

    def report(self, title: str) -> str:
        lines = [f"{title}: {sum(self.outcomes.values())} cases"]
        lines += [f"  {kind:12} {n}" for kind, n in sorted(self.outcomes.items())]
        for signature, n in self.failures.most_common():
            lines.append(f"  FAIL x{n}: {signature}")
            lines += [
                f"    -> {path}"
                + (f" {refined[len(signature) :]}" if refined != signature else "")
                for refined, path in self.reproducers.items()
                if refined.startswith(signature)
            ]
        return "\n".join(lines)


MINIMIZED_PER_SIGNATURE = 3
"""How many failures of one signature are minimized; each is written if its
reduced case uses other ops than those written before it."""


def ops_of(program: Program) -> str:
    """The ops a (reduced) program uses, to tell apart failures of one
    signature."""
    names = set(re.findall(r"stablehlo\.(\w+)", program.text()))
    return "[" + " ".join(sorted(names - {"constant", "return"})) + "]"


def program_case(
    seed: int, max_ops: int = 12, elements: tuple[str, ...] | None = None
) -> tuple[Program, dict[int, np.ndarray]]:
    """The random program of this seed and its arguments (`elements`: the
    generator's elementwise mode over them)."""
    program = generate(seed, max_ops, elements)
    rng = np.random.default_rng(seed)
    return program, {v: random_array(t, rng) for v, t in program.arguments.items()}


def arrays(inputs: dict[int, np.ndarray]) -> list[np.ndarray]:
    return list(inputs.values())


def check_case(
    worker: Worker,
    program: Program,
    inputs: dict[int, np.ndarray],
    xla: bool = False,
    exact: bool = False,
):
    return differential.check(worker, program, arrays(inputs), xla=xla, exact=exact)


def _evaluator(worker: Worker):
    def evaluate(program: Program, inputs: dict[int, np.ndarray], value: int):
        probe = program.copy()
        probe.outputs = [value]
        result = differential.run_reference(worker, probe.text(), arrays(inputs))
        return None if isinstance(result, differential.Verdict) else result[0]

    return evaluate


def minimize_failure(
    worker: Worker,
    program: Program,
    inputs: dict[int, np.ndarray],
    signature: str,
    budget: int = 60,
    xla: bool = False,
    exact: bool = False,
):
    """The smallest case found that fails with the same signature."""

    def still_fails(candidate: Program, arguments: dict[int, np.ndarray]) -> bool:
        verdict = check_case(worker, candidate, arguments, xla, exact)
        return verdict.signature == signature

    return minimize(program, inputs, still_fails, _evaluator(worker), budget)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:60]


def write_program(
    worker: Worker,
    folder: Path,
    index: int,
    verdict,
    program: Program,
    inputs,
    note: str,
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    stem = folder / f"{index:03d}-{_slug(verdict.kind + '-' + verdict.target)}"
    text = program.text()
    stem.with_suffix(".mlir").write_text(text)
    saved: dict[str, Any] = {f"arg{i}": a for i, a in enumerate(arrays(inputs))}
    reference = differential.run_reference(worker, text, arrays(inputs))
    if not isinstance(reference, differential.Verdict):
        saved |= {f"out{i}": a for i, a in enumerate(reference)}
    np.savez(stem.with_suffix(".npz"), **saved)
    stem.with_suffix(".txt").write_text(
        f"{verdict.signature}\n\n{verdict.detail}\n\n{note}\n"
    )
    return stem.with_suffix(".mlir")


def _done(deadline: float, tally: Tally, count: int | None) -> bool:
    if count is not None:
        return sum(tally.outcomes.values()) >= count
    return time.monotonic() >= deadline


def fuzz_programs(
    seconds: float,
    seed: int,
    out: Path | None,
    log=LOG,
    max_ops: int = 12,
    minimize_budget: int = 60,
    count: int | None = None,
    xla: bool = False,
    elements: tuple[str, ...] | None = None,
) -> Tally:
    """Differential-test random programs for `seconds` (or `count` of them),
    from `seed` on; with `xla`, against JAX's XLA too; with `elements`, the
    generator's elementwise mode over them, bit for bit."""
    exact = elements is not None
    tally = Tally()
    deadline = time.monotonic() + seconds
    with Worker() as worker:
        while True:
            program, inputs = program_case(seed, max_ops, elements)
            verdict = check_case(worker, program, inputs, xla, exact)
            kind = verdict.kind
            tally.outcomes[kind] += 1
            if verdict.failed:
                signature = verdict.signature
                tally.failures[signature] += 1
                tally.minimized[signature] += 1
                if tally.minimized[signature] <= MINIMIZED_PER_SIGNATURE:
                    if tally.minimized[signature] == 1:
                        log(f"seed {seed}: {signature}")
                    if kind != "hang":
                        program, inputs = minimize_failure(
                            worker,
                            program,
                            inputs,
                            signature,
                            minimize_budget,
                            xla,
                            exact,
                        )
                        again = check_case(worker, program, inputs, xla, exact)
                        verdict = again if again.signature == signature else verdict
                    refined = f"{signature} {ops_of(program)}"
                    if refined not in tally.reproducers:
                        tally.reproducers[refined] = Path(f"seed-{seed}")
                        if out is not None:
                            tally.reproducers[refined] = write_program(
                                worker,
                                out / "programs",
                                len(tally.reproducers),
                                verdict,
                                program,
                                inputs,
                                f"seed {seed}; rerun: python -m xlir.testing.fuzz "
                                f"--programs --seed {seed} --minutes 0"
                                + (
                                    f" --elements {','.join(elements)}" if exact else ""
                                ),
                            )
            seed += 1
            if _done(deadline, tally, count):
                break
    return tally


def mutant_signature(outcome: str, detail: str) -> str:
    """The outcome and its message with the numbers taken out."""
    first = detail.splitlines()[0] if detail else ""
    return f"{outcome}: " + re.sub(r"\d+", "N", first)[:160]


def fuzz_mutants(
    seconds: float,
    seed: int,
    out: Path | None,
    sources: list[tuple[str, str]],
    log=LOG,
    timeout: float = 60.0,
    count: int | None = None,
) -> Tally:
    """Send mutants of the source texts through the parser, the verifier and
    `hlo-opt` for `seconds` (or `count` of them), from `seed` on."""
    tally = Tally()
    deadline = time.monotonic() + seconds
    with Worker() as worker:
        while True:
            name, original = sources[seed % len(sources)]
            text = Mutator(seed).mutate(original)
            status, reply = worker.call(
                "check_text", text, "mutant.mlir", MUTANT_PIPELINE, timeout=timeout
            )
            outcome, detail = reply if status == "ok" else (status, reply)
            tally.outcomes[outcome] += 1
            if outcome in MUTANT_FAILURES:
                signature = mutant_signature(outcome, detail)
                tally.failures[signature] += 1
                if signature not in tally.reproducers:
                    log(f"seed {seed} ({name}): {signature}")
                    path = Path(f"seed-{seed}")
                    if out is not None:
                        text = _minimize_mutant(worker, text, signature, timeout)
                        folder = out / "mutants"
                        folder.mkdir(parents=True, exist_ok=True)
                        path = (
                            folder
                            / f"{len(tally.reproducers):03d}-{_slug(outcome)}.mlir"
                        )
                        path.write_text(text)
                        path.with_suffix(".txt").write_text(
                            f"{signature}\n\n{detail}\n\nreduced mutant of {name}, seed "
                            f"{seed}; rerun: xlir-opt -p {MUTANT_PIPELINE} {path.name}\n"
                        )
                    tally.reproducers[signature] = path
            seed += 1
            if _done(deadline, tally, count):
                break
    return tally


def _minimize_mutant(worker: Worker, text: str, signature: str, timeout: float):
    """Fewer lines failing the same way (hangs are kept as they are)."""
    if signature.startswith("hang"):
        return text

    def still_fails(candidate: str) -> bool:
        status, reply = worker.call(
            "check_text", candidate, "mutant.mlir", MUTANT_PIPELINE, timeout=timeout
        )
        outcome, detail = reply if status == "ok" else (status, reply)
        return mutant_signature(outcome, detail) == signature

    return minimize_text(text, still_fails, budget=60)


def default_corpus() -> list[Path]:
    """The corpus next to a source checkout, and its lit tests' inputs."""
    root = Path(__file__).resolve().parents[2]
    candidates = [
        root.parent / "shared" / "corpus" / "small",
        root.parent / "shared" / "corpus" / "bench",
        root / "tests" / "lit",
    ]
    return [c for c in candidates if c.is_dir()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m xlir.testing.fuzz",
        description="Random programs on every target against the evaluator, and "
        "mutated texts through the parser, the verifier and hlo-opt.",
    )
    parser.add_argument(
        "--minutes", type=float, default=1.0, help="how long (0: one case)"
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--programs", action="store_true", help="random programs only")
    mode.add_argument("--mutants", action="store_true", help="mutated texts only")
    parser.add_argument(
        "--seed", type=int, default=0, help="of the first case; each next one adds 1"
    )
    parser.add_argument(
        "--xla",
        action="store_true",
        help="check programs on JAX's XLA too (needs JAX; XLA flushes denormals)",
    )
    parser.add_argument(
        "--elements",
        type=lambda text: tuple(text.split(",")),
        metavar="T,...",
        help="programs of elementwise ops over these element types (and others, "
        "less often), compared bit for bit",
    )
    parser.add_argument(
        "--out", type=Path, default=None, metavar="DIR", help="reproducers go here"
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        action="append",
        metavar="DIR",
        help="texts to mutate: the .mlir files under DIR (repeatable)",
    )
    args = parser.parse_args(argv)
    seconds = max(args.minutes * 60, 0.001)
    share = 1.0 if args.programs or args.mutants else 0.5
    failed = 0
    if not args.mutants:
        tally = fuzz_programs(
            seconds * share, args.seed, args.out, xla=args.xla, elements=args.elements
        )
        print(tally.report(f"random programs on {', '.join(differential.targets())}"))
        failed += tally.failed
    if not args.programs:
        folders = args.corpus or default_corpus()
        sources = seed_texts(folders)
        if not sources:
            print("error: no .mlir files to mutate (--corpus DIR)", file=sys.stderr)
            return 1
        tally = fuzz_mutants(seconds * share, args.seed, args.out, sources)
        print(
            tally.report(f"mutants of {len(sources)} texts through {MUTANT_PIPELINE}")
        )
        failed += tally.failed
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

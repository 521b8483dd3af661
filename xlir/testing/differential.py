"""Differential testing: a program runs on every registered target and is
compared with the evaluator (the `interpreter` target running the program as
written, with no pass): integers and i1 bit for bit, floats within
`TOLERANCES` with NaN in the same places. The interpreter target with its
default pipeline is one of the targets checked, so what `hlo-opt` breaks
shows as a difference on `interpreter`; on request, and where JAX is
installed, XLA is checked too.

Every target runs in the worker process (`worker.Worker`), twice, so a
crash, a hang, or a second call that differs from the first (memory
corruption shows so) is a verdict too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from xlir.element_dtypes import is_ml_dtype
from xlir.evaluator.hlo.flush import flush
from xlir.targets.registry import reference_target, target_names
from xlir.testing.program import Program
from xlir.testing.worker import Worker

REFERENCE = reference_target()
"""The target that runs the reference (`Target.is_reference`), with no
pass (`pipeline=""`)."""

XLA = "xla"
"""JAX's XLA, on request (`check(xla=True)`) where JAX is installed: checked
against the evaluator as the targets are, so that a difference points at
the evaluator or at XLA. XLA:CPU flushes denormals to zero (the x86 FTZ and
DAZ modes), so its differences on denormal values are XLA's, not bugs: XLA
gets the arguments with their f32 and f64 denormals (bf16's, held as f32,
among them) flushed to a zero of their sign, and the evaluator runs on
those too. Denormals a program computes are flushed inside XLA, where they
change what follows (a divisor that became 0 gives infinity): where XLA
differs from the evaluator, the evaluator runs again flushing every
operand and result of arithmetic as XLA does
(`xlir.evaluator.hlo.flush`), and each element of XLA's outputs must match
one of the two references. An element that matches neither is an error;
one a wrong answer would have to hit exactly the flushed reference to
hide."""

NOT_FOR_XLA = re.compile(
    r"stablehlo\.rng_bit_generator|stablehlo\.reduce_precision .*format = e\d+m0 "
    r'|stablehlo\.select_and_scatter"[^\n]*padding = dense<[^>]*[1-9]'
)
"""Ops whose results the spec leaves to each implementation, or where XLA
differs from StableHLO's reference interpreter: a program with one is not
run on XLA. `rng_bit_generator`'s bits are fixed by the initial state
within one implementation only (the evaluator's, which the targets follow);
XLA's THREE_FRY state advances by another count, and it makes unsigned bits
where the program asks for signed ones. `reduce_precision` to no mantissa
bits makes a NaN infinity in the reference interpreter's tests (the
evaluator's, the targets'), where XLA keeps it NaN (fuzzer seed 43701270).
`select_and_scatter` picks among equal values of a window as the spec's
`reduce_window` schedule does, which is the implementation's: the evaluator
and the targets walk the window in row-major order (GE and LE keep the
first, GT and LT take the last), as XLA does unpadded; with any padding XLA
picks another of them (GE over `[[0.5, 4, 5], [-7, 5, 2.5]]`, 2x2 windows at
stride 1, one column of low padding: the window of columns 1 and 2 went to
the 5 at [1, 1], not [0, 2]; fuzzer seed 43700534)."""

XLA_REWRITES = {
    ("log", "power"): "log(pow(a, b)) becomes b * log(|a|), finite where a < 0 "
    "and pow is NaN (seed 41001050)",
    ("gather", "dynamic_slice"): "a gather of a dynamic_slice becomes a gather "
    "at indices offset by the slice's start, clamped into the whole operand "
    "instead of the slice (seed 41001498)",
    ("count_leading_zeros", "constant"): "XLA's constant folder counts a "
    "negative narrow integer's zeros in 64 bits: clz(-128 : i8) is -56, not 0 "
    "(seed 40410131)",
    ("maximum", "clamp"): "max(clamp(lo, x, hi), lo) becomes the clamp, which "
    "is hi, below lo, where lo > hi (seed 40410541)",
}
"""(op, op of its operand) pairs that XLA's algebraic simplifier rewrites
into something the spec does not compute: a program with one is not run on
XLA (`xla_rewrite`)."""

DEFINITION = re.compile(
    r"^\s*(%[\w.]+)(?::\d+)? = (?:\"?)stablehlo\.(\w+)\b(.*)$", re.M
)
"""A value's definition in a program's text: name, op and the rest."""


def xla_rewrite(text: str) -> str | None:
    """Why XLA would not compute the program as the spec says, where an op
    of `XLA_REWRITES` is applied to the result of its partner; else None."""
    producers = {m[1]: m[2] for m in DEFINITION.finditer(text)}
    for match in DEFINITION.finditer(text):
        for operand in re.findall(r"(%[\w.]+)", match[3].split(":")[0]):
            reason = XLA_REWRITES.get((match[2], producers.get(operand, "")))
            if reason is not None:
                return reason
    return None


TOLERANCES = {"f16": 2e-2, "bf16": 6e-2, "f32": 2e-4, "f64": 1e-9}
"""Relative tolerance per float element type. A difference counts against
the largest finite magnitude of the reference output as well as against the
element itself, so that reassociated sums and approximated transcendental
functions (whose rounding the spec leaves to the implementation) do not
count, while zeros, garbage bits or a wrong element do."""

CALLS = 2


@dataclass(frozen=True)
class Verdict:
    """The outcome of one program on one target."""

    kind: str
    """`ok`, `unsupported` (the target says, with located diagnostics, that
    it does not support an element type or op of the program), or a
    failure: `mismatch`, `rejected` (another diagnostic for a valid
    program), `internal`, `crash`, `hang`, or `reference` (the evaluator
    failed: target `evaluator`)."""
    target: str
    detail: str = ""

    @property
    def failed(self) -> bool:
        return self.kind not in ("ok", "unsupported")

    @property
    def signature(self) -> str:
        """What tells failure classes apart: kind, target, and the symptom
        without its numbers, locations and values."""
        detail = self.detail.splitlines()[0] if self.detail else ""
        if self.kind == "mismatch":
            detail = detail.split(":")[0]
        else:
            detail = detail.split("error: ", 1)[-1]
        detail = re.sub(r"\d+", "N", re.sub(r"\[[^\]]*\]\*", "[...]*", detail))
        return f"{self.kind} on {self.target}: {detail[:160]}"


def targets() -> list[str]:
    """Every registered target that can run programs here (one without a
    device, a GPU's where there is none, only compiles), each checked
    against the evaluator."""
    from xlir.testing.target_conformance import missing_device

    return [t for t in target_names() if missing_device(t) is None]


def _refuses_types(target: str) -> bool:
    """Whether `target` computes only some element types: its diagnostic
    for a program on others is a refusal, not a failure."""
    from xlir.targets.registry import get_target
    from xlir.targets.target import CompileOptions

    return get_target(target).info(CompileOptions()).element_types is not None


def run_reference(
    worker: Worker, text: str, arguments: list[np.ndarray]
) -> list[np.ndarray] | Verdict:
    """The evaluator's outputs, or the Verdict saying why there are none."""
    status, reply = worker.call("run_program", text, arguments, REFERENCE, 1, "")
    if status != "ok":
        return Verdict(status, "evaluator", reply)
    outcome, detail = reply
    if outcome != "ok":
        return Verdict("reference", "evaluator", f"{outcome}: {detail}")
    return detail[0]


def check(
    worker: Worker,
    program: Program,
    arguments: list[np.ndarray],
    timeout: float = 60.0,
    xla: bool = False,
    exact: bool = False,
) -> Verdict:
    """The first failure of the program on any target, else the first
    target's refusal (the other targets are checked all the same), else an
    `ok` verdict.
    `exact`: floats must agree bit for bit too (any NaN matching any NaN),
    for programs of ops the spec defines to the bit (the generator's
    elementwise mode)."""
    text = program.text()
    reference = run_reference(worker, text, arguments)
    if isinstance(reference, Verdict):
        return reference
    elements = [program.type_of(v).element for v in program.outputs]
    refused: Verdict | None = None
    for target in targets():
        status, reply = worker.call(
            "run_program", text, arguments, target, CALLS, timeout=timeout
        )
        if status != "ok":
            return Verdict(status, target, reply)
        outcome, detail = reply
        if outcome == "internal":
            return Verdict("internal", target, detail)
        if (outcome == "diagnostic" and "not support" in detail) or (
            outcome in ("diagnostic", "unlocated") and _refuses_types(target)
        ):
            refused = refused or Verdict("unsupported", target, detail)
            continue
        if outcome != "ok":
            return Verdict("rejected", target, f"{outcome}: {detail}")
        for call, outputs in enumerate(detail):
            problem = compare_outputs(reference, outputs, elements, exact)
            if problem is not None:
                return Verdict("mismatch", target, f"{problem} (call {call + 1})")
    passed = refused or Verdict("ok", "all")
    if not xla or NOT_FOR_XLA.search(text) or xla_rewrite(text):
        return passed
    bf16 = [program.arguments[v].element == "bf16" for v in program.arguments]
    flushed = [flush(a) for a in arguments]
    if any(f is not a for f, a in zip(flushed, arguments, strict=True)):
        reference = run_reference(worker, text, flushed)
        if isinstance(reference, Verdict):
            return reference
    status, reply = worker.call("run_xla", text, flushed, bf16, timeout=timeout)
    if status != "ok":
        return Verdict(status, XLA, reply)
    outcome, detail = reply
    if outcome == "ok":
        problem = compare_outputs(reference, detail, elements)
        if problem is not None:
            status, reply = worker.call(
                "run_flushing_reference", text, flushed, timeout=timeout
            )
            if status != "ok" or reply[0] != "ok":
                return Verdict("reference", "evaluator", f"flushing: {reply}")
            problem = compare_outputs(reference, detail, elements, alternative=reply[1])
            if problem is not None:
                return Verdict("mismatch", XLA, problem)
    elif outcome != "unavailable":
        return Verdict("rejected", XLA, f"{outcome}: {detail}")
    return passed


def compare_outputs(
    want: list[np.ndarray],
    got: list[np.ndarray],
    elements: list[str],
    exact: bool = False,
    alternative: list[np.ndarray] | None = None,
) -> str | None:
    """None when `got` matches the reference `want`, else what differs
    (`exact`: floats bit for bit, see `check`; `alternative`: a second
    reference, each element of `got` matching one of the two)."""
    if len(want) != len(got):
        return f"output count: {len(got)} instead of {len(want)}"
    for index, (w, g, element) in enumerate(zip(want, got, elements, strict=True)):
        bad = _differences(w, g, element, exact)
        if alternative is not None and not isinstance(bad, str) and bad.any():
            other = _differences(alternative[index], g, element, exact)
            bad = other if isinstance(other, str) else bad & other
        problem = _report(bad, w, g)
        if problem is not None:
            return f"out{index} ({element}): {problem}"
    return None


def compare_arrays(want: np.ndarray, got: np.ndarray, element: str) -> str | None:
    """None when `got` is `want` within the element type's tolerance."""
    return _report(_differences(want, got, element, False), want, got)


def compare_bits(want: np.ndarray, got: np.ndarray) -> str | None:
    """Equal values with equal signs (zeros too), any NaN matching any NaN."""
    return _report(_differences(want, got, "", True), want, got)


def _differences(
    want: np.ndarray, got: np.ndarray, element: str, exact: bool
) -> np.ndarray | str:
    """Where `got` differs from `want` (bit for bit if `exact`, else within
    the element type's tolerance), or why they cannot be compared."""
    if got.shape != want.shape or got.dtype != want.dtype:
        return (
            f"got {got.dtype}{list(got.shape)}, expected {want.dtype}{list(want.shape)}"
        )
    if exact:
        return _bits_differ(want, got)
    if element not in TOLERANCES:
        return want != got
    nan = np.isnan(want)
    bad = np.array(nan != np.isnan(got))
    w = want[~nan].astype(np.float64)
    g = got[~nan].astype(np.float64)
    infinite = ~np.isfinite(w) | ~np.isfinite(g)
    bad_inf = infinite & (w != g)
    finite = w[~infinite]
    scale = float(np.max(np.abs(finite))) if finite.size else 0.0
    rtol = TOLERANCES[element]
    with np.errstate(invalid="ignore", over="ignore"):
        bad_finite = ~infinite & (np.abs(w - g) > rtol * np.maximum(np.abs(w), scale))
    bad[~nan] = bad_inf | bad_finite
    return bad


def _bits_differ(want: np.ndarray, got: np.ndarray) -> np.ndarray:
    if is_ml_dtype(want.dtype):  # bf16, float8, int4, ...: their values
        want, got = want.astype(np.float64), got.astype(np.float64)
    if want.dtype.kind != "f":
        return want != got
    nan = np.isnan(want)
    same = (want == got) & (np.signbit(want) == np.signbit(got))
    return np.where(nan, ~np.isnan(got), ~same)


def _report(bad: np.ndarray | str, want: np.ndarray, got: np.ndarray) -> str | None:
    if isinstance(bad, str):
        return bad
    if not bad.any():
        return None
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    count = int(bad.sum())
    return f"{count} element(s) differ, first at {list(index)}: got {got[index]!r}, expected {want[index]!r}"

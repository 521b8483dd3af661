"""IRDL constraint checks answered once per signature while a module verifies.

Most of xDSL's per-op verification is `OpDef.verify`: the operand, result,
region and successor counts, each operand's and result's type constraint,
and each property and attribute constraint, then the op's traits. For an op
with no region and no successor, everything but the traits is a function of
the op's definition, its operand types, result types, properties and
attributes: call that its signature. A module holds many ops of the same
signature (every `arith.addi` on i64, every f32 add of one shape), and a
pass manager verifies the same signatures after each pass.

While `signatures_remembered(seen)` is in force, `OpDef.verify` of an op whose
signature is in `seen` checks only the traits (which may read the parent, the
regions or symbol tables, so they run for every op); any other op is verified
in full, and its signature is added to `seen` once it passed. The op's own
verifier (`verify_`'s custom part) and xDSL's structural checks run as before.
Outside that context `OpDef.verify` is xDSL's, unchanged.

A signature's validity depends on nothing but the signature, so one set may
serve several verifications: within `signatures_shared()`, every verification
(and every pass manager's `VerifiedOps`) uses the one set of that context. A
compile verifies the program it parsed and, at the end of its HLO passes (or
after each), what they made of it: most signatures are in both.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from xdsl.ir import Operation
from xdsl.irdl import OpDef

Signature = tuple[object, ...]

_seen_signatures: ContextVar[set[Signature] | None] = ContextVar(
    "seen_signatures", default=None
)

_shared_signatures: ContextVar[set[Signature] | None] = ContextVar(
    "shared_signatures", default=None
)

_verify_definition = OpDef.verify


def signature(op: Operation) -> Signature | None:
    """Everything `OpDef.verify` reads of the op but its traits (its class
    stands for its definition), or None for an op with regions or successors
    (their checks read the regions' blocks)."""
    if op.regions or op.successors:
        return None
    return (
        type(op),
        tuple(operand.type for operand in op.operands),
        tuple(result.type for result in op.results),
        tuple(op.properties.items()),
        tuple(op.attributes.items()),
    )


def _verify_remembering(self: OpDef, op: Operation) -> None:
    seen = _seen_signatures.get()
    key = None if seen is None else signature(op)
    if key is None or seen is None:
        _verify_definition(self, op)
        return
    if key in seen:
        for trait in self.traits:
            trait.verify(op)
        return
    _verify_definition(self, op)
    seen.add(key)


OpDef.verify = _verify_remembering


@contextmanager
def signatures_remembered(seen: set[Signature]) -> Iterator[None]:
    """Answer the IRDL checks of signatures in `seen` from it, and add those
    that verify (the set may be kept across verifications of one module)."""
    token = _seen_signatures.set(seen)
    try:
        yield
    finally:
        _seen_signatures.reset(token)


@contextmanager
def signatures_shared() -> Iterator[None]:
    """Let the verifications within share the signatures they found valid
    (`signatures_to_remember`)."""
    token = _shared_signatures.set(set())
    try:
        yield
    finally:
        _shared_signatures.reset(token)


def signatures_to_remember() -> set[Signature]:
    """The set of `signatures_shared()` in force, or a new one."""
    shared = _shared_signatures.get()
    return set() if shared is None else shared

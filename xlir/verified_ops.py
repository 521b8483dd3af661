"""Which ops need verifying again after a pass.

With the IR verified after every pass (xlir-opt, `XLIR_VERIFY_EACH=1`),
xDSL's per-op verification costs more than the passes themselves, yet most
passes leave most ops as they were. An op's verification depends on nothing
but the op itself when it holds no region and no successor, is not a
terminator and names no symbol (MLIR's rule for verifiers: an op checks
itself and its operands' types; a terminator also checks its parent op, a
symbol user the symbol, an op with regions its nested ops). For such an op,
a key of everything it can read (its block and parent op, its operands and
their types, its result types, properties and attributes) is remembered
after it verifies, and it is verified again only when its key differs.
Every other op is verified every time.
"""

from __future__ import annotations

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Attribute, Operation
from xdsl.traits import IsTerminator

from xlir.verified_signatures import Signature, signatures_to_remember

_terminator_types: dict[type[Operation], bool] = {}


def _key(op: Operation) -> tuple[object, ...] | None:
    """What the op's verification reads, or None for an op that reads more."""
    if op.regions or op.successors:
        return None
    kind = type(op)
    terminator = _terminator_types.get(kind)
    if terminator is None:
        terminator = _terminator_types[kind] = op.has_trait(IsTerminator)
    if terminator:
        return None
    properties = tuple(op.properties.items())
    attributes = tuple(op.attributes.items())
    if _names_a_symbol(properties) or _names_a_symbol(attributes):
        return None
    operands = tuple(op.operands)
    return (
        op.parent,
        op.parent_op(),
        operands,
        tuple(value.type for value in operands),
        tuple(result.type for result in op.results),
        properties,
        attributes,
    )


def _names_a_symbol(items: tuple[tuple[str, Attribute], ...]) -> bool:
    return any(isinstance(value, SymbolRefAttr) for _, value in items)


class VerifiedOps:
    """The keys of the ops verified by the last complete verification."""

    def __init__(self) -> None:
        self._keys: dict[Operation, tuple[object, ...]] = {}
        self._walked: dict[Operation, tuple[object, ...]] = {}
        self.signatures: set[Signature] = signatures_to_remember()
        """The IRDL signatures found valid so far (xlir/verified_signatures.py),
        those of a `signatures_shared()` context included."""

    def needs_verifying(self, op: Operation) -> bool:
        """Whether the op may verify differently than it did last time."""
        key = _key(op)
        if key is None:
            return True
        self._walked[op] = key
        return self._keys.get(op) != key

    def completed(self) -> None:
        """The walk verified every op: remember the ops it met (and forget
        the others, erased since)."""
        self._keys, self._walked = self._walked, {}

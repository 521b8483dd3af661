"""`fuse{explain=true}`: one remark per producer-consumer pair the pass
considered, in MLIR's `-pass-remarks` shape, on stderr:

    f.mlir:7:10: remark: fuse 'stablehlo.rsqrt' into 'stablehlo.broadcast_in_dim' at f.mlir:8:10: refused by expensive-reuse: ...

The location in front is the producer's, so an editor jumps to it; the
consumer's follows. Remarks of a block are printed in the producers' program
order (the pass decides consumers first).

`recording_refusals()` collects the pairs the pass refused, with their rule,
for a picture of the fused program (`xlir-opt --view-graph`), without
printing the remarks."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from xdsl.ir import Operation

from xlir.source_locations import text_location

UNKNOWN = "<unknown>"


def location(op: Operation) -> str:
    loc = text_location(op.location)
    if loc is not None:
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return UNKNOWN


@dataclass(frozen=True)
class Refusal:
    """A producer the pass did not fuse into a consumer, and the rule that
    refused it. The ops are named by their name and location: the pass
    clones fused ops into their fusions."""

    producer: str
    producer_at: str
    consumer: str
    consumer_at: str
    rule: str
    reason: str


_recorded: list[Refusal] | None = None


@contextmanager
def recording_refusals() -> Iterator[list[Refusal]]:
    """The refusals of every `fuse` run inside the block, as they are made
    (the pass considers every pair then, as with `explain=true`)."""
    global _recorded
    outer, _recorded = _recorded, []
    try:
        yield _recorded
    finally:
        _recorded = outer


class Remarks:
    """Collects the remarks of one block; `flush` prints them in order."""

    def __init__(self, explain: bool):
        self.explain = explain
        self.enabled = explain or _recorded is not None
        self._pending: list[tuple[int, int, str]] = []

    def pair(
        self, order: int, producer: Operation, consumer: Operation, verdict: str
    ) -> None:
        if not self.enabled:
            return
        if _recorded is not None and verdict.startswith(_REFUSED):
            rule, _, reason = verdict.removeprefix(_REFUSED).partition(": ")
            _recorded.append(
                Refusal(
                    producer.name,
                    location(producer),
                    consumer.name,
                    location(consumer),
                    rule,
                    reason,
                )
            )
        if not self.explain:
            return
        text = (
            f"{location(producer)}: remark: fuse '{producer.name}' into "
            f"'{consumer.name}' at {location(consumer)}: {verdict}"
        )
        self._pending.append((order, len(self._pending), text))

    def flush(self) -> None:
        for _, _, text in sorted(self._pending):
            print(text, file=sys.stderr)
        self._pending.clear()


_REFUSED = "refused by "


def refused(rule: str, reason: str) -> str:
    return f"{_REFUSED}{rule}: {reason}"

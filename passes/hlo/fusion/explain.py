"""`fuse{explain=true}`: one remark per producer-consumer pair the pass
considered, in MLIR's `-pass-remarks` shape, on stderr:

    f.mlir:7:10: remark: fuse 'stablehlo.rsqrt' into 'stablehlo.broadcast_in_dim' at f.mlir:8:10: refused by expensive-reuse: ...

The location in front is the producer's, so an editor jumps to it; the
consumer's follows. Remarks of a block are printed in the producers' program
order (the pass decides consumers first)."""

from __future__ import annotations

import sys

from xdsl.ir import Operation

from xlir.source_locations import text_location


def location(op: Operation) -> str:
    loc = text_location(op.location)
    if loc is not None:
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return "<unknown>"


class Remarks:
    """Collects the remarks of one block; `flush` prints them in order."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self._pending: list[tuple[int, int, str]] = []

    def pair(
        self, order: int, producer: Operation, consumer: Operation, verdict: str
    ) -> None:
        if not self.enabled:
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


def refused(rule: str, reason: str) -> str:
    return f"refused by {rule}: {reason}"

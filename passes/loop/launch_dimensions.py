"""How many blocks and threads a GPU kernel is launched on: XLA's rule for
its loop emitter (`CalculateLaunchDimensions`, xla/service/gpu/
launch_dimensions.cc), reproduced so that xlir's kernels are shaped like
XLA:GPU's, and a block-per-row shape for row reductions.

Elementwise: each thread does `unroll` consecutive elements, the largest of
4 and 2 that divides the element count (else 1), so that its loads can be
vector loads; blocks have `max_threads / unroll` threads rounded up to a
warp (fewer unrolled elements than that: one block of exactly that many),
and there are as many blocks as cover the elements.
"""

from __future__ import annotations

from dataclasses import dataclass

UNROLL_CHOICES = (4, 2)
"""The unroll factors tried, largest first; 1 where neither divides."""


@dataclass(frozen=True)
class LaunchDimensions:
    """One-dimensional launch: `blocks` x `threads`, each thread doing
    `unroll` elements (or, for a row reduction, one row per block)."""

    blocks: int
    threads: int
    unroll: int = 1


def round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


def elementwise_launch(
    elements: int, warp_size: int, max_threads: int, max_unroll: int = 4
) -> LaunchDimensions:
    """XLA's launch dimensions for a loop over `elements` (module docstring)."""
    if elements <= 1:
        return LaunchDimensions(1, 1, 1)
    unroll = next(
        (u for u in UNROLL_CHOICES if u <= max_unroll and elements % u == 0), 1
    )
    work = elements // unroll
    threads = min(work, round_up(max_threads // unroll, warp_size))
    return LaunchDimensions(-(-work // threads), threads, unroll)


ROW_THREADS = 256
"""The most threads a row reduction's block has: a longer row is folded by
each thread over a stride of the block (partial sums), shorter rows get a
block of warps just covering them."""


def row_reduction_launch(
    rows: int, row_length: int, warp_size: int, max_threads: int
) -> LaunchDimensions:
    """One block per row, of enough whole warps to cover the row, at most
    `ROW_THREADS` (and `max_threads`); a single row (a whole array reduced
    to one value) may have `max_threads`."""
    cap = max_threads if rows == 1 else min(ROW_THREADS, max_threads)
    threads = min(round_up(max(row_length, 1), warp_size), round_up(cap, warp_size))
    return LaunchDimensions(max(rows, 1), threads, 1)

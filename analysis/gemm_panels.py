"""The dot shapes a GEMM routine of `nr`-column panels computes at the
inline kernel's speed, by size alone.

Shared by the passes that call such a routine (the targets' routine
calls) and by `dot-layout`, which leaves a dot's rhs in place, read with a
stride, only for a dot that the routine will compute: an inline kernel
would load such an rhs a gather per vector lane."""

from __future__ import annotations


def panels_cover(m: int, n: int, nr: int) -> bool:
    """Whether a routine of `nr`-column panels computes an `m` x `n` result
    at least as fast as the inline kernel: M and N at least 2
    (`register-tile` tiles them otherwise), and at most a quarter of the
    columns computed past N (the routine's last panel computes all `nr`,
    where the inline kernel's remainder tile is narrower: a 1024 x 256 x 8
    dot took 4x the vector FMAs)."""
    if m < 2 or n < 2:
        return False
    computed = -(-n // nr) * nr
    return 4 * (computed - n) <= computed

"""The sharded corpus (../shared/corpus/sharded) as tests see it: per-device
SPMD programs, each rank's inputs and JAX's outputs, and the comparison
within the corpus tolerances (f32 rtol 1e-4, atol 1e-5; integers and
booleans exact). Rank r feeds `r{r}_arg*` and compares with `r{r}_out*`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tests.conftest import CORPUS

SHARDED = CORPUS / "sharded"
PROGRAMS = sorted(SHARDED.glob("*.mlir"))
RTOL, ATOL = 1e-4, 1e-5


@dataclass
class ShardedCase:
    """One program's per-rank data."""

    inputs: list[list[np.ndarray]]
    outputs: list[list[np.ndarray]]

    @property
    def num_devices(self) -> int:
        return len(self.inputs)


def _arrays(data: np.lib.npyio.NpzFile, prefix: str) -> list[np.ndarray]:
    count = sum(key.startswith(prefix) for key in data.files)
    return [data[f"{prefix}{i}"] for i in range(count)]


def load_sharded(path: Path) -> ShardedCase:
    data = np.load(path.with_suffix(".npz"))
    ranks = range(int(data["num_devices"]))
    return ShardedCase(
        [_arrays(data, f"r{r}_arg") for r in ranks],
        [_arrays(data, f"r{r}_out") for r in ranks],
    )


def assert_rank_matches(
    rank: int, got: Sequence[np.ndarray], expected: Sequence[np.ndarray]
) -> None:
    """One rank's outputs equal JAX's within the corpus tolerances."""
    assert len(got) == len(expected), f"rank {rank}: {len(got)} outputs"
    for index, (result, want) in enumerate(zip(got, expected, strict=True)):
        where = f"rank {rank} out{index}"
        assert result.shape == want.shape, f"{where}: shape {result.shape}"
        if want.dtype.kind in "biu":
            assert result.dtype == want.dtype, f"{where}: dtype {result.dtype}"
            np.testing.assert_array_equal(result, want, err_msg=where)
        else:
            np.testing.assert_allclose(
                result, want, rtol=RTOL, atol=ATOL, err_msg=where
            )

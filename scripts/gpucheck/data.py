"""A prepared program's data (the folder `prepare` writes, docs/nvptx.md):
its inputs and the expected outputs, as `run` and the XLA timing read them.

`data.npz` holds the inputs stored as they are (`argK`) and the expected
outputs (`outK`); a large output is stored as a sample (`outK` the values at
the flat positions `posK`). A large float input is not stored but made
again from a seed (`normal_input`): the bench inputs would not travel in a
few megabytes. Its CRC-32 is checked, so a numpy that draws differently is
an error, not a mismatch.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import numpy as np

INDEX = "index.json"
FORMAT = "xlir-gpu-check"
VERSION = 1


class DataError(Exception):
    """The prepared folder is not what `run` expects: what and where."""


def read_index(folder: Path) -> dict[str, Any]:
    path = folder / INDEX
    if not path.exists():
        raise DataError(
            f"{path} does not exist: prepare the folder first "
            "(python scripts/gpu_check.py prepare --out FOLDER)"
        )
    index = json.loads(path.read_text())
    if index.get("format") != FORMAT or index.get("version") != VERSION:
        raise DataError(f"{path}: not a version {VERSION} {FORMAT} index")
    return index


def normal_input(spec: dict[str, Any]) -> np.ndarray:
    """mean + std * standard normal draws of `numpy.random.default_rng(seed)`."""
    rng = np.random.default_rng(int(spec["seed"]))
    draws = rng.standard_normal(tuple(spec["shape"]))
    return (float(spec["mean"]) + float(spec["std"]) * draws).astype(spec["dtype"])


def checksum(array: np.ndarray) -> int:
    return zlib.crc32(np.ascontiguousarray(array).tobytes())


def program_inputs(folder: Path, entry: dict[str, Any]) -> list[np.ndarray]:
    """The inputs of the program `entry` of the index, in `folder`."""
    data = np.load(folder / entry["dir"] / "data.npz")
    arrays = []
    for index, spec in enumerate(entry["inputs"]):
        if "stored" in spec:
            arrays.append(data[spec["stored"]])
            continue
        array = normal_input(spec["normal"])
        if checksum(array) != spec["crc32"]:
            raise DataError(
                f"{entry['dir']}: input {index} drawn again differs from the prepared "
                f"one (CRC-32 {checksum(array)} != {spec['crc32']}); this numpy's "
                "random streams differ from the preparing machine's"
            )
        arrays.append(array)
    return arrays


def expected_outputs(
    folder: Path, entry: dict[str, Any]
) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
    """The expected outputs (whole or sampled) and, per output, the flat
    positions of a sample (None: whole)."""
    data = np.load(folder / entry["dir"] / "data.npz")
    wants: list[np.ndarray] = []
    positions: list[np.ndarray | None] = []
    for index in range(len(entry["outputs"])):
        wants.append(data[f"out{index}"])
        key = f"pos{index}"
        positions.append(data[key] if key in data.files else None)
    return wants, positions

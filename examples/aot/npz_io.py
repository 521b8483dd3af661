"""Corpus `.npz` files <-> the raw buffers the AOT example reads and writes.

    python npz_io.py inputs  MODEL.npz inputs.bin     # arg0, arg1, ... back to back
    python npz_io.py compare MODEL.npz outputs.bin [--rtol R --atol A]

`compare` reads outputs.bin as out0, out1, ... with the shapes and dtypes of
the `.npz`'s expected outputs and checks them (floats within atol + rtol *
|want|, others exactly); exit status 1 on a mismatch.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


def _arrays(data: np.lib.npyio.NpzFile, prefix: str) -> list[np.ndarray]:
    count = sum(key.startswith(prefix) for key in data.files)
    return [data[f"{prefix}{i}"] for i in range(count)]


def write_inputs(npz: str, path: str) -> None:
    with open(path, "wb") as out:
        for array in _arrays(np.load(npz), "arg"):
            out.write(np.ascontiguousarray(array).tobytes())


def compare(npz: str, path: str, rtol: float, atol: float) -> bool:
    with open(path, "rb") as file:
        raw = file.read()
    offset, ok = 0, True
    for index, want in enumerate(_arrays(np.load(npz), "out")):
        got = np.frombuffer(raw, want.dtype, want.size, offset).reshape(want.shape)
        offset += want.nbytes
        if want.dtype.kind == "f":
            good = np.allclose(got, want, rtol=rtol, atol=atol)
        else:
            good = np.array_equal(got, want)
        error = np.max(np.abs(got.astype(float) - want.astype(float)), initial=0.0)
        print(f"out{index}: {'ok' if good else 'MISMATCH'} (max abs error {error:.3g})")
        ok &= bool(good)
    if offset != len(raw):
        print(f"{path}: {len(raw)} bytes, expected {offset}")
        ok = False
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["inputs", "compare"])
    parser.add_argument("npz")
    parser.add_argument("bin")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    args = parser.parse_args()
    if args.command == "inputs":
        write_inputs(args.npz, args.bin)
    elif not compare(args.npz, args.bin, args.rtol, args.atol):
        sys.exit(1)


if __name__ == "__main__":
    main()

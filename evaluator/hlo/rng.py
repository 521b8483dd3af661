"""`stablehlo.rng_bit_generator`: counter-based random bits.

The spec asks for a deterministic function of the initial state (the bits are
implementation-defined), so the interpreter uses the published counter-based
generators, vectorized over counters with numpy uint32 arithmetic:

* THREE_FRY: Threefry-2x32 with 20 rounds. The key is `state[0]` (low word,
  high word); block i encrypts the 64-bit counter `state[1] + i`. The next
  state is `[state[0], state[1] + blocks]`.
* PHILOX and DEFAULT: Philox-4x32 with 10 rounds. The key is `state[0]`; the
  128-bit counter is `state[1]` (low half) and `state[2]` (high half, 0 for a
  2-element state), advanced by one per block with carry.

Each block yields 2 (Threefry) or 4 (Philox) 32-bit words; the words, in
order, are the little-endian bytes of the output tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation
from xlir.dialects.stablehlo.control_flow import RngBitGeneratorOp
from xlir.evaluator.hlo.elementwise import attribute
from xlir.evaluator.hlo.engine import ModuleInterpreter, impl
from xlir.evaluator.hlo.types import (
    Unsupported,
    bf16_from_bits,
    bit_width,
    dtype_of,
    is_bf16,
    tensor_shape,
)

Array = Any
U32 = np.uint32
MASK32 = 0xFFFFFFFF

THREEFRY_ROTATIONS = (13, 15, 26, 6, 17, 29, 16, 24)
THREEFRY_PARITY = 0x1BD11BDA
PHILOX_MULTIPLIERS = (0xD2511F53, 0xCD9E8D57)
PHILOX_WEYL = (0x9E3779B9, 0xBB67AE85)


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return (x << U32(r)) | (x >> U32(32 - r))


def threefry2x32(key: tuple[int, int], x0: np.ndarray, x1: np.ndarray):
    """Threefry-2x32-20 of the counter words (x0, x1) under `key`."""
    ks = (U32(key[0]), U32(key[1]), U32(key[0] ^ key[1] ^ THREEFRY_PARITY))
    x0 = x0 + ks[0]
    x1 = x1 + ks[1]
    for group in range(5):
        for r in THREEFRY_ROTATIONS[(group % 2) * 4 : (group % 2) * 4 + 4]:
            x0 = x0 + x1
            x1 = _rotl(x1, r) ^ x0
        x0 = x0 + ks[(group + 1) % 3]
        x1 = x1 + ks[(group + 2) % 3]
        x1 = x1 + U32(group + 1)
    return x0, x1


def philox4x32(key: tuple[int, int], counter: list[np.ndarray]) -> list[np.ndarray]:
    """Philox-4x32-10 of the counter words under `key`."""
    c0, c1, c2, c3 = (np.asarray(c, np.uint64) for c in counter)
    k0, k1 = np.uint64(key[0]), np.uint64(key[1])
    m0, m1 = (np.uint64(m) for m in PHILOX_MULTIPLIERS)
    low, shift = np.uint64(MASK32), np.uint64(32)
    for round_ in range(10):
        if round_:
            k0 = (k0 + np.uint64(PHILOX_WEYL[0])) & low
            k1 = (k1 + np.uint64(PHILOX_WEYL[1])) & low
        p0, p1 = m0 * c0, m1 * c2
        c0, c1, c2, c3 = (
            (p1 >> shift) ^ c1 ^ k0,
            p1 & low,
            (p0 >> shift) ^ c3 ^ k1,
            p0 & low,
        )
    return [c.astype(U32) for c in (c0, c1, c2, c3)]


def _split(word: int) -> tuple[int, int]:
    return word & MASK32, word >> 32


def _threefry_words(state: list[int], words: int) -> tuple[np.ndarray, list[int]]:
    blocks = -(-words // 2)
    counters = (np.uint64(state[1]) + np.arange(blocks, dtype=np.uint64)).astype(
        np.uint64
    )
    lo = (counters & np.uint64(MASK32)).astype(U32)
    hi = (counters >> np.uint64(32)).astype(U32)
    x0, x1 = threefry2x32(_split(state[0]), lo, hi)
    stream = np.stack([x0, x1], axis=1).reshape(-1)[:words]
    return stream, [state[0], (state[1] + blocks) & (2**64 - 1)]


def _philox_words(state: list[int], words: int) -> tuple[np.ndarray, list[int]]:
    blocks = -(-words // 4)
    start = state[1] | ((state[2] if len(state) > 2 else 0) << 64)
    offsets = np.arange(blocks, dtype=np.uint64)
    low_start = np.uint64(state[1])
    low = low_start + offsets
    carry = (low < low_start).astype(np.uint64)
    high = np.uint64(start >> 64) + carry
    counter = [
        low & np.uint64(MASK32),
        low >> np.uint64(32),
        high & np.uint64(MASK32),
        high >> np.uint64(32),
    ]
    stream = np.stack(philox4x32(_split(state[0]), counter), axis=1).reshape(-1)
    end = (start + blocks) % 2**128
    next_state = [state[0], end & (2**64 - 1)]
    if len(state) > 2:
        next_state.append(end >> 64)
    return stream[:words], next_state


GENERATORS = {"THREE_FRY": _threefry_words, "PHILOX": _philox_words}


@impl(RngBitGeneratorOp)
def _rng_bit_generator(op: Operation, interp: ModuleInterpreter):
    algorithm = attribute(op, "rng_algorithm")
    name = str(getattr(getattr(algorithm, "data", algorithm), "value", algorithm))
    generate = GENERATORS.get(name, _philox_words)
    state_type, out_type = op.operands[0].type, op.results[1].type
    if bit_width(state_type) != 64:
        raise Unsupported(f"needs a ui64 state, but the state has type {state_type}")
    width = bit_width(out_type)
    shape = tensor_shape(out_type)
    count = int(np.prod(shape, dtype=np.int64))

    def run(state: Array) -> list[Array]:
        words = [int(w) for w in np.asarray(state, np.uint64).reshape(-1)]
        needed = -(-count * width // 32)
        stream, next_state = generate(words, needed)
        raw = np.ascontiguousarray(stream).view(np.uint8)
        if is_bf16(out_type):
            output = bf16_from_bits(raw.view(np.uint16)[:count].reshape(shape))
        else:
            dtype = dtype_of(out_type)
            output = raw.view(np.dtype(f"{dtype.kind}{width // 8}"))[:count]
            output = output.reshape(shape).astype(dtype, copy=False)
        return [np.array(next_state, np.uint64), output]

    return run

"""rng_bit_generator: the generators match the published known-answer vectors
(Random123's kat_vectors), and the op's state and bits behave as the spec says."""

import numpy as np
import pytest
from xlir.evaluator.hlo.rng import philox4x32, threefry2x32

import xlir


def words(*values: int) -> np.ndarray:
    return np.array(values, np.uint32)


@pytest.mark.parametrize(
    ("key", "counter", "expected"),
    [
        ((0, 0), (0, 0), (0x6B200159, 0x99BA4EFE)),
        ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
        ((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3), (0xC4923A9C, 0x483DF7A0)),
    ],
)
def test_threefry2x32_known_answers(key, counter, expected):
    x0, x1 = threefry2x32(key, words(counter[0]), words(counter[1]))
    assert (int(x0[0]), int(x1[0])) == expected


@pytest.mark.parametrize(
    ("key", "counter", "expected"),
    [
        ((0, 0), (0, 0, 0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
        (
            (0xA4093822, 0x299F31D0),
            (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
            (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1),
        ),
    ],
)
def test_philox4x32_known_answers(key, counter, expected):
    out = philox4x32(key, [words(c) for c in counter])
    assert tuple(int(w[0]) for w in out) == expected


PROGRAM = """
func.func @main(%state: tensor<{n}xui64>) -> (tensor<{n}xui64>, tensor<{shape}x{t}>) {{
  %s, %bits = stablehlo.rng_bit_generator %state, algorithm = {alg} : (tensor<{n}xui64>) -> (tensor<{n}xui64>, tensor<{shape}x{t}>)
  return %s, %bits : tensor<{n}xui64>, tensor<{shape}x{t}>
}}
"""


def run(alg: str, state: list[int], shape: str = "8", t: str = "ui32"):
    text = PROGRAM.format(n=len(state), shape=shape, t=t, alg=alg)
    return xlir.compile(text)(np.array(state, np.uint64))


def test_threefry_stream_and_state():
    state, bits = run("THREE_FRY", [0, 0])
    assert state.tolist() == [0, 4]  # 8 words = 4 blocks of 2
    assert bits[:2].tolist() == [0x6B200159, 0x99BA4EFE]


def test_philox_counter_carries_into_the_high_word():
    state, _ = run("PHILOX", [7, 2**64 - 1, 5])
    assert state.tolist() == [7, 1, 6]  # 2 blocks of 4 words


def test_deterministic_and_continues_from_the_new_state():
    state, first = run("DEFAULT", [1, 2])
    again_state, again = run("DEFAULT", [1, 2])
    assert np.array_equal(first, again) and np.array_equal(state, again_state)
    _, following = run("DEFAULT", state.tolist())
    assert not np.array_equal(first, following)


@pytest.mark.parametrize("t", ["ui8", "i16", "ui64", "f32", "f64", "bf16"])
def test_every_element_type_gets_bits(t):
    _, bits = run("THREE_FRY", [3, 4], shape="16", t=t)
    assert bits.shape == (16,)
    assert len(np.unique(np.asarray(bits, np.float64))) > 1

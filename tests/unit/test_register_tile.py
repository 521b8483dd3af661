"""`register-tile` and `vectorize` keep results: programs lowered by
`hlo-opt,hlo-to-loop` run on the loop interpreter before and after the
passes. The exact forms (`contract=false`, `reassociate=false`; scalar or
vector copies; rhs read in place or from packed panels) must give the same bits, since every output element is computed by the same
operations in the same order; the contracting and reassociating ones must
stay within float32 rounding. Random dot shapes (hypothesis) reach the
remainder nests; the corpus adds epilogues, batch dimensions, transposed
operands, convolutions and reductions."""

from __future__ import annotations

import re
import sys

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xlir.passes.loop import jam, vectorize

import xlir
from tests.corpus import PROGRAMS, load_case
from tests.loop_level import loop_level
from xlir.diagnostics import XlirError

EXACT = [
    "register-tile{mr=3 nr=4 contract=false}",
    "register-tile{mr=3 nr=4 lanes=1 contract=false}",
    "register-tile{mr=2 nr=8 lanes=2 contract=false}",
    "vectorize{width=4}",
    "register-tile{mr=2 nr=8 contract=false},vectorize{width=3}",
    "register-tile{mr=2 nr=8 lanes=2 contract=false},pack-panels{min-bytes=0}",
    "register-tile{mr=3 nr=4 lanes=1 contract=false},pack-panels{min-bytes=0}",
]
CLOSE = [
    "register-tile{mr=3 nr=4}",
    "register-tile,vectorize{reassociate=true}",
]
LOWERED = [p for p in PROGRAMS if ".export." not in p.name]


def _lowered(text: str, pipeline: str):
    """`text` at the loop level, then `pipeline` (after a comma)."""
    return loop_level(text, "test", pipeline.removeprefix(","))


def _run(module, arguments) -> list[np.ndarray]:
    outputs = xlir.compile(module, target="interpreter")(*arguments)
    return list(outputs) if isinstance(outputs, tuple) else [outputs]


def _compare(text: str, arguments: list[np.ndarray]) -> None:
    want = _run(_lowered(text, ""), arguments)
    for pipeline in EXACT:
        got = _run(_lowered(text, f",{pipeline}"), arguments)
        for a, b in zip(got, want, strict=True):
            np.testing.assert_array_equal(a, b, err_msg=pipeline)
    for pipeline in CLOSE:
        got = _run(_lowered(text, f",{pipeline}"), arguments)
        for a, b in zip(got, want, strict=True):
            if a.dtype.kind == "f":
                # an f16 output may round a last-bit f32 difference either way
                tolerance = max(1e-5, 2 * float(np.finfo(a.dtype).eps))
                scale = max(1.0, float(np.abs(b).max(initial=0.0)))
                np.testing.assert_allclose(a, b, rtol=tolerance, atol=tolerance * scale)
            else:
                np.testing.assert_array_equal(a, b)


EPILOGUES = ("none", "relu", "gelu", "two_outputs", "gelu_f16")
"""After the dot and a bias add: nothing, a relu, a tanh GELU (costly: runs
once per tile), the sum and its GELU as two outputs (a multi-output
fusion), and a GELU stored as f16 (the output cannot hold the f32
accumulators: cloned, in fewer rows)."""


def _gelu(x: str, shape: str) -> tuple[str, str]:
    """StableHLO lines for GELU's tanh form of `x`, and the result's name."""
    constants = {"c": 0.044715, "s": 0.7978845608, "h": 0.5, "one": 1.0}
    lines = [
        f"%{name} = stablehlo.constant dense<{value}> : tensor<{shape}xf32>"
        for name, value in constants.items()
    ]
    steps = [
        f"%g1 = stablehlo.multiply {x}, {x}",
        f"%g2 = stablehlo.multiply %g1, {x}",
        "%g3 = stablehlo.multiply %g2, %c",
        f"%g4 = stablehlo.add {x}, %g3",
        "%g5 = stablehlo.multiply %g4, %s",
        "%g6 = stablehlo.tanh %g5",
        "%g7 = stablehlo.add %g6, %one",
        f"%g8 = stablehlo.multiply %g7, {x}",
        "%g9 = stablehlo.multiply %g8, %h",
    ]
    lines += [f"{step} : tensor<{shape}xf32>" for step in steps]
    return "\n".join(lines) + "\n", "%g9"


def _dot_program(m: int, k: int, n: int, transposed: bool, epilogue: str) -> str:
    rhs = f"{n}x{k}" if transposed else f"{k}x{n}"
    dims = "[1] x [1]" if transposed else "[1] x [0]"
    shape = f"{m}x{n}"
    body = (
        f"%0 = stablehlo.dot_general %a, %b, contracting_dims = {dims} : "
        f"(tensor<{m}x{k}xf32>, tensor<{rhs}xf32>) -> tensor<{shape}xf32>\n"
    )
    results = [("%0", "f32")]
    if epilogue != "none":
        body += (
            f"%1 = stablehlo.broadcast_in_dim %bias, dims = [1] : "
            f"(tensor<{n}xf32>) -> tensor<{shape}xf32>\n"
            f"%2 = stablehlo.add %0, %1 : tensor<{shape}xf32>\n"
        )
    if epilogue == "relu":
        body += (
            f"%z = stablehlo.constant dense<0.0> : tensor<{shape}xf32>\n"
            f"%3 = stablehlo.maximum %2, %z : tensor<{shape}xf32>\n"
        )
        results = [("%3", "f32")]
    elif epilogue in ("gelu", "two_outputs", "gelu_f16"):
        lines, gelu = _gelu("%2", shape)
        body += lines
        results = {
            "gelu": [(gelu, "f32")],
            "two_outputs": [("%2", "f32"), (gelu, "f32")],
            "gelu_f16": [("%h16", "f16")],
        }[epilogue]
        if epilogue == "gelu_f16":
            body += (
                f"%h16 = stablehlo.convert {gelu} : "
                f"(tensor<{shape}xf32>) -> tensor<{shape}xf16>\n"
            )
    types = ", ".join(f"tensor<{shape}x{t}>" for _, t in results)
    names = ", ".join(name for name, _ in results)
    return (
        f"func.func @main(%a: tensor<{m}x{k}xf32>, %b: tensor<{rhs}xf32>, "
        f"%bias: tensor<{n}xf32>) -> ({types}) {{\n"
        f"{body}return {names} : {types}\n}}\n"
    )


def _dot_arguments(m: int, k: int, n: int, transposed: bool, seed: int):
    rng = np.random.default_rng(seed)
    rhs = (n, k) if transposed else (k, n)
    shapes = ((m, k), rhs, (n,))
    return [rng.standard_normal(s).astype(np.float32) / 2 for s in shapes]


@settings(max_examples=12, deadline=None)
@given(
    m=st.integers(1, 13),
    k=st.integers(1, 9),
    n=st.integers(1, 19),
    transposed=st.booleans(),
    epilogue=st.sampled_from(EPILOGUES),
    seed=st.integers(0, 2**16),
)
def test_random_dots(
    m: int, k: int, n: int, transposed: bool, epilogue: str, seed: int
) -> None:
    arguments = _dot_arguments(m, k, n, transposed, seed)
    _compare(_dot_program(m, k, n, transposed, epilogue), arguments)


ROW_REDUCTIONS = {
    "sum": "%s = stablehlo.reduce(%x init: %zero) applies stablehlo.add "
    "across dimensions = [1] : (tensor<{r}x{c}xf32>, tensor<f32>) -> tensor<{r}xf32>",
    "softmax": "%m = stablehlo.reduce(%x init: %zero) applies stablehlo.maximum "
    "across dimensions = [1] : (tensor<{r}x{c}xf32>, tensor<f32>) -> tensor<{r}xf32>\n"
    "%mb = stablehlo.broadcast_in_dim %m, dims = [0] : "
    "(tensor<{r}xf32>) -> tensor<{r}x{c}xf32>\n"
    "%d = stablehlo.subtract %x, %mb : tensor<{r}x{c}xf32>\n"
    "%e = stablehlo.exponential %d : tensor<{r}x{c}xf32>\n"
    "%s = stablehlo.reduce(%e init: %zero) applies stablehlo.add "
    "across dimensions = [1] : (tensor<{r}x{c}xf32>, tensor<f32>) -> tensor<{r}xf32>",
}
"""Row reductions that stay in order (a plain sum; softmax's sum of the
exponentials an inner nest writes): `vectorize` jams their rows."""


@settings(max_examples=15, deadline=None)
@given(
    rows=st.integers(1, 21),
    columns=st.integers(1, 40),
    kind=st.sampled_from(sorted(ROW_REDUCTIONS)),
    seed=st.integers(0, 2**16),
)
def test_row_jammed_reductions_keep_bits(
    rows: int, columns: int, kind: str, seed: int
) -> None:
    body = ROW_REDUCTIONS[kind].format(r=rows, c=columns)
    text = (
        f"func.func @main(%x: tensor<{rows}x{columns}xf32>) -> tensor<{rows}xf32> {{\n"
        "%zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
        f"{body}\nreturn %s : tensor<{rows}xf32>\n}}\n"
    )
    x = np.random.default_rng(seed).standard_normal((rows, columns)).astype(np.float32)
    want = _run(_lowered(text, ""), [x])
    jammed = _lowered(text, ",vectorize{width=4}")
    if rows > 1:
        assert "jam = array<i64:" in str(jammed)
    np.testing.assert_array_equal(_run(jammed, [x])[0], want[0])
    got = xlir.compile(_lowered(text, ""), target="cpu")(x)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vectorize, "ROW_JAM", 1)
        in_rows = xlir.compile(_lowered(text, ""), target="cpu")(x)
    np.testing.assert_array_equal(got, in_rows)


@pytest.mark.parametrize("epilogue", ["gelu", "two_outputs"])
def test_costly_epilogue_runs_once_per_tile(epilogue: str) -> None:
    """13 x 19 tiled 3 x 4: four tile shapes (whole tiles, the last row, the
    last three columns, the corner), one GELU each instead of 12 per whole
    tile; the outputs are the bits the cloned epilogues give."""
    text = _dot_program(13, 9, 19, False, epilogue)
    tiled = _lowered(text, ",register-tile{mr=3 nr=4}")
    printed = str(tiled)
    assert printed.count("math.tanh") == printed.count("jam = array<i64:") == 4
    arguments = _dot_arguments(13, 9, 19, False, 7)
    cloned = _cloned_epilogues(text, ",register-tile{mr=3 nr=4}")
    for got, want in zip(_run(tiled, arguments), _run(cloned, arguments), strict=True):
        np.testing.assert_array_equal(got, want)


def _cloned_epilogues(text: str, pipeline: str):
    """`pipeline` with every epilogue cloned per copy, as before epilogue
    nests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jam, "CLONED_EPILOGUE_COST", sys.maxsize)
        return _lowered(text, pipeline)


def test_cpu_epilogue_nest_bits_match_cloned() -> None:
    """Compiled for this CPU (the host's tile; LLVM vectorizes the epilogue
    nest), the GELU layer gives the bits of the cloned epilogues."""
    text = _dot_program(29, 33, 70, False, "two_outputs")
    arguments = _dot_arguments(29, 33, 70, False, 3)
    got = xlir.compile(_lowered(text, ""), target="cpu")(*arguments)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jam, "CLONED_EPILOGUE_COST", sys.maxsize)
        want = xlir.compile(_lowered(text, ""), target="cpu")(*arguments)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)


CPU_VARIANTS = {
    # vector copies (the default) against scalar copies that LLVM's SLP
    # vectorizer packs (`lanes=1`): each lane runs the same FMAs in order
    "vector-copies": ("register-tile", "register-tile{lanes=1}", "vector<"),
    # weights read from packed panels (threads splitting the panels)
    # against the tiles reading them in place; the 9 KiB of weights are
    # below the default `min-bytes`, so the CPU pipeline packs neither again
    "packed-panels": (
        "register-tile,pack-panels{min-bytes=0}",
        "register-tile",
        "device.free",
    ),
}


@pytest.mark.parametrize("variant", sorted(CPU_VARIANTS))
@pytest.mark.parametrize("epilogue", ["relu", "gelu"])
def test_cpu_variants_keep_bits(variant: str, epilogue: str) -> None:
    """On this CPU, a dense layer compiled with each form of `CPU_VARIANTS`
    gives the bits of its baseline; `marker` shows in the variant's loop IR
    only (so the two differ)."""
    pipeline, baseline, marker = CPU_VARIANTS[variant]
    text = _dot_program(29, 33, 70, False, epilogue)
    arguments = _dot_arguments(29, 33, 70, False, 5)
    variant_module = _lowered(text, f",fuse-kernels,{pipeline}")
    assert marker in str(variant_module)
    baseline_module = _lowered(text, f",fuse-kernels,{baseline}")
    assert marker not in str(baseline_module)
    got = xlir.compile(variant_module, target="cpu")(*arguments)
    want = xlir.compile(baseline_module, target="cpu")(*arguments)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("path", LOWERED, ids=[p.name for p in LOWERED])
def test_corpus_outputs_kept(path) -> None:
    text = path.read_text()
    try:
        _lowered(text, "")
    except XlirError as error:
        pytest.skip(f"hlo-to-loop cannot lower it yet: {error}")
    arguments, _ = load_case(path)
    _compare(text, arguments)


def test_the_passes_change_the_corpus_kernels() -> None:
    """The corpus's dot, batched dot, convolution and column reduction are
    jammed, with vector copies (so the tests above compare transformed
    code)."""
    for name in ("matmul", "bmm_einsum", "conv2d_nhwc", "mlp_fwd"):
        text = (PROGRAMS[0].parent / f"{name}.mlir").read_text()
        printed = str(_lowered(text, ",register-tile{mr=3 nr=4 lanes=4}"))
        assert "jam = array<i64:" in printed, name
        assert "math.fma" in printed and "vector<4xf32>" in printed, name


BF16_DOT = """
func.func @main(%a: tensor<6x8xbf16>, %b: tensor<8x40xbf16>) -> tensor<6x40xbf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<6x8xbf16>, tensor<8x40xbf16>) -> tensor<6x40xbf16>
  return %0 : tensor<6x40xbf16>
}"""


def _bf16_dot_arguments() -> list[np.ndarray]:
    """Sums on bf16's rounding edges: row 0 is `b[0] + b[1] + b[2]`, 1 plus a
    half ulp of bf16 (a tie, to even), that plus or minus a little, and
    plus three half ulps (a tie, up); row 1 overflows bf16 or f32 (to
    infinity); row 2 is NaN; a column has an infinity (NaN where A's
    element is 0)."""
    rng = np.random.default_rng(11)
    a = rng.standard_normal((6, 8)).astype(np.float32)
    b = rng.standard_normal((8, 40)).astype(np.float32)
    a[0] = [1, 1, 1, 0, 0, 0, 0, 0]
    b[0] = 1
    b[1] = np.resize([2**-8, 2**-8, 2**-8, 3 * 2**-8], 40)
    b[2] = np.resize([0, 2**-16, -(2**-16), 0], 40)
    a[1, 3] = 3e38
    a[2, 4] = np.nan
    a[3:, 5] = [0, 1, -1]
    b[5, 7] = np.inf
    return [a.astype(ml_dtypes.bfloat16), b.astype(ml_dtypes.bfloat16)]


def test_bf16_vector_copies_keep_bits() -> None:
    """A bf16 dot's vector copies (its loads widened and its sums rounded
    back by integer shifts, bitcasts, compares and selects on vectors) give
    the bits of the untiled nest on the loop interpreter, and of scalar
    copies on this CPU (contracted to FMAs there, which leaves the rows
    of exact sums, infinities and NaN as they were)."""
    arguments = _bf16_dot_arguments()
    want = _run(_lowered(BF16_DOT, ",widen-floats"), arguments)[0]
    assert np.isnan(want[2]).all() and np.isinf(want[1]).any()
    assert want[0, :4].astype(np.float32).tolist() == [1, 1 + 2**-7, 1, 1 + 2**-6]
    tiled = _lowered(
        BF16_DOT, ",widen-floats,register-tile{mr=2 nr=8 lanes=4 contract=false}"
    )
    assert "vector<4xi1>" in str(tiled)
    got = _run(tiled, arguments)[0]
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))
    on_cpu = {
        lanes: xlir.compile(
            _lowered(BF16_DOT, f",widen-floats,register-tile{{lanes={lanes}}}"),
            target="cpu",
        )(*arguments)
        for lanes in (0, 1)
    }
    np.testing.assert_array_equal(on_cpu[0].view(np.uint16), on_cpu[1].view(np.uint16))
    # rows 0-2 are exact with or without the tile's FMAs
    np.testing.assert_array_equal(
        on_cpu[0][:3].view(np.uint16), want[:3].view(np.uint16)
    )


BF16_DOT_TANH = """
func.func @main(%a: tensor<6x8xbf16>, %b: tensor<8x40xbf16>) -> tensor<6x40xbf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<6x8xbf16>, tensor<8x40xbf16>) -> tensor<6x40xf32>
  %1 = stablehlo.tanh %0 : tensor<6x40xf32>
  %2 = stablehlo.convert %1 : (tensor<6x40xf32>) -> tensor<6x40xbf16>
  return %2 : tensor<6x40xbf16>
}"""
"""A tanh of the f32 sums before the bf16 rounding: the epilogue is cloned
per copy (a bf16 tanh after the rounding runs once per tile instead)."""


def test_bf16_tanh_epilogue_vector_copies_keep_bits() -> None:
    """A bf16 dot's cloned tanh epilogue on vectors (expanded by expand-math
    as vector code) gives the bits of scalar copies on this CPU, for the
    rounding edges, infinities and NaN of `_bf16_dot_arguments`."""
    arguments = _bf16_dot_arguments()
    tiled = _lowered(BF16_DOT_TANH, ",widen-floats,register-tile{mr=2 nr=8 lanes=8}")
    assert re.search(r"math\.tanh %\S+ : vector<8xf32>", str(tiled))
    on_cpu = {
        lanes: xlir.compile(
            _lowered(BF16_DOT_TANH, f",widen-floats,register-tile{{lanes={lanes}}}"),
            target="cpu",
        )(*arguments)
        for lanes in (8, 1)
    }
    assert np.isnan(on_cpu[8][2]).all()
    np.testing.assert_array_equal(on_cpu[8].view(np.uint16), on_cpu[1].view(np.uint16))


MASKED_TRANSPOSED_DOT = """
func.func @main(%a: tensor<13x9xf32>, %b: tensor<21x9xf32>) -> tensor<13x21xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [1] : (tensor<13x9xf32>, tensor<21x9xf32>) -> tensor<13x21xf32>
  %r = stablehlo.iota dim = 0 : tensor<13x21xi32>
  %c = stablehlo.iota dim = 1 : tensor<13x21xi32>
  %m = stablehlo.compare LE, %c, %r : (tensor<13x21xi32>, tensor<13x21xi32>) -> tensor<13x21xi1>
  %low = stablehlo.constant dense<-1.0e30> : tensor<13x21xf32>
  %1 = stablehlo.select %m, %0, %low : tensor<13x21xi1>, tensor<13x21xf32>
  return %1 : tensor<13x21xf32>
}"""
"""`A·Bᵀ` with a causal mask: B's columns are read by its leading index and
the mask compares the column number, both along the vector."""


def test_gathered_loads_and_lane_numbers_keep_bits() -> None:
    """Vector copies that gather a transposed operand's column lane by lane
    and cast the column number lane by lane (`vector.insert`) give the bits
    of the untiled nest on the loop interpreter, and of scalar copies on
    this CPU."""
    rng = np.random.default_rng(7)
    arguments = [
        rng.standard_normal(shape).astype(np.float32) for shape in ((13, 9), (21, 9))
    ]
    want = _run(_lowered(MASKED_TRANSPOSED_DOT, ""), arguments)[0]
    tiled = _lowered(
        MASKED_TRANSPOSED_DOT,
        ",fuse-kernels,register-tile{mr=2 nr=8 lanes=4 contract=false}",
    )
    assert "vector.insert" in str(tiled)
    assert re.search(r"arith\.index_cast %\S+ : index to i32\n", str(tiled))
    np.testing.assert_array_equal(_run(tiled, arguments)[0], want)
    on_cpu = {
        lanes: xlir.compile(
            _lowered(
                MASKED_TRANSPOSED_DOT, f",fuse-kernels,register-tile{{lanes={lanes}}}"
            ),
            target="cpu",
        )(*arguments)
        for lanes in (0, 1)
    }
    np.testing.assert_array_equal(on_cpu[0], on_cpu[1])


UNSIGNED_CASTS = """
func.func @main(%a: tensor<3x16xui32>, %b: tensor<3x16xui64>, %e: tensor<3x16xi32>, %f: tensor<3x16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xui32>) {
  %z32 = stablehlo.constant dense<0> : tensor<ui32>
  %z64 = stablehlo.constant dense<0> : tensor<ui64>
  %low = stablehlo.constant dense<-2147483648> : tensor<i32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %ra = stablehlo.reduce(%a init: %z32) applies stablehlo.maximum across dimensions = [0] : (tensor<3x16xui32>, tensor<ui32>) -> tensor<16xui32>
  %rb = stablehlo.reduce(%b init: %z64) applies stablehlo.maximum across dimensions = [0] : (tensor<3x16xui64>, tensor<ui64>) -> tensor<16xui64>
  %re = stablehlo.reduce(%e init: %low) applies stablehlo.maximum across dimensions = [0] : (tensor<3x16xi32>, tensor<i32>) -> tensor<16xi32>
  %rf = stablehlo.reduce(%f init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<3x16xf32>, tensor<f32>) -> tensor<16xf32>
  %0 = stablehlo.convert %ra : (tensor<16xui32>) -> tensor<16xf32>
  %1 = stablehlo.convert %rb : (tensor<16xui64>) -> tensor<16xf32>
  %c = stablehlo.iota dim = 0 : tensor<16xi32>
  %m = stablehlo.compare EQ, %re, %c : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
  %2 = stablehlo.convert %m : (tensor<16xi1>) -> tensor<16xf32>
  %3 = stablehlo.convert %rf : (tensor<16xf32>) -> tensor<16xui32>
  return %0, %1, %2, %3 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xui32>
}"""
"""Column maxima converted: unsigned to f32 (i32 and i64 lanes), a one-hot's
compare to f32 (i1 lanes), f32 to unsigned; `vectorize` puts every
conversion on vectors."""


def _columns(values: list, dtype: type) -> np.ndarray:
    """`values` (repeated to 16 columns) as the maxima of three rows."""
    rows = np.zeros((3, 16), dtype)
    rows[1] = np.resize(np.array(values, dtype), 16)
    return rows


def test_unsigned_vector_casts_keep_bits() -> None:
    """`uitofp` and `fptoui` on vectors give the bits of scalar copies, on
    the loop interpreter and on this CPU: 0, the largest unsigned values,
    values above 2^24 that round (ties to even), and an i64 lane that would
    round twice through f64."""
    a = _columns([0, 1, 2**32 - 1, 2**24 + 1, 2**24 + 3, 2**31 + 257], np.uint32)
    b = _columns(
        [0, 1, 2**64 - 1, 2**63, 2**63 + 2**39 + 1, 2**53 + 1, 2**24 + 1], np.uint64
    )
    e = np.full((3, 16), -5, np.int32)
    e[1] = [3, 1, 2, 3, 4, 0, 6, 7, 8, 9, 1, 1, 12, 13, 0, 15]
    f = np.full((3, 16), -np.inf, np.float32)
    f[1] = np.resize(np.array([0, 1.5, 2**31, 4294967040, 16777217, 255.5]), 16)
    arguments = [a.view(np.int32), b.view(np.int64), e, f]
    want = _run(_lowered(UNSIGNED_CASTS, ""), arguments)
    np.testing.assert_array_equal(want[0], a[1].astype(np.float32))
    np.testing.assert_array_equal(want[1], b[1].astype(np.float32))
    np.testing.assert_array_equal(want[2], (e[1] == np.arange(16)).astype(np.float32))
    np.testing.assert_array_equal(want[3].view(np.uint32), f[1].astype(np.uint32))
    vectors = _lowered(UNSIGNED_CASTS, ",fuse-kernels,vectorize{width=8}")
    for source in ("i32", "i64", "i1"):
        assert f"vector<8x{source}> to vector<8xf32>" in str(vectors)
    assert re.search(r"arith\.fptoui %\S+ : vector<8xf32>", str(vectors))
    for module in (_lowered(UNSIGNED_CASTS, ",fuse-kernels"), vectors):
        for target in ("interpreter", "cpu"):
            got = xlir.compile(module, target=target)(*arguments)
            for g, w in zip(got, want, strict=True):
                np.testing.assert_array_equal(g.view(np.uint8), w.view(np.uint8))

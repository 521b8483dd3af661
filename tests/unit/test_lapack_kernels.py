"""The LAPACK custom calls of `jnp.linalg` and `stablehlo.triangular_solve` /
`cholesky` against numpy on every registered target (the reference runs
the evaluator, evaluator/hlo/lapack.py; a compiling target the loop kernels,
lowering/kernels/linalg.py) and on the loop evaluator (the reference after
`hlo-to-loop`), batched and unbatched, f32 and f64, with the edge cases JAX
relies on (`info` of a singular or indefinite matrix)."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.targets.registry import target_names

import xlir
from tests.conftest import may_refuse, skip_without_device
from xlir.diagnostics import XlirError
from xlir.testing.differential import REFERENCE

FLAGS = {
    "L": 76,
    "U": 85,
    "N": 78,
    "T": 84,
    "C": 67,
    "R": 82,
    "A": 65,
    "S": 83,
    "V": 86,
}


def tensor(dims: tuple[int, ...], element: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in dims) + element + ">"


def lapack(
    routine: str,
    element: str,
    operands: list[tuple[int, ...]],
    results: list[tuple[tuple[int, ...], str]],
    flags: dict[str, str] | None = None,
) -> str:
    """A module whose @main makes one LAPACK call, spelt as JAX prints it
    (backend flags as ASCII codes, batch count, a Shardy sharding rule)."""
    letter = "s" if element == "f32" else "d"
    config = ", ".join(f"{k} = {FLAGS[v]} : ui8" for k, v in (flags or {}).items())
    ins = [tensor(dims, element) for dims in operands]
    outs = [tensor(dims, t) for dims, t in results]
    batch = len(operands[0]) - 2
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(ins))
    names = ", ".join(f"%a{i}" for i in range(len(ins)))
    count = f":{len(outs)}" if len(outs) > 1 else ""
    rets = ", ".join(f"%r#{i}" for i in range(len(outs))) if count else "%r"
    return f"""
func.func @main({args}) -> ({", ".join(outs)}) {{
  %r{count} = stablehlo.custom_call @lapack_{letter}{routine}_ffi({names}) {{backend_config = "", mhlo.backend_config = {{{config}}}, mhlo.frontend_attributes = {{num_batch_dims = "{batch}"}}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l]) {{i=3, j=3, k=3, l=3}}, custom>}} : ({", ".join(ins)}) -> ({", ".join(outs)})
  return {rets} : {", ".join(outs)}
}}
"""


LOOP = "loop"
"""The configuration that runs the loop kernels on the loop evaluator."""

CONFIGURATIONS = {name: (name, None) for name in target_names()} | {
    LOOP: (REFERENCE, "assign-buffers,hlo-to-loop")
}
"""id: (target, pipeline); None: the target's default."""

TARGETS = list(CONFIGURATIONS)


def run(text: str, configuration: str, *args: np.ndarray) -> list[np.ndarray]:
    target, pipeline = CONFIGURATIONS[configuration]
    skip_without_device(target)
    try:
        out = xlir.compile(text, target=target, pipeline=pipeline)(*args)
    except XlirError as error:
        if not may_refuse(target):
            raise
        pytest.xfail(str(error))  # refused with its diagnostic, not computed wrong
    return list(out) if isinstance(out, tuple) else [out]


def tolerance(element: str) -> float:
    return 2e-4 if element == "f32" else 1e-11


ELEMENTS = {"f32": np.float32, "f64": np.float64}
RNG = np.random.default_rng(0)


def spd(batch: tuple[int, ...], n: int, dtype) -> np.ndarray:
    a = RNG.standard_normal((*batch, n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)


def close(have: np.ndarray, want: np.ndarray, element: str) -> None:
    assert have.shape == np.shape(want)
    tol = tolerance(element)
    np.testing.assert_allclose(have, want, rtol=tol, atol=tol)


# --- Cholesky ------------------------------------------------------------------


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("element", ["f32", "f64"])
@pytest.mark.parametrize(("batch", "uplo"), [((), "L"), ((2, 3), "U")])
def test_potrf(target: str, element: str, batch: tuple[int, ...], uplo: str):
    n = 5
    a = spd(batch, n, ELEMENTS[element])
    text = lapack(
        "potrf", element, [(*batch, n, n)], [((*batch, n, n), element), (batch, "i32")],
        {"uplo": uplo},
    )  # fmt: skip
    factor, info = run(text, target, a)
    lower = np.linalg.cholesky(a.astype(np.float64))
    want = lower if uplo == "L" else np.swapaxes(lower, -1, -2)
    triangle = np.tril if uplo == "L" else np.triu
    close(triangle(factor), want, element)
    other = np.triu(a, 1) if uplo == "L" else np.tril(a, -1)
    other_have = np.triu(factor, 1) if uplo == "L" else np.tril(factor, -1)
    np.testing.assert_array_equal(other_have, other)  # LAPACK leaves it as given
    np.testing.assert_array_equal(info, np.zeros(batch, np.int32))


@pytest.mark.parametrize("target", TARGETS)
def test_potrf_info_names_the_first_indefinite_minor(target: str):
    a = np.stack([np.diag([4.0, -1.0, 2.0]), np.diag([1.0, 1.0, 0.0]), np.eye(3)])
    a = a.astype(np.float32)
    text = lapack(
        "potrf", "f32", [(3, 3, 3)], [((3, 3, 3), "f32"), ((3,), "i32")], {"uplo": "L"}
    )
    _, info = run(text, target, a)
    np.testing.assert_array_equal(info, [2, 3, 0])


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("lower", [True, False])
def test_stablehlo_cholesky(target: str, lower: bool):
    a = spd((2,), 4, np.float64)
    t = "tensor<2x4x4xf64>"
    flag = "true" if lower else "false"
    text = f"""
func.func @main(%a: {t}) -> {t} {{
  %r = stablehlo.cholesky %a, lower = {flag} : {t}
  return %r : {t}
}}"""
    (factor,) = run(text, target, a)
    want = np.linalg.cholesky(a)
    close(factor, want if lower else np.swapaxes(want, -1, -2), "f64")


# --- LU --------------------------------------------------------------------------


def lu_reference(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """getf2 in plain Python, one matrix: the first largest pivot."""
    lu = a.astype(np.float64).copy()
    m, n = lu.shape
    pivots, info = [], 0
    for j in range(min(m, n)):
        row = j + int(np.argmax(np.abs(lu[j:, j])))
        pivots.append(row + 1)
        lu[[j, row]] = lu[[row, j]]
        if lu[j, j] != 0:
            lu[j + 1 :, j] /= lu[j, j]
        elif info == 0:
            info = j + 1
        lu[j + 1 :, j + 1 :] -= np.outer(lu[j + 1 :, j], lu[j, j + 1 :])
    return lu, np.array(pivots, np.int32), info


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("element", ["f32", "f64"])
@pytest.mark.parametrize("dims", [(4, 4), (2, 5, 3), (3, 5)])
def test_getrf(target: str, element: str, dims: tuple[int, ...]):
    a = RNG.standard_normal(dims).astype(ELEMENTS[element])
    *batch, m, n = dims
    k = min(m, n)
    text = lapack(
        "getrf", element, [dims],
        [(dims, element), ((*batch, k), "i32"), (tuple(batch), "i32")],
    )  # fmt: skip
    lu, pivots, info = run(text, target, a)
    for index in np.ndindex(*batch):
        want_lu, want_pivots, want_info = lu_reference(a[index])
        close(lu[index], want_lu, element)
        np.testing.assert_array_equal(pivots[index], want_pivots)
        assert info[index] == want_info == 0


@pytest.mark.parametrize("target", TARGETS)
def test_getrf_singular(target: str):
    """A zero column gives `info` = its position, no division by it, and the
    elimination goes on (as LAPACK: JAX's solve then yields inf/NaN)."""
    a = np.array([[[1.0, 2.0, 3.0], [2.0, 4.0, 1.0], [3.0, 6.0, 2.0]], np.ones((3, 3))])
    a = a.astype(np.float32)
    text = lapack(
        "getrf", "f32", [(2, 3, 3)],
        [((2, 3, 3), "f32"), ((2, 3), "i32"), ((2,), "i32")],
    )  # fmt: skip
    lu, pivots, info = run(text, target, a)
    np.testing.assert_array_equal(info, [2, 2])
    for index in range(2):
        want_lu, want_pivots, _ = lu_reference(a[index])
        close(lu[index], want_lu, "f32")
        np.testing.assert_array_equal(pivots[index], want_pivots)


@pytest.mark.parametrize("target", TARGETS)
def test_getrf_never_pivots_on_a_later_nan(target: str):
    """As BLAS's i?amax: a NaN below the diagonal is not the largest; one on
    the diagonal stays the pivot. The evaluator and the kernels agree."""
    a = np.array([[[1.0, 2.0], [np.nan, 3.0]], [[np.nan, 2.0], [5.0, 3.0]]])
    text = lapack(
        "getrf", "f64", [(2, 2, 2)],
        [((2, 2, 2), "f64"), ((2, 2), "i32"), ((2,), "i32")],
    )  # fmt: skip
    _, pivots, _ = run(text, target, a)
    np.testing.assert_array_equal(pivots, [[1, 2], [1, 2]])


# --- triangular solves -----------------------------------------------------------


def triangle(a: np.ndarray, lower: bool, unit: bool) -> np.ndarray:
    t = np.tril(a) if lower else np.triu(a)
    if unit:
        n = a.shape[-1]
        t = t - t * np.eye(n) + np.eye(n)
    return t


CASES = [
    (left, lower, transpose, unit)
    for left in (True, False)
    for lower in (True, False)
    for transpose in ("N", "T")
    for unit in (False, True)
]


@pytest.mark.parametrize(
    ("target", "left", "lower", "transpose", "unit"),
    [
        (configuration, *case)
        for configuration, (target, _) in CONFIGURATIONS.items()
        for case in (CASES if target == REFERENCE else CASES[::3])
    ],
)
def test_trsm(target: str, left: bool, lower: bool, transpose: str, unit: bool):
    """Every case on the evaluators, a third of them where code is compiled."""
    solve_triangular_cases(target, left, lower, transpose, unit)


def solve_triangular_cases(
    target: str, left: bool, lower: bool, transpose: str, unit: bool
) -> None:
    n, r = 4, 3
    a = (RNG.standard_normal((2, n, n)) + 4 * np.eye(n)).astype(np.float64)
    b_dims = (2, n, r) if left else (2, r, n)
    b = RNG.standard_normal(b_dims)
    flags = {
        "side": "L" if left else "R",
        "uplo": "L" if lower else "U",
        "trans_x": transpose,
        "diag": "U" if unit else "N",
    }
    text = lapack("trsm", "f64", [(2, n, n), b_dims], [(b_dims, "f64")], flags)
    (x,) = run(text, target, a, b)
    op_a = triangle(a, lower, unit)
    if transpose == "T":
        op_a = np.swapaxes(op_a, -1, -2)
    back = op_a @ x if left else x @ op_a
    close(back, b, "f64")


@pytest.mark.parametrize("target", TARGETS)
def test_stablehlo_triangular_solve(target: str):
    a = (RNG.standard_normal((3, 3)) + 3 * np.eye(3)).astype(np.float32)
    b = RNG.standard_normal((2, 3)).astype(np.float32)
    text = """
func.func @main(%a: tensor<3x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = false,
       unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>}
       : (tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %x : tensor<2x3xf32>
}"""
    (x,) = run(text, target, a, b)
    close(x @ np.triu(a).T, b, "f32")


# --- QR ------------------------------------------------------------------------


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("element", ["f32", "f64"])
@pytest.mark.parametrize("dims", [(5, 3), (2, 3, 4), (3, 3)])
def test_geqrf_orgqr(target: str, element: str, dims: tuple[int, ...]):
    a = RNG.standard_normal(dims).astype(ELEMENTS[element])
    *batch, m, n = dims
    k = min(m, n)
    factor = lapack("geqrf", element, [dims], [(dims, element), ((*batch, k), element)])
    qr, tau = run(factor, target, a)
    q_dims = (*batch, m, k)
    vectors = qr[..., :k] if n > k else qr
    orgqr = lapack("orgqr", element, [q_dims, (*batch, k)], [(q_dims, element)])
    (q,) = run(orgqr, target, np.ascontiguousarray(vectors), tau)
    r = np.triu(qr)[..., :k, :]
    close(q @ r, a, element)
    close(
        np.swapaxes(q, -1, -2) @ q, np.broadcast_to(np.eye(k), (*batch, k, k)), element
    )
    # LAPACK's sign convention: R's diagonal and numpy's agree up to sign,
    # and tau is 0 or in [1, 2].
    want_r = np.linalg.qr(a.astype(np.float64), mode="r")
    close(np.abs(r), np.abs(want_r), element)
    assert np.all((tau == 0) | ((tau >= 1 - 1e-6) & (tau <= 2 + 1e-6)))


# --- eigh and SVD ---------------------------------------------------------------


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("element", ["f32", "f64"])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_syevd(target: str, element: str, uplo: str):
    a = spd((2,), 5, ELEMENTS[element])
    a[1, 2, 2] = a[1, 3, 3] = 7.0  # keep it symmetric, give it a near tie
    keep = np.tril if uplo == "L" else np.triu
    given = keep(a) + 99 * (np.triu(a, 1) if uplo == "L" else np.tril(a, -1))
    text = lapack(
        "syevd", element, [(2, 5, 5)],
        [((2, 5, 5), element), ((2, 5), element), ((2,), "i32")],
        {"uplo": uplo, "mode": "V"},
    )  # fmt: skip
    vectors, values, info = run(text, target, given.astype(ELEMENTS[element]))
    close(values, np.linalg.eigvalsh(a.astype(np.float64)), element)
    close(vectors @ (values[..., None] * np.swapaxes(vectors, -1, -2)), a, element)
    close(
        np.swapaxes(vectors, -1, -2) @ vectors,
        np.broadcast_to(np.eye(5), a.shape),
        element,
    )
    np.testing.assert_array_equal(info, [0, 0])


@pytest.mark.parametrize("target", TARGETS)
def test_syevd_nan_gives_nan_and_info(target: str):
    a = np.stack([np.eye(3), np.eye(3)]).astype(np.float32)
    a[0, 2, 0] = np.nan
    text = lapack(
        "syevd", "f32", [(2, 3, 3)],
        [((2, 3, 3), "f32"), ((2, 3), "f32"), ((2,), "i32")],
        {"uplo": "L", "mode": "V"},
    )  # fmt: skip
    vectors, values, info = run(text, target, a)
    np.testing.assert_array_equal(info, [1, 0])
    assert np.isnan(values[0]).all() and np.isnan(vectors[0]).all()
    close(values[1], np.ones(3), "f32")


def orthonormal(q: np.ndarray, element: str) -> None:
    """q's columns are orthonormal."""
    k = q.shape[-1]
    close(
        np.swapaxes(q, -1, -2) @ q,
        np.broadcast_to(np.eye(k), (*q.shape[:-2], k, k)),
        element,
    )


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("mode", ["A", "S", "N"])
@pytest.mark.parametrize(
    ("dims", "element"), [((4, 3), "f64"), ((2, 3, 5), "f32"), ((3, 3), "f32")]
)
def test_gesdd(target: str, mode: str, dims: tuple[int, ...], element: str):
    a = RNG.standard_normal(dims).astype(ELEMENTS[element])
    if len(dims) == 3:
        a[1, 2] = a[1, 0]  # rank 2: a zero singular value, completed vectors
    *batch, m, n = dims
    k = min(m, n)
    u_dims, vt_dims = ((m, k), (k, n)) if mode == "S" else ((m, m), (n, n))
    text = lapack(
        "gesdd", element, [dims],
        [
            (dims, element), ((*batch, k), element), ((*batch, *u_dims), element),
            ((*batch, *vt_dims), element), (tuple(batch), "i32"),
        ],
        {"mode": mode},
    )  # fmt: skip
    copy, s, u, vt, info = run(text, target, a)
    np.testing.assert_array_equal(copy, a)
    close(s, np.linalg.svd(a.astype(np.float64), compute_uv=False), element)
    np.testing.assert_array_equal(info, np.zeros(batch, np.int32))
    if mode == "N":
        return
    close((u[..., :k] * s[..., None, :]) @ vt[..., :k, :], a, element)
    orthonormal(u, element)
    orthonormal(np.swapaxes(vt, -1, -2), element)


@pytest.mark.parametrize("target", TARGETS)
def test_gesdd_inf_gives_nan_and_info(target: str):
    a = np.stack([np.eye(3), np.eye(3)]).astype(np.float32)
    a[1, 0, 1] = np.inf
    text = lapack(
        "gesdd", "f32", [(2, 3, 3)],
        [
            ((2, 3, 3), "f32"), ((2, 3), "f32"), ((2, 3, 3), "f32"),
            ((2, 3, 3), "f32"), ((2,), "i32"),
        ],
        {"mode": "A"},
    )  # fmt: skip
    _, s, u, vt, info = run(text, target, a)
    np.testing.assert_array_equal(info, [0, 1])
    assert np.isnan(s[1]).all() and np.isnan(u[1]).all() and np.isnan(vt[1]).all()
    close(s[0], np.ones(3), "f32")


# --- what is refused --------------------------------------------------------------


@pytest.mark.parametrize(
    ("routine", "flags", "message"),
    [
        ("gesvd", {}, "LAPACK routine 'lapack_sgesvd_ffi' is not supported"),
        ("potrf", {"uplo": "N"}, "flag uplo = 'N' is not one of 'L', 'U'"),
    ],
)
@pytest.mark.parametrize("target", target_names())
def test_refused_with_a_located_diagnostic(
    target: str, routine: str, flags: dict[str, str], message: str
):
    text = lapack(routine, "f32", [(3, 3)], [((3, 3), "f32"), ((), "i32")], flags)
    with pytest.raises(XlirError) as error:
        xlir.compile(text, target=target)
    assert message in str(error.value)
    assert "<source>:3:3: error:" in str(error.value)

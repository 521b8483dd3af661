"""Dense linear algebra as loop kernels: `stablehlo.triangular_solve`,
`stablehlo.cholesky` and the LAPACK custom calls JAX emits for `jnp.linalg`
on CPU (dialects/stablehlo/lapack.py).

Each routine is LAPACK's unblocked algorithm written with `loop.for`s whose
bounds follow the triangle they walk (`index` values of the enclosing loops),
inside one `loop.parallel` over the batch (and, for a triangular solve, over
the right-hand sides too, which are independent). Factorizations work in
place: the operand is first copied into the result, and each step reads only
what earlier steps (or earlier iterations of the enclosing loops) wrote, so
the nest may hoist a load out of a loop that does not write it. The
algorithms and their conventions (pivot choice, `info`, the triangle left as
given, the Householder vectors' scaling) are those of the evaluator's
(evaluator/hlo/lapack.py), so the two agree to rounding.

The symmetric eigendecomposition (`syevd`) is the cyclic Jacobi method and
the SVD (`gesdd`) the one-sided (Hestenes) Jacobi method; their singular and
eigenvectors may differ from LAPACK's (and the evaluator's) in sign, as any
two solvers' may.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import MemRefType, i1, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.lapack import (
    LapackCall,
    LapackCallError,
    is_lapack_target,
    lapack_call,
)
from xlir.dialects.stablehlo.linalg import CholeskyOp, Transpose, TriangularSolveOp
from xlir.dialects.stablehlo.types import is_float
from xlir.lowering.index_maps import Indices
from xlir.lowering.kernels.common import KernelBuilder
from xlir.lowering.scalar import UnsupportedScalarOp

Bound = int | SSAValue
Body = Callable[[SSAValue, list[SSAValue]], Sequence[SSAValue]]


def shape(buffer: SSAValue) -> tuple[int, ...]:
    """A kernel buffer's (memref's) shape."""
    return tuple(buffer.type.get_shape())  # type: ignore[attr-defined]


class _Matrices:
    """Scalar code on the matrices of one batch position: loads and stores
    at `[*batch, i, j]`, float arithmetic in `element`, sequential loops."""

    def __init__(self, kb: KernelBuilder, element: Attribute):
        self.kb, self.ix, self.element = kb, kb.ix, element
        self.batch: Indices = []
        self._constants: dict[tuple[str, Attribute], SSAValue] = {}

    def load(self, buffer: SSAValue, *idx: SSAValue) -> SSAValue:
        return self.kb.load(buffer, [*self.batch, *idx])

    def store(self, value: SSAValue, buffer: SSAValue, *idx: SSAValue) -> None:
        self.kb.store(value, buffer, [*self.batch, *idx])

    def const(self, value: float, type_: Attribute | None = None) -> SSAValue:
        key = (repr(float(value)), type_ or self.element)  # -0.0 apart from 0.0
        if key not in self._constants:
            self._constants[key] = self.kb.const(value, key[1])
        return self._constants[key]

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.kb.place(arith.AddfOp(a, b))

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.kb.place(arith.SubfOp(a, b))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.kb.place(arith.MulfOp(a, b))

    def div(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.kb.place(arith.DivfOp(a, b))

    def cmp(self, predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.kb.place(arith.CmpfOp(a, b, predicate))

    def select(self, condition: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.kb.place(arith.SelectOp(condition, a, b))

    def loop(self, lower: Bound, upper: Bound, inits: Sequence[SSAValue], body: Body):
        return self.kb.for_loop(lower, upper, inits, body)

    def dot(self, lower: Bound, upper: Bound, term: Callable[[SSAValue], SSAValue]):
        """The sum of `term(k)` for k from `lower` to `upper`."""
        zero = self.const(0.0)
        return self.loop(
            lower, upper, [zero], lambda k, acc: [self.add(acc[0], term(k))]
        )[0]

    def info_update(self, info: SSAValue, failed: SSAValue, step: SSAValue):
        """LAPACK's `info` (i32) after `step`: the first (1-based) step that
        failed, else 0."""
        clean = self.kb.place(arith.CmpiOp(info, self.const(0, i32), "eq"))
        first = self.kb.place(arith.AndIOp(failed, clean))
        return self.select(first, self.position(step), info)

    def position(self, step: SSAValue) -> SSAValue:
        """A 0-based index as LAPACK's 1-based i32."""
        return self.kb.place(arith.IndexCastOp(self.ix.add(step, 1), i32))

    def each_matrix(self, grid: Sequence[int], body: Callable[[Indices], None]):
        """`body(extra indices)` for every batch position (and every index of
        the extra trailing `grid` dimensions), in one `loop.parallel`."""
        dims = [*self.batch_shape, *grid]
        if not dims:
            body([])
            return

        def at(idx: Indices) -> None:
            self.batch = idx[: len(self.batch_shape)]
            body(idx[len(self.batch_shape) :])

        self.kb.parallel(dims, at)

    batch_shape: tuple[int, ...] = ()


def _matrices(kb: KernelBuilder, value: SSAValue) -> _Matrices:
    element = value.type.get_element_type()  # type: ignore[attr-defined]
    if not is_float(element) or getattr(element, "bitwidth", 0) not in (32, 64):
        raise UnsupportedScalarOp(
            kb.op, f"on {element} is not supported on this target (f32 and f64 are)"
        )
    m = _Matrices(kb, element)
    m.batch_shape = shape(value)[:-2]
    return m


# Triangular solve -----------------------------------------------------------


def _solve(
    kb: KernelBuilder,
    buffers: tuple[SSAValue, SSAValue, SSAValue],
    left_side: bool,
    lower: bool,
    unit: bool,
    transpose: bool,
) -> None:
    """X with op(A) X = B (left side) or X op(A) = B, by substitution: one
    `loop.for` over the unknowns of each right-hand side, every right-hand
    side and batch position in parallel. A right-side solve is the left one
    of the transposes (op(A)^T X^T = B^T)."""
    a, b, x = buffers
    m = _matrices(kb, b)
    rows, columns = shape(b)[-2:]
    size, count = (rows, columns) if left_side else (columns, rows)
    flip = transpose != (not left_side)  # read op(A)'s (i, k) at A's (k, i)
    forward = lower != transpose
    forward = forward if left_side else not forward

    def coefficient(i: SSAValue, k: SSAValue) -> SSAValue:
        return m.load(a, k, i) if flip else m.load(a, i, k)

    def rhs(idx: Indices) -> None:
        (r,) = idx
        ix = m.ix

        def at(i: SSAValue) -> tuple[SSAValue, SSAValue]:
            return (i, r) if left_side else (r, i)

        def step(t: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            i = t if forward else ix.sub(ix.const(size - 1), t)
            lo, hi = (0, i) if forward else (ix.add(i, 1), size)
            known = m.dot(lo, hi, lambda k: m.mul(coefficient(i, k), m.load(x, *at(k))))
            value = m.sub(m.load(b, *at(i)), known)
            if not unit:
                value = m.div(value, coefficient(i, i))
            m.store(value, x, *at(i))
            return []

        m.loop(0, size, [], step)

    m.each_matrix([count], rhs)


def lower_triangular_solve(op: TriangularSolveOp, name: str) -> KernelOp:
    kb = KernelBuilder(op, name)
    a, b = kb.inputs
    (x,) = kb.outputs
    _solve(
        kb,
        (a, b, x),
        bool(op.left_side.value.data),
        bool(op.lower.value.data),
        bool(op.unit_diagonal.value.data),
        op.transpose_a.data != Transpose.NO_TRANSPOSE,
    )
    return kb.finish()


# Cholesky -------------------------------------------------------------------


def _cholesky(m: _Matrices, factor: SSAValue, lower: bool) -> SSAValue:
    """L with A = L L^T column by column (the upper factor is L^T, stored
    transposed) over `factor`, which holds A; the other triangle is left as
    it is. Returns LAPACK's `info` (i32): the first column whose pivot is not
    positive, or 0 (the columns from there on are NaN or garbage, as LAPACK
    leaves them undefined)."""
    size = shape(factor)[-1]

    def at(i: SSAValue, j: SSAValue) -> tuple[SSAValue, SSAValue]:
        return (i, j) if lower else (j, i)

    def column(j: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        (info,) = carried
        square = m.dot(0, j, lambda k: _square(m, m.load(factor, *at(j, k))))
        pivot = m.sub(m.load(factor, *at(j, j)), square)
        failed = m.cmp("ule", pivot, m.const(0.0))  # not positive, or NaN
        diagonal = m.kb.place(math.SqrtOp(pivot))
        m.store(diagonal, factor, *at(j, j))

        def below(i: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            known = m.dot(
                0,
                j,
                lambda k: m.mul(m.load(factor, *at(i, k)), m.load(factor, *at(j, k))),
            )
            value = m.div(m.sub(m.load(factor, *at(i, j)), known), diagonal)
            m.store(value, factor, *at(i, j))
            return []

        m.loop(m.ix.add(j, 1), size, [], below)
        return [m.info_update(info, failed, j)]

    (info,) = m.loop(0, size, [m.const(0, i32)], column)
    return info


def _square(m: _Matrices, value: SSAValue) -> SSAValue:
    return m.mul(value, value)


def lower_cholesky(op: CholeskyOp, name: str) -> KernelOp:
    """`stablehlo.cholesky`: the factor with zeros in the other triangle (as
    the evaluator gives; the spec leaves it implementation-defined)."""
    kb = KernelBuilder(op, name)
    (a,), (factor,) = kb.inputs, kb.outputs
    is_lower = bool(op.lower is not None and op.lower.value.data)
    m = _matrices(kb, a)
    size = shape(a)[-1]

    def copy_triangle(idx: Indices) -> None:
        i, j = idx
        keep = m.ix.cmp("sge" if is_lower else "sle", i, j)
        value = m.select(keep, m.load(a, i, j), m.const(0.0))
        m.store(value, factor, i, j)

    m.each_matrix([size, size], copy_triangle)
    m.each_matrix([], lambda _: _ignore(_cholesky(m, factor, is_lower)))
    return kb.finish()


def _ignore(_: object) -> None:
    """A step whose result (LAPACK's `info`) the op does not give."""


# LAPACK custom calls ----------------------------------------------------------


def _copy(kb: KernelBuilder, source: SSAValue, target: SSAValue) -> None:
    kb.copy(source, target, shape(source))


def _potrf(kb: KernelBuilder, call: LapackCall) -> None:
    (a,), (factor, info) = kb.inputs, kb.outputs
    _copy(kb, a, factor)
    m = _matrices(kb, a)
    lower = call.flag("uplo") == "L"
    m.each_matrix([], lambda _: m.store(_cholesky(m, factor, lower), info))


def _getrf(kb: KernelBuilder, call: LapackCall) -> None:
    """LU with partial pivoting (getf2): for each column, the first row of
    largest magnitude at or below the diagonal (a NaN is never preferred, as
    in BLAS's i?amax) is swapped up, the column below is divided by the
    pivot (unless it is zero: then `info` names the column) and the trailing
    matrix takes the rank-1 update."""
    (a,), (lu, pivots, info) = kb.inputs, kb.outputs
    _copy(kb, a, lu)
    m = _matrices(kb, a)
    rows, columns = call.rows, call.columns
    ix = m.ix

    def column(j: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        (status,) = carried
        first = m.kb.place(math.AbsFOp(m.load(lu, j, j)))

        def search(i: SSAValue, best: list[SSAValue]) -> list[SSAValue]:
            magnitude = m.kb.place(math.AbsFOp(m.load(lu, i, j)))
            larger = m.cmp("ogt", magnitude, best[0])
            return [m.select(larger, magnitude, best[0]), m.select(larger, i, best[1])]

        _, row = m.loop(ix.add(j, 1), rows, [first, j], search)
        m.store(m.position(row), pivots, j)
        pivot = m.load(lu, row, j)

        def swap(c: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            upper, lower = m.load(lu, j, c), m.load(lu, row, c)
            m.store(lower, lu, j, c)
            m.store(upper, lu, row, c)
            return []

        m.loop(0, columns, [], swap)
        zero = m.cmp("oeq", pivot, m.const(0.0))
        divisor = m.select(zero, m.const(1.0), pivot)

        def scale(i: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            m.store(m.div(m.load(lu, i, j), divisor), lu, i, j)
            return []

        m.loop(ix.add(j, 1), rows, [], scale)

        def update(i: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            factor = m.load(lu, i, j)

            def entry(c: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
                value = m.sub(m.load(lu, i, c), m.mul(factor, m.load(lu, j, c)))
                m.store(value, lu, i, c)
                return []

            m.loop(ix.add(j, 1), columns, [], entry)
            return []

        m.loop(ix.add(j, 1), rows, [], update)
        return [m.info_update(status, zero, j)]

    def matrix(_: Indices) -> None:
        (status,) = m.loop(0, min(rows, columns), [m.const(0, i32)], column)
        m.store(status, info)

    m.each_matrix([], matrix)


def _reflect(
    m: _Matrices,
    vectors: SSAValue,
    target: SSAValue,
    j: SSAValue,
    tau: SSAValue,
    span: tuple[Bound, Bound, int],
) -> None:
    """Apply H = I - tau v v^T to rows j.. of `target`'s columns in
    [first, last): v is 1 at row j and `vectors`' column j below it."""
    first, last, rows = span
    ix = m.ix

    def column(c: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
        head = m.load(target, j, c)
        tail = m.dot(
            ix.add(j, 1),
            rows,
            lambda i: m.mul(m.load(vectors, i, j), m.load(target, i, c)),
        )
        weight = m.mul(tau, m.add(head, tail))
        m.store(m.sub(head, weight), target, j, c)

        def row(i: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            change = m.mul(m.load(vectors, i, j), weight)
            m.store(m.sub(m.load(target, i, c), change), target, i, c)
            return []

        m.loop(ix.add(j, 1), rows, [], row)
        return []

    m.loop(first, last, [], column)


def _geqrf(kb: KernelBuilder, call: LapackCall) -> None:
    """Householder QR (geqr2): column j's reflector (larfg: beta = -sign(alpha)
    * |(alpha, x)|, tau = (beta - alpha) / beta, v = x / (alpha - beta); tau =
    0 when x is zero) is stored in place and applied to the columns right of
    it."""
    (a,), (qr, taus) = kb.inputs, kb.outputs
    _copy(kb, a, qr)
    m = _matrices(kb, a)
    rows, columns = call.rows, call.columns
    ix = m.ix

    def column(j: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
        alpha = m.load(qr, j, j)
        below = ix.add(j, 1)
        norm2 = m.dot(below, rows, lambda i: _square(m, m.load(qr, i, j)))
        flat = m.cmp("oeq", norm2, m.const(0.0))
        length = m.kb.place(math.SqrtOp(m.add(_square(m, alpha), norm2)))
        beta = m.kb.place(math.CopySignOp(length, alpha))
        beta = m.sub(m.const(0.0), beta)
        tau = m.select(flat, m.const(0.0), m.div(m.sub(beta, alpha), beta))
        divisor = m.select(flat, m.const(1.0), m.sub(alpha, beta))
        m.store(m.select(flat, alpha, beta), qr, j, j)
        m.store(tau, taus, j)

        def scale(i: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            m.store(m.div(m.load(qr, i, j), divisor), qr, i, j)
            return []

        m.loop(below, rows, [], scale)
        _reflect(m, qr, qr, j, tau, (below, columns, rows))
        return []

    m.each_matrix([], lambda _: _ignore(m.loop(0, min(rows, columns), [], column)))


def _orgqr(kb: KernelBuilder, call: LapackCall) -> None:
    """The first n columns of Q = H_1 ... H_k (org2r): the identity's columns,
    with the reflectors applied last first, each to the columns from its own
    on (the ones left of it are still unit vectors it does not change)."""
    (vectors, taus), (q,) = kb.inputs, kb.outputs
    m = _matrices(kb, vectors)
    rows, columns = call.rows, call.columns
    steps = shape(taus)[-1]
    ix = m.ix

    def identity(idx: Indices) -> None:
        i, j = idx
        one = ix.cmp("eq", i, j)
        m.store(m.select(one, m.const(1.0), m.const(0.0)), q, i, j)

    m.each_matrix([rows, columns], identity)

    def reflector(t: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
        j = ix.sub(ix.const(steps - 1), t)
        _reflect(m, vectors, q, j, m.load(taus, j), (j, columns, rows))
        return []

    m.each_matrix([], lambda _: _ignore(m.loop(0, steps, [], reflector)))


JACOBI_SWEEPS = {32: 12, 64: 16}
"""Sweeps of the Jacobi methods by float width: they converge
quadratically, so these leave the off-diagonal at rounding level for the
matrix sizes JAX programs factor (a converged sweep changes nothing)."""


def _grid(m: _Matrices, dims: Sequence[int], body: Callable[[Indices], None]) -> None:
    """`body(indices)` over `dims` in nested `loop.for`s (inside the batch's
    parallel loop, which a kernel opens once)."""

    def step(idx: Indices, _: list[SSAValue]) -> list[SSAValue]:
        body(idx)
        return []

    _reduce_grid(m, dims, [], step)


def _rotate(
    m: _Matrices,
    buffer: SSAValue,
    pair: tuple[SSAValue, SSAValue],
    rotation: tuple[SSAValue, SSAValue],
    columns: bool,
) -> None:
    """Columns (or rows) p, q of `buffer` := (c x_p - s x_q, s x_p + c x_q)."""
    p, q = pair
    c, s = rotation
    size = shape(buffer)[-2 if columns else -1]

    def at(k: SSAValue, j: SSAValue) -> tuple[SSAValue, SSAValue]:
        return (k, j) if columns else (j, k)

    def element(k: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
        xp, xq = m.load(buffer, *at(k, p)), m.load(buffer, *at(k, q))
        m.store(m.sub(m.mul(c, xp), m.mul(s, xq)), buffer, *at(k, p))
        m.store(m.add(m.mul(s, xp), m.mul(c, xq)), buffer, *at(k, q))
        return []

    m.loop(0, size, [], element)


def _swap_columns(m: _Matrices, buffer: SSAValue, i: SSAValue, j: SSAValue) -> None:
    def element(k: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
        left, right = m.load(buffer, k, i), m.load(buffer, k, j)
        m.store(right, buffer, k, i)
        m.store(left, buffer, k, j)
        return []

    m.loop(0, shape(buffer)[-2], [], element)


def _jacobi_rotation(
    m: _Matrices, difference: SSAValue, coupling: SSAValue
) -> tuple[SSAValue, SSAValue]:
    """(c, s) of the rotation that zeroes `coupling` (Rutishauser's: theta =
    difference / (2 coupling), t = sign(theta) / (|theta| + sqrt(theta^2 +
    1)), c = 1 / sqrt(t^2 + 1), s = t c); the identity when it is zero."""
    one = m.const(1.0)
    theta = m.div(difference, m.add(coupling, coupling))
    root = m.kb.place(math.SqrtOp(m.add(_square(m, theta), one)))
    magnitude = m.add(m.kb.place(math.AbsFOp(theta)), root)
    sign = m.kb.place(math.CopySignOp(one, theta))
    rotating = m.cmp("une", coupling, m.const(0.0))
    t = m.select(rotating, m.div(sign, magnitude), m.const(0.0))
    c = m.div(one, m.kb.place(math.SqrtOp(m.add(_square(m, t), one))))
    return c, m.mul(t, c)


def _sort_columns(
    m: _Matrices, values: SSAValue, moved: Sequence[SSAValue], ascending: bool
) -> None:
    """Selection sort of `values` (first of equals stays first), swapping the
    columns of the `moved` buffers with them."""
    n = shape(values)[-1]
    order = "olt" if ascending else "ogt"

    def place(i: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
        first = m.load(values, i)

        def search(j: SSAValue, best: list[SSAValue]) -> list[SSAValue]:
            value = m.load(values, j)
            better = m.cmp(order, value, best[0])
            return [m.select(better, value, best[0]), m.select(better, j, best[1])]

        chosen, at = m.loop(m.ix.add(i, 1), n, [first, i], search)
        m.store(first, values, at)
        m.store(chosen, values, i)
        for buffer in moved:
            _swap_columns(m, buffer, i, at)
        return []

    m.loop(0, n, [], place)


def _finite(m: _Matrices, value: SSAValue, finite: SSAValue) -> SSAValue:
    """`finite` and whether `value` is neither NaN nor inf."""
    difference = m.sub(value, value)  # NaN for NaN and inf
    ordered = m.cmp("ord", difference, difference)
    return m.kb.place(arith.AndIOp(finite, ordered))


def _poison(
    m: _Matrices, finite: SSAValue, buffers: Sequence[SSAValue], info: SSAValue
) -> None:
    """NaN in every element of `buffers` and `info` 1 unless `finite`."""
    nan = m.const(float("nan"))
    for buffer in buffers:
        dims = shape(buffer)[len(m.batch_shape) :]

        def entry(idx: Indices, buffer: SSAValue = buffer) -> None:
            m.store(m.select(finite, m.load(buffer, *idx), nan), buffer, *idx)

        _grid(m, dims, entry)
    failed = m.kb.place(arith.XOrIOp(finite, m.kb.const(1, i1)))
    m.store(m.kb.place(arith.ExtUIOp(failed, i32)), info)


def _syevd(kb: KernelBuilder, call: LapackCall) -> None:
    """Symmetric eigendecomposition by the cyclic Jacobi method: the matrix
    (from its `uplo` triangle) is copied to scratch and rotated pair by pair
    (p < q) to diagonal form, each rotation zeroing a_pq and accumulated into
    the eigenvectors; then the eigenvalues are sorted ascending, moving the
    vectors with them. A matrix with NaN or inf gives NaN and `info` 1 (the
    evaluator's convention)."""
    (a,), (vectors, values, info) = kb.inputs, kb.outputs
    (work,) = kb.scratch([vectors.type])
    m = _matrices(kb, a)
    n = call.rows
    lower = call.flag("uplo") == "L"
    sweeps = JACOBI_SWEEPS[call.element.bitwidth]  # type: ignore[attr-defined]
    ix = m.ix

    def copy_row(i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        def entry(j: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
            stored = ix.cmp("sge" if lower else "sle", i, j)
            value = m.select(stored, m.load(a, i, j), m.load(a, j, i))
            m.store(value, work, i, j)
            one = ix.cmp("eq", i, j)
            m.store(m.select(one, m.const(1.0), m.const(0.0)), vectors, i, j)
            return [_finite(m, value, carried[0])]

        return m.loop(0, n, carried, entry)

    def pair(p: SSAValue, q: SSAValue) -> list[SSAValue]:
        app = kb.load_in_place(work, [*m.batch, p, p])  # rotated for each q
        aqq, apq = m.load(work, q, q), m.load(work, p, q)
        rotation = _jacobi_rotation(m, m.sub(aqq, app), apq)
        _rotate(m, work, (p, q), rotation, columns=True)
        _rotate(m, work, (p, q), rotation, columns=False)
        _rotate(m, vectors, (p, q), rotation, columns=True)
        return []

    def sweep(_: SSAValue, __: list[SSAValue]) -> list[SSAValue]:
        def row(p: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            return m.loop(ix.add(p, 1), n, [], lambda q, _: pair(p, q))

        return m.loop(0, n, [], row)

    def diagonal(i: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
        m.store(m.load(work, i, i), values, i)
        return []

    def matrix(_: Indices) -> None:
        (finite,) = m.loop(0, n, [kb.const(1, i1)], copy_row)
        m.loop(0, sweeps, [], sweep)
        m.loop(0, n, [], diagonal)
        _sort_columns(m, values, [vectors], ascending=True)
        _poison(m, finite, [vectors, values], info)

    m.each_matrix([], matrix)


def _complete(m: _Matrices, basis: SSAValue, transposed: bool) -> None:
    """Fill each zero column (row, if `transposed`) of `basis`, whose other
    columns are orthonormal, with a unit vector orthogonal to them: e_k less
    its projection, for the k the columns cover least (its residual has norm
    at least sqrt((rows - columns) / rows), so one Gram-Schmidt step is
    accurate). A column that needs nothing costs two norms: the other loops'
    trip counts are 0."""
    rows, columns = shape(basis)[-2:]
    if transposed:
        rows, columns = columns, rows
    ix = m.ix

    def at(i: SSAValue, c: SSAValue) -> tuple[SSAValue, SSAValue]:
        return (c, i) if transposed else (i, c)

    def norm2(c: SSAValue) -> SSAValue:
        return m.dot(0, rows, lambda i: _square(m, m.load(basis, *at(i, c))))

    def column(j: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
        empty = m.cmp("olt", norm2(j), m.const(0.5))
        span = m.kb.place(arith.SelectOp(empty, ix.const(rows), ix.const(0)))

        def candidate(k: SSAValue, best: list[SSAValue]) -> list[SSAValue]:
            covered = m.dot(0, columns, lambda c: _square(m, m.load(basis, *at(k, c))))
            less = m.cmp("olt", covered, best[0])
            return [m.select(less, covered, best[0]), m.select(less, k, best[1])]

        k = m.loop(0, span, [m.const(float("inf")), ix.const(0)], candidate)[1]

        def residual(i: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            unit = m.select(ix.cmp("eq", i, k), m.const(1.0), m.const(0.0))
            projection = m.dot(
                0,
                columns,
                lambda c: m.mul(m.load(basis, *at(i, c)), m.load(basis, *at(k, c))),
            )
            m.store(m.sub(unit, projection), basis, *at(i, j))
            return []

        m.loop(0, span, [], residual)
        length = m.kb.place(math.SqrtOp(norm2(j)))

        def normalize(i: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            m.store(m.div(m.load(basis, *at(i, j)), length), basis, *at(i, j))
            return []

        m.loop(0, span, [], normalize)
        return []

    m.loop(0, columns, [], column)


def _gesdd(kb: KernelBuilder, call: LapackCall) -> None:
    """SVD by one-sided Jacobi (Hestenes): the columns of W = A (A^T when A
    is wide) are rotated pairwise until orthogonal, the rotations accumulated
    in Q; the singular values are W's column norms, sorted descending with
    W's and Q's columns; W's normalized columns are the left (right, when
    wide) singular vectors and Q the others. Singular vectors of a zero
    singular value, and the extra ones of the full (`A`) mode, complete the
    orthonormal bases (`_complete`). A matrix with NaN or inf gives NaN and
    `info` 1, and the first result is the operand, as the evaluator gives."""
    (a,), (copy, values, left, right, info) = kb.inputs, kb.outputs
    m = _matrices(kb, a)
    rows, columns = call.rows, call.columns
    wide = rows < columns
    tall_rows, rank = max(rows, columns), min(rows, columns)
    batch = list(m.batch_shape)
    work, rotations = kb.scratch(
        [
            MemRefType(m.element, [*batch, tall_rows, rank]),
            MemRefType(m.element, [*batch, rank, rank]),
        ]
    )
    sweeps = JACOBI_SWEEPS[call.element.bitwidth]  # type: ignore[attr-defined]
    ix = m.ix
    _copy(kb, a, copy)

    def fill(idx: Indices, carried: list[SSAValue]) -> list[SSAValue]:
        i, j = idx
        value = m.load(a, j, i) if wide else m.load(a, i, j)
        m.store(value, work, i, j)
        return [_finite(m, value, carried[0])]

    def pair(p: SSAValue, q: SSAValue) -> list[SSAValue]:
        def sums(i: SSAValue, acc: list[SSAValue]) -> list[SSAValue]:
            wp, wq = m.load(work, i, p), m.load(work, i, q)
            return [
                m.add(acc[0], _square(m, wp)),
                m.add(acc[1], _square(m, wq)),
                m.add(acc[2], m.mul(wp, wq)),
            ]

        zero = m.const(0.0)
        alpha, beta, gamma = m.loop(0, tall_rows, [zero, zero, zero], sums)
        rotation = _jacobi_rotation(m, m.sub(beta, alpha), gamma)
        _rotate(m, work, (p, q), rotation, columns=True)
        _rotate(m, rotations, (p, q), rotation, columns=True)
        return []

    def sweep(_: SSAValue, __: list[SSAValue]) -> list[SSAValue]:
        def row(p: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
            return m.loop(ix.add(p, 1), rank, [], lambda q, _: pair(p, q))

        return m.loop(0, rank, [], row)

    def singular_value(j: SSAValue, _: list[SSAValue]) -> list[SSAValue]:
        norm2 = m.dot(0, tall_rows, lambda i: _square(m, m.load(work, i, j)))
        m.store(m.kb.place(math.SqrtOp(norm2)), values, j)
        return []

    def write(idx: Indices) -> None:
        """Both bases from W (normalized) and Q; zeros where completed."""
        i, c = idx
        sigma = m.load(values, c)
        scale = m.select(m.cmp("ogt", sigma, m.const(0.0)), sigma, m.const(1.0))
        m.store(m.div(m.load(work, i, c), scale), work, i, c)

    def matrix(_: Indices) -> None:
        (finite,) = _reduce_grid(m, [tall_rows, rank], [kb.const(1, i1)], fill)
        _grid(m, [rank, rank], lambda idx: _identity(m, rotations, idx))
        m.loop(0, sweeps, [], sweep)
        m.loop(0, rank, [], singular_value)
        _sort_columns(m, values, [work, rotations], ascending=False)
        _grid(m, [tall_rows, rank], write)
        vectors, others = (right, left) if wide else (left, right)
        # The tall side's basis: W's columns, then zeros to complete.
        width = shape(vectors)[-2 if wide else -1]

        def from_work(idx: Indices) -> None:
            i, c = idx
            inside = ix.cmp("slt", c, rank)
            value = m.load(work, i, ix.clamp(c, 0, rank - 1))
            at = (c, i) if wide else (i, c)
            m.store(m.select(inside, value, m.const(0.0)), vectors, *at)

        _grid(m, [tall_rows, width], from_work)
        _complete(m, vectors, transposed=wide)

        # The other side: Q (U = Q when wide, V^T = Q^T when tall).
        def from_rotations(idx: Indices) -> None:
            i, c = idx
            at = (i, c) if wide else (c, i)
            m.store(m.load(rotations, i, c), others, *at)

        _grid(m, [rank, rank], from_rotations)
        _poison(m, finite, [values, left, right], info)

    m.each_matrix([], matrix)


def _identity(m: _Matrices, buffer: SSAValue, idx: Indices) -> None:
    i, j = idx
    one = m.ix.cmp("eq", i, j)
    m.store(m.select(one, m.const(1.0), m.const(0.0)), buffer, i, j)


def _reduce_grid(
    m: _Matrices,
    dims: Sequence[int],
    inits: Sequence[SSAValue],
    body: Callable[[Indices, list[SSAValue]], list[SSAValue]],
) -> list[SSAValue]:
    """`body(indices, carried)` over `dims` in nested `loop.for`s carrying
    values through all of them."""

    def level(done: Indices, carried: list[SSAValue]) -> list[SSAValue]:
        if len(done) == len(dims):
            return body(done, carried)
        return m.loop(0, dims[len(done)], carried, lambda i, c: level([*done, i], c))

    return level([], list(inits))


_ROUTINES: dict[str, Callable[[KernelBuilder, LapackCall], None]] = {
    "potrf": _potrf,
    "getrf": _getrf,
    "trsm": lambda kb, call: _solve(
        kb,
        (kb.inputs[0], kb.inputs[1], kb.outputs[0]),
        call.flag("side") == "L",
        call.flag("uplo") == "L",
        call.flag("diag") == "U",
        call.flag("trans_x") != "N",
    ),
    "geqrf": _geqrf,
    "orgqr": _orgqr,
    "syevd": _syevd,
    "gesdd": _gesdd,
}


def lower_custom_call(op: Operation, name: str) -> KernelOp:
    """A LAPACK custom call's kernel; any other target is refused."""
    target = op.properties["call_target_name"]
    target = str(getattr(target, "data", target))
    if not is_lapack_target(target):
        raise UnsupportedScalarOp(
            op, f"custom call target '{target}' is not supported on this target"
        )
    try:
        call = lapack_call(op)
    except LapackCallError as error:
        raise UnsupportedScalarOp(op, str(error)) from None
    routine = _ROUTINES.get(call.routine)
    if routine is None:
        raise UnsupportedScalarOp(
            op, f"{target} ({call.routine}) has no loop kernel on this target yet"
        )
    kb = KernelBuilder(op, name)
    routine(kb, call)
    return kb.finish()


KERNELS = {
    "stablehlo.triangular_solve": lower_triangular_solve,
    "stablehlo.cholesky": lower_cholesky,
    "stablehlo.custom_call": lower_custom_call,
}

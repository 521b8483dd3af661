"""`hlo.fft` (stablehlo.fft on real and imaginary parts) as one kernel.

The transform works on a complex buffer W of the full transform shape
(the batch dimensions, then `length`): the results themselves for FFT and
IFFT, scratch for RFFT (filled with the real input and zero imaginary
parts) and IRFFT (filled with the full spectrum, the half given and its
Hermitian mirror `W[-k] = conj(X[k])`). W is transformed in place along
each transform axis, one `loop.parallel` over its lines per axis; RFFT
then keeps the first n/2 + 1 columns, IRFFT the real parts (what numpy's
c2r transform gives: the imaginary parts of X[0] and X[n/2] drop out).

A line of power-of-two length n is an iterative radix-2 transform: the
elements swapped into bit-reversed order, then log2(n) stages of
butterflies, each stage a `loop.parallel` over its n/2 independent pairs.
Any other length is Bluestein's: with the chirp c_j = e^(-i pi j^2 / n),
X_k = c_k sum_j (x_j c_j) conj(c_(k-j)), a convolution computed by radix-2
transforms of length m >= 2n - 1 (the filter's transform once per kernel,
in scratch, then two per line). Twiddle factors and chirps are tables
(`loop.global`s) computed in f64 when the kernel is built, and rounded to
the element type; the inverse transform uses their conjugates and scales
by 1/n per axis, as numpy does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    FunctionType,
    IndexType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xlir.dialects.hlo import FftOp
from xlir.dialects.loop.globals import GetGlobalOp, GlobalOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.stablehlo.linalg import FftType
from xlir.lowering.fusion_to_loop import buffer_type
from xlir.lowering.index_maps import Indices, shape
from xlir.lowering.kernels.common import KernelBuilder
from xlir.passes.hlo.simplify_patterns.constants import dense_from_numpy

Pair = tuple[SSAValue, SSAValue]
"""Two buffers (real parts, imaginary parts), or two scalars."""


class _FftKernel:
    def __init__(self, op: FftOp, name: str):
        self.op = op
        self.name = name
        self.kb = KernelBuilder(op, name)
        self.globals: list[GlobalOp] = []
        element = op.inputs.types[0]
        assert isinstance(element, TensorType)
        part = element.get_element_type()
        assert isinstance(part, AnyFloat)
        self.element: AnyFloat = part
        self.inverse = op.kind in (FftType.IFFT, FftType.IRFFT)
        self.tables: dict[tuple[str, int], SSAValue] = {}

    # --- scalars -------------------------------------------------------------

    def f(self, op_type: type, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.kb.place(op_type(a, b))

    def cmul(self, x: Pair, y: Pair) -> Pair:
        (a, b), (c, d) = x, y
        mul, add, sub = arith.MulfOp, arith.AddfOp, arith.SubfOp
        return (
            self.f(sub, self.f(mul, a, c), self.f(mul, b, d)),
            self.f(add, self.f(mul, a, d), self.f(mul, b, c)),
        )

    def load(self, buffers: Pair, at: Indices) -> Pair:
        return self.kb.load(buffers[0], at), self.kb.load(buffers[1], at)

    def store(self, value: Pair, buffers: Pair, at: Indices) -> None:
        self.kb.store(value[0], buffers[0], at)
        self.kb.store(value[1], buffers[1], at)

    def const(self, value: float) -> SSAValue:
        return self.kb.const(value, self.element)

    def scale(self, value: Pair, factor: float) -> Pair:
        k = self.const(factor)
        return self.f(arith.MulfOp, value[0], k), self.f(arith.MulfOp, value[1], k)

    # --- buffers and tables --------------------------------------------------

    def scratch(self, sizes: Sequence[int]) -> Pair:
        """Two more kernel arguments of `sizes` (the host allocates them)."""
        block = self.kb.kernel.body.block
        type_ = buffer_type(TensorType(self.element, list(sizes)))
        pair = (
            block.insert_arg(type_, len(block.args)),
            block.insert_arg(type_, len(block.args)),
        )
        self.kb.kernel.function_type = FunctionType.from_lists(
            [arg.type for arg in block.args], []
        )
        return pair

    def table(self, kind: str, values: np.ndarray) -> SSAValue:
        """A `loop.global` holding `values` (one per kind and size)."""
        key = (kind, len(values))
        if key not in self.tables:
            if values.dtype.kind == "f":
                element: Attribute = self.element
                values = values.astype(
                    np.float64 if self.element.bitwidth == 64 else np.float32
                )
            else:
                element = i64
            type_ = TensorType(element, [len(values)])
            name = f"{self.name}_{kind}_{len(values)}"
            dense = dense_from_numpy(values, type_)
            global_op = GlobalOp(name, dense)
            self.globals.append(global_op)
            self.tables[key] = self.kb.place(GetGlobalOp(name, global_op.buffer_type))
        return self.tables[key]

    def table_pair(self, kind: str, values: np.ndarray, index: SSAValue) -> Pair:
        """Entry `index` of a complex table (conjugated for the inverse)."""
        re = self.kb.load(self.table(f"{kind}_re", np.real(values).copy()), [index])
        im = self.kb.load(self.table(f"{kind}_im", np.imag(values).copy()), [index])
        return re, im

    def index_entry(self, kind: str, values: np.ndarray, index: SSAValue) -> SSAValue:
        entry = self.kb.load(self.table(kind, values), [index])
        return self.kb.place(arith.IndexCastOp(entry, IndexType()))

    # --- the transform -------------------------------------------------------

    def build(self) -> tuple[KernelOp, list[GlobalOp]]:
        op, kb = self.op, self.kb
        length = list(op.length)
        batch = list(shape(op.inputs[0])[: -len(length)])
        full = batch + length
        if op.kind in (FftType.FFT, FftType.IFFT):
            work = (kb.outputs[0], kb.outputs[1])
            kb.parallel(
                full,
                lambda i: self.store(
                    self.load((kb.inputs[0], kb.inputs[1]), i), work, i
                ),
            )
        else:
            work = self.scratch(full)
            if op.kind == FftType.RFFT:
                zero = self.const(0.0)
                kb.parallel(
                    full,
                    lambda i: self.store((kb.load(kb.inputs[0], i), zero), work, i),
                )
            else:
                kb.parallel(full, lambda i: self.mirror(work, i, batch, length))
        for axis in range(len(batch), len(full)):
            self.transform_axis(work, full, axis)
        if op.kind == FftType.RFFT:
            kept = [*full[:-1], length[-1] // 2 + 1]
            kb.parallel(
                kept,
                lambda i: self.store(
                    self.load(work, i), (kb.outputs[0], kb.outputs[1]), i
                ),
            )
        elif op.kind == FftType.IRFFT:
            kb.copy(work[0], kb.outputs[0], full)
        return kb.finish(), self.globals

    def mirror(
        self, work: Pair, idx: Indices, batch: list[int], length: list[int]
    ) -> None:
        """W[i] = X[i] in the given half, conj(X[-i]) in the other."""
        ix, kb = self.kb.ix, self.kb
        n = length[-1]
        last = idx[-1]
        given = ix.cmp("sle", last, n // 2)
        mirrored_last = ix.sub(ix.const(n), last)
        at = list(idx[: len(batch)])
        for axis, size in enumerate(length[:-1]):
            i = idx[len(batch) + axis]
            flipped = kb.place(
                arith.SelectOp(ix.cmp("eq", i, 0), i, ix.sub(ix.const(size), i))
            )
            at.append(kb.place(arith.SelectOp(given, i, flipped)))
        at.append(
            kb.place(arith.SelectOp(given, last, ix.clamp(mirrored_last, 0, n // 2)))
        )
        re, im = self.load((kb.inputs[0], kb.inputs[1]), at)
        negated = kb.place(arith.NegfOp(im))
        self.store((re, kb.place(arith.SelectOp(given, im, negated))), work, idx)

    def transform_axis(self, work: Pair, full: list[int], axis: int) -> None:
        """The 1-D transform of every line of W along `axis`."""
        n = full[axis]
        grid = list(full)
        grid[axis] = 1
        if n & (n - 1) == 0:

            def line(idx: Indices) -> None:
                at = _line(idx, axis)
                self.radix2(work, at, n)
                if self.inverse and n > 1:
                    self.kb.parallel(
                        [n],
                        lambda j: self.store(
                            self.scale(self.load(work, at(j[0])), 1.0 / n),
                            work,
                            at(j[0]),
                        ),
                    )

            self.kb.parallel(grid, line)
            return
        self.bluestein(work, full, axis, grid)

    def radix2(self, buffers: Pair, at: Callable[[SSAValue], Indices], n: int) -> None:
        """In place, unnormalized: bit-reversal swaps, then the butterflies."""
        if n == 1:
            return
        kb, ix = self.kb, self.kb.ix
        bits = n.bit_length() - 1
        reversed_ = np.array(
            [int(f"{j:0{bits}b}"[::-1], 2) for j in range(n)], np.int64
        )

        def swap(j: list[SSAValue]) -> None:
            r = self.index_entry("bit_reversed", reversed_, j[0])
            a, b = self.load(buffers, at(j[0])), self.load(buffers, at(r))
            first = ix.cmp("slt", j[0], r)
            pick = lambda x, y: kb.place(arith.SelectOp(first, x, y))  # noqa: E731
            self.store((pick(b[0], a[0]), pick(b[1], a[1])), buffers, at(j[0]))
            self.store((pick(a[0], b[0]), pick(a[1], b[1])), buffers, at(r))

        def no_carry(j: list[SSAValue], carried: list[SSAValue]) -> list[SSAValue]:
            swap(j)
            return []

        kb.nest.for_nest([n], [], no_carry)
        twiddles = unit_roots(np.arange(n // 2), n, self.inverse)
        half = 1
        while half < n:

            def butterfly(idx: Indices, half: int = half) -> None:
                group, k = idx
                i = ix.add(ix.mul(group, 2 * half), k)
                j = ix.add(i, half)
                w = self.table_pair(
                    "inverse_twiddle" if self.inverse else "twiddle",
                    twiddles,
                    ix.mul(k, n // (2 * half)),
                )
                top, bottom = self.load(buffers, at(i)), self.load(buffers, at(j))
                t = self.cmul(w, bottom)
                add, sub = arith.AddfOp, arith.SubfOp
                self.store(
                    (self.f(add, top[0], t[0]), self.f(add, top[1], t[1])),
                    buffers,
                    at(i),
                )
                self.store(
                    (self.f(sub, top[0], t[0]), self.f(sub, top[1], t[1])),
                    buffers,
                    at(j),
                )

            kb.parallel([n // (2 * half), half], butterfly)
            half *= 2

    def bluestein(
        self, work: Pair, full: list[int], axis: int, grid: list[int]
    ) -> None:
        """Any length n as a circular convolution of length m (a power of
        two at least 2n - 1) with the chirp."""
        kb, ix = self.kb, self.kb.ix
        n = full[axis]
        m = 1 << (2 * n - 2).bit_length()
        squares = np.array([(j * j) % (2 * n) for j in range(n)], dtype=np.int64)
        chirp = unit_roots(squares, 2 * n, self.inverse)
        kind = "inverse_chirp" if self.inverse else "chirp"
        # the filter: b_j = conj(c_|j|) for |j| < n (indices mod m), transformed
        filter_ = self.scratch([m])

        def fill_filter(idx: Indices) -> None:
            j = idx[0]
            mirrored = ix.sub(ix.const(m), j)
            near = ix.cmp("slt", j, n)
            far = ix.cmp("sgt", j, m - n)
            source = kb.place(arith.SelectOp(near, j, ix.clamp(mirrored, 0, n - 1)))
            re, im = self.table_pair(kind, chirp, ix.clamp(source, 0, n - 1))
            inside = kb.place(arith.OrIOp(near, far))
            zero = self.const(0.0)
            value = (
                kb.place(arith.SelectOp(inside, re, zero)),
                kb.place(arith.SelectOp(inside, kb.place(arith.NegfOp(im)), zero)),
            )
            self.store(value, filter_, [j])

        kb.parallel([m], fill_filter)
        self.inverse, inverse = False, self.inverse
        self.radix2(filter_, lambda j: [j], m)
        self.inverse = inverse
        padded = list(full)
        padded[axis] = m
        line_scratch = self.scratch(padded)

        def line(idx: Indices) -> None:
            at = _line(idx, axis)

            def chirped(j: list[SSAValue]) -> None:
                inside = ix.cmp("slt", j[0], n)
                x = self.load(work, at(ix.clamp(j[0], 0, n - 1)))
                c = self.table_pair(kind, chirp, ix.clamp(j[0], 0, n - 1))
                product = self.cmul(x, c)
                zero = self.const(0.0)
                value = (
                    kb.place(arith.SelectOp(inside, product[0], zero)),
                    kb.place(arith.SelectOp(inside, product[1], zero)),
                )
                self.store(value, line_scratch, at(j[0]))

            kb.parallel([m], chirped)
            self.inverse, inverse = False, self.inverse
            self.radix2(line_scratch, at, m)
            kb.parallel(
                [m],
                lambda j: self.store(
                    self.cmul(
                        self.load(line_scratch, at(j[0])), self.load(filter_, [j[0]])
                    ),
                    line_scratch,
                    at(j[0]),
                ),
            )
            self.inverse = True
            self.radix2(line_scratch, at, m)
            self.inverse = inverse
            factor = 1.0 / m / (n if inverse else 1)

            def finish(k: list[SSAValue]) -> None:
                c = self.table_pair(kind, chirp, k[0])
                value = self.cmul(self.load(line_scratch, at(k[0])), c)
                self.store(self.scale(value, factor), work, at(k[0]))

            kb.parallel([n], finish)

        kb.parallel(grid, line)


def unit_roots(steps: np.ndarray, order: int, inverse: bool) -> np.ndarray:
    """e^(∓2 pi i t / order) for each t of `steps` (+ for the inverse), in
    f64: the angle is taken to the first half quadrant, where cos and sin
    are accurate, and rotated back exactly, so quarter turns give exact 0
    and ±1 and the roots are symmetric."""
    roots = np.empty(len(steps), dtype=np.complex128)
    for index, step in enumerate(steps.tolist()):
        quarter, rest = divmod(4 * int(step) % (4 * order), order)
        if 2 * rest <= order:  # angle (pi / 2) rest / order, up to pi / 4
            angle = math.pi / 2 * rest / order
            re, im = math.cos(angle), math.sin(angle)
        else:  # the complement of (pi / 2) (order - rest) / order
            angle = math.pi / 2 * (order - rest) / order
            re, im = math.sin(angle), math.cos(angle)
        for _ in range(quarter):  # times i
            re, im = -im, re
        roots[index] = complex(re + 0.0, (im if inverse else -im) + 0.0)  # no -0.0
    return roots


def _line(idx: Indices, axis: int) -> Callable[[SSAValue], Indices]:
    """The indices of element `j` of the line through `idx` along `axis`."""

    def at(j: SSAValue) -> Indices:
        moved = list(idx)
        moved[axis] = j
        return moved

    return at


def lower_fft(op: FftOp, name: str) -> tuple[KernelOp, list[GlobalOp]]:
    return _FftKernel(op, name).build()


KERNELS = {"hlo.fft": lower_fft}

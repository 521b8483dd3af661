"""Random valid StableHLO programs, seeded and deterministic.

`generate(seed)` builds a `Program` over the ops and element types every
target runs: elementwise ops (float, integer and i1), compare, select,
clamp, convert, constant, iota, broadcast_in_dim, reshape (the three now
and then as dynamic_iota, dynamic_broadcast_in_dim and dynamic_reshape of
a constant shape, and get_dimension_size: shape-polymorphic exports'),
map, optimization_barrier, transpose,
reverse, slice with strides, pad (negative and interior padding),
concatenate, reduce over any dimensions, JAX's argmax and argmin (a reduce
of values and their iota), reduce_window (padding, strides, base and window
dilations), dot_general with batch, contracting and free dimensions in any
order (now and then a matmul of JAX's shapes sized for the GEMM routine),
convolution (operands and result in any layout, strides, padding,
lhs and rhs dilation, window reversal, feature or batch groups), both
sometimes summing narrow operands into a wider result type, gather and
scatter (of rows, some at constant distinct rows in order that say so,
`indices_are_sorted` and `unique_indices`; of windows at points of one or
two coordinates; and of those in each member of a batch, batching dims),
dynamic_slice and dynamic_update_slice (indices of any integer type and any
value: they are clamped), sort (by one key or two, argsorts unstable; now
and then rows longer than the sort routine sorts by insertion),
chlo.top_k, select_and_scatter (JAX's max pooling gradient),
bitcast_convert (float and integer of one width, both ways),
reduce_precision, rng_bit_generator (THREE_FRY and PHILOX), calls of
private functions (one calling another, two results), and while, case and
if with carried values (one value yielded into two slots included; trip
counts that depend on data: a bound the condition captures, a carried
integer's extreme), and JAX's scan (a while loop reading and writing rows at its
counter with dynamic_slice and dynamic_update_slice). Shapes now and then
have a zero-sized dimension, or one of 8 to 33 elements (past vector widths
and tiles). The same seed gives the same text.

The elementwise mode (`generate(seed, elements=("f8E4M3FN",))`) draws over
every element type but complex and quantized ones (the float8, float6 and
float4 types and 2- and 4-bit integers too, `program.ALL_ELEMENT_TYPES`),
favouring the given ones, only elementwise ops, compare, select, clamp,
convert, bitcast_convert, reduce_precision and constants, and of the float ops only those the spec defines to
the bit (no transcendental functions), so that targets must agree with the
evaluator exactly (`differential.check(exact=True)`).

Behaviour the StableHLO spec leaves open but XLA defines, and xlir with it
(`evaluator/hlo/elementwise.py`, `lowering/scalar.py`), is generated as it
comes now and then, and guarded the rest of the time (the two bullets
below): integer divide and remainder by zero (`x / 0` all ones, `x % 0`
`x`) and of the smallest signed value by -1 (itself, and 0), 3 in 10;
float-to-integer converts of NaN (0) and of values out of range
(saturating), and integer-to-integer converts the destination cannot hold
(wrapping), 3 in 10 converts to an integer type.

Behaviour the StableHLO spec leaves implementation-defined (or "TBD") is
kept out by construction, so that any difference between targets is a bug:

* integer divide and remainder by zero, and of the smallest signed value by
  -1, but where XLA's definition is tested (above): the divisor goes
  through a select that replaces those cases by 1;
* float-to-integer convert of NaN or of a value out of the destination's
  range, likewise: the operand is clamped into a range both types hold and
  NaN replaced by 0; integer-to-integer convert of a value the destination
  cannot hold: the operand is clamped to the destination's range first;
* integer power with a negative exponent: the exponent is masked to 0..7
  (to the type's largest value where that is smaller);
* reduce with an init value that is not the combiner's identity, or a
  combiner that is not associative: inits are always the identity, and the
  combiners are add, multiply (integers only), maximum, minimum, and, or;
* the order of the terms of float sums and dot products, where it decides
  whether the result overflows or how much of it cancels: finite terms and
  factors are clamped to `SUM_BOUNDS` / `PRODUCT_BOUNDS` first (inf and NaN
  go through), and the terms of one sum are all of one sign (magnitudes,
  negated or not), whose sum is within a few ulps in any order;
* the order of equal keys in an unstable sort, and comparators that are not
  strict weak orders (LT on NaN): sorts are stable, or break ties with an
  iota, and compare floats with TOTALORDER (top_k's order is TOTALORDER's
  too);
* the bits of a float an op rounds or computes as NaN: a float is bitcast
  to an integer only where it is not approximated, its NaNs made canonical;
* the order in which an argmax combines elements, where two NaNs meet (the
  combiner keeps its first operand's index): the evaluator, XLA and the
  targets combine in index order, so the first NaN's index is the answer;
* the sign and payload of a NaN an operation computes (IEEE 754 leaves them
  open; -0/0 gives -NaN on one target and +NaN on another), which TOTALORDER
  tells apart: its compares and sorts read their float operands with every
  NaN replaced by one canonical NaN;
* the same sign in the float types without NaN (`NAN_FREE_FLOATS`), where a
  computed NaN becomes a zero of the opposite sign: their divisors are
  replaced by 1 where zero, they take no sqrt, and a convert to one has NaN
  replaced by 0 first;
* scatter with indices out of bounds, and the order in which updates to one
  element combine: indices are clamped into bounds, and combiners are
  max/min (exact in any order) for floats, add/max/min for integers;
* the product of an infinity or NaN of a convolution's rhs with the zeros it
  pads or dilates its lhs with: NaN as the spec computes it, but XLA skips
  those products: a convolution that pads or dilates its lhs has its rhs's
  inf and NaN made 0; and XLA's products of one group's lhs with another's
  kernel (zeros of the dense kernel it makes of a grouped one, NaN where
  the lhs is inf; the spec has no such products): a grouped convolution
  has its lhs's inf and NaN made 0, and with batch groups its rhs's too
  (XLA spreads one group's kernel NaN into every group's results);
* the sign of a zero that a float sum or dot product computes from zero
  terms (+0 or -0 by the order of accumulation and where it starts): the
  results of float add reductions, add reduce_windows, dot_generals and
  convolutions have their zeros replaced by +0;
* chaos: a loop that applies ops with rounding error of their own
  (transcendental functions, power, atan2) grows ulp differences between
  targets, each within tolerance, into different answers: while bodies
  apply only the float ops IEEE 754 fixes to the bit (`EXACT_FLOAT_UNARY`,
  `EXACT_FLOAT_BINARY`; before and after a loop every op is used);
* the rounding of reductions, dot_general and transcendental functions: the
  differential test compares floats within a tolerance per element type
  (`differential.TOLERANCES`), NaN positions exactly; the sign of a zero
  result is not compared. A value that carries such rounding (approximated:
  the result of an `APPROXIMATED` op or of a float sum, and everything
  computed from one) never reaches an op whose result jumps between
  neighbouring operands, where an ulp becomes a different answer: compare,
  sort keys, float-to-integer convert, floor, ceil, round, sign, remainder;
  nor sine, cosine or tan, which an ulp of a large operand turns as much;
  nor a convert to a float type of more significand bits, whose tighter
  tolerance its rounding would not meet.

Float-to-float and integer-to-float converts that round (TBD in the spec) are
kept: every implementation rounds to nearest even, and the comparison is
within the tolerance. Integer overflow wraps (two's complement), as XLA and
the evaluator define it, and is compared bit for bit.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import numpy as np

from xlir.element_dtypes import ml_dtype_of
from xlir.testing.inputs import float_info, host_dtype, int_info
from xlir.testing.program import (
    ALL_ELEMENT_TYPES,
    FLOAT_TYPES,
    INT_TYPES,
    NARROW_FLOAT_WIDTHS,
    Program,
    TType,
)

FLOAT_UNARY = (
    "abs",
    "negate",
    "exponential",
    "exponential_minus_one",
    "log",
    "log_plus_one",
    "sqrt",
    "rsqrt",
    "cbrt",
    "tanh",
    "logistic",
    "sine",
    "cosine",
    "tan",
    "floor",
    "ceil",
    "round_nearest_even",
    "round_nearest_afz",
    "sign",
)
INT_UNARY = ("abs", "negate", "not", "popcnt", "count_leading_zeros", "sign")
UNSIGNED_UNARY = ("negate", "not", "popcnt", "count_leading_zeros")
FLOAT_BINARY = (
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "power",
    "atan2",
    "remainder",
)
INT_BINARY = (
    "add",
    "subtract",
    "multiply",
    "maximum",
    "minimum",
    "and",
    "or",
    "xor",
    "shift_left",
    "shift_right_logical",
    "shift_right_arithmetic",
    "divide",
    "remainder",
    "power",
)
EXACT_FLOAT_UNARY = (
    "abs",
    "negate",
    "sqrt",
    "floor",
    "ceil",
    "round_nearest_even",
    "round_nearest_afz",
    "sign",
)
EXACT_FLOAT_BINARY = (
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "remainder",
)
"""The float ops whose result the spec defines to the bit (correctly
rounded, or exact): the elementwise mode's, whose results are compared bit
for bit, and the only ones a loop body applies (module docstring)."""
NAN_FREE_FLOATS = ("f6E2M3FN", "f6E3M2FN", "f4E2M1FN")
"""Float types without NaN (nor infinity): a NaN an op computes in f32
(`x rem 0`, `0/0`, `sqrt(-1)`) rounds to a zero of the opposite sign, and
that sign is the NaN's, which is open (module docstring)."""
APPROXIMATED = {*FLOAT_UNARY, "power", "atan2"} - set(EXACT_FLOAT_UNARY)
"""Float ops whose results targets round differently (within tolerance)."""
STEPPED_FLOAT_UNARY = (
    "floor",
    "ceil",
    "round_nearest_even",
    "round_nearest_afz",
    "sign",
)
"""Float ops whose result jumps where the operand crosses a point (as
compare, sort, remainder and float-to-integer convert do): not applied to
approximated values (module docstring)."""
PERIODIC_FLOAT_UNARY = ("sine", "cosine", "tan")
"""Float ops whose result turns with the operand's absolute error, however
large the operand: not applied to approximated values either."""
BOOL_BINARY = ("and", "or", "xor")
DIRECTIONS = ("EQ", "NE", "LT", "LE", "GT", "GE")
SUM_BOUNDS = {"f16": 256.0, "bf16": 1e36, "f32": 1e36, "f64": 1e300}
"""Finite terms of float sums are clamped to these: a sum of up to 125 of
them cannot overflow, in any order."""
PRODUCT_BOUNDS = {"f16": 16.0, "bf16": 1e18, "f32": 1e18, "f64": 1e150}
"""The same for the factors of dot products."""


RANKS = (0, 1, 1, 2, 2, 2, 3)
LARGE_SIZES = (8, 9, 16, 17, 33)
"""Sizes at and past the vector widths and tiles targets split loops by."""

MATMUL_M = (2, 3, 5, 8, 17)
MATMUL_K = (1, 4, 17, 17, 256, 257, 300)
MATMUL_N = (2, 5, 12, 16, 24, 31, 32, 48, 64)
"""A matmul's rows, sums and columns: past the GEMM routine's bounds
(targets/cpu/gemm_calls.py: M and N of 2 or more, N within a quarter of
whole panels of 16 or 32 columns, sums of 256-term chunks and the terms
left over)."""
LONG_ROWS = (63, 64, 65, 130, 257)
"""Sorted rows at and past the sort routine's insertion sort (64 keys:
targets/cpu/sort_routine.py), which sorts longer ones by radix."""

WIDER_ACCUMULATORS = {
    "bf16": "f32",
    "f16": "f32",
    "i8": "i32",
    "i16": "i32",
    "ui8": "ui32",
    "ui16": "ui32",
}
"""The result element types JAX gives contractions of narrow operands with
`preferred_element_type`."""


FLOAT_LINE = re.compile(r"[x<]b?f\d+>")
"""Matches a line with a float tensor type."""


def compare_type(type_: TType) -> str:
    if type_.is_float:
        return "FLOAT"
    return "SIGNED" if type_.is_signed else "UNSIGNED"


SIGNIFICAND_BITS = {"bf16": 8, "f16": 11, "f32": 24, "f64": 53}

BITS_OF = {"f16": "i16", "bf16": "i16", "f32": "i32", "f64": "i64"}
BITS_OF.update(
    (element, "i8") for element in NARROW_FLOAT_WIDTHS if element.startswith("f8E")
)
del BITS_OF["f8E8M0FNU"]  # unsigned: its bits do not order as TOTALORDER does
"""The integer type of a float type's width."""


def literal(element: str, value: float | int) -> str:
    """A scalar as a dense literal of the element type: floats that are not
    finite as hex bit patterns, as JAX prints them."""
    if element == "i1":
        return "true" if value else "false"
    if TType((), element).is_int:
        return str(int(value))
    if np.isfinite(value):
        return f"{float(value):e}"
    if element == "bf16":
        bits = np.array(value, np.float32).view(np.uint32).item() >> 16
        return f"0x{bits:04X}"
    narrow = ml_dtype_of(element)
    if narrow is not None:  # float8/6/4: the bits of the value it rounds to
        with np.errstate(invalid="ignore"):
            bits = np.array(value, np.float32).astype(narrow).view(np.uint8).item()
        return f"0x{bits:02X}"
    dtype = host_dtype(TType((), element))
    bits = np.array(value, dtype).view(f"u{dtype.itemsize}").item()
    return f"0x{bits:0{dtype.itemsize * 2}X}"


def identity(combiner: str, element: str) -> float | int:
    """The identity of a reduction's combiner for the element type."""
    if element == "i1":
        return {"and": 1, "or": 0, "xor": 0}[combiner]
    if combiner in ("add", "or", "xor"):
        return 0
    if combiner == "multiply":
        return 1
    if element in FLOAT_TYPES:
        return -np.inf if combiner == "maximum" else np.inf
    info = int_info(TType((), element))
    if combiner == "and":
        return -1 if TType((), element).is_signed else int(info.max)
    return int(info.min) if combiner == "maximum" else int(info.max)


def _dims(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _array(values: list[int]) -> str:
    """An `array<i64: ...>` attribute."""
    return f"array<i64: {', '.join(map(str, values))}>"


class Generator:
    """Builds one program; `Generator(seed).program()`."""

    def __init__(
        self, seed: int, max_ops: int = 12, elements: tuple[str, ...] | None = None
    ):
        """`elements`: the elementwise mode, over these element types (and
        the others, less often): only elementwise ops, compare, select,
        clamp, convert and constants, and of the float ops only those the
        spec defines to the bit (`EXACT_FLOAT_UNARY`/`_BINARY`)."""
        self.rng = random.Random(seed)
        self.later = random.Random(~seed)
        """Draws whether a node takes a form added after many seeds were
        quoted (in tests, docs and commits: `matmul`, long sort rows), so
        that the program of a seed with no such node replays as before."""
        self.max_ops = max_ops
        self.p = Program()
        rng = self.rng
        self.elementwise = elements is not None
        self.all_types = (
            ALL_ELEMENT_TYPES if self.elementwise else (*FLOAT_TYPES, *INT_TYPES, "i1")
        )
        floats = [e for e in elements or FLOAT_TYPES if TType((), e).is_float]
        ints = [e for e in elements or INT_TYPES if TType((), e).is_int]
        everything = [e for e in self.all_types if e != "i1"]
        self.float_type = rng.choice(
            floats or [e for e in everything if TType((), e).is_float]
        )
        self.int_type = rng.choice(
            ints or [e for e in everything if TType((), e).is_int]
        )
        self.shapes = [self.random_shape() for _ in range(rng.randint(1, 3))]
        self.approximated: set[int] = set()
        """Float values that carry the rounding of an approximated function
        or of a sum (module docstring)."""

    # --- choices ----------------------------------------------------------

    def random_shape(self) -> tuple[int, ...]:
        """Mostly of sizes 1 to 5; now and then a zero-sized dimension, or
        one past a vector width or tile (at most one such per shape), where
        targets tile and peel."""
        rng = self.rng
        shape = [rng.choice([1, 2, 3, 4, 5]) for _ in range(rng.choice(RANKS))]
        for i in range(len(shape)):
            roll = rng.random()
            if roll < 0.03:
                shape[i] = 0
            elif roll < 0.08 and max(shape) <= 5:
                shape[i] = rng.choice(LARGE_SIZES)
        return tuple(shape)

    def random_element(self) -> str:
        roll = self.rng.random()
        if roll < 0.45:
            return self.float_type
        if roll < 0.8:
            return self.int_type
        if roll < 0.9:
            return "i1"
        return self.rng.choice([e for e in self.all_types if e != "i1"])

    def random_type(self) -> TType:
        shape = self.rng.choice([*self.shapes, self.random_shape()])
        return TType(shape, self.random_element())

    def pick(
        self, accept: Callable[[TType], bool], reuse: float = 0.85, exact: bool = False
    ) -> int | None:
        """An existing value whose type is accepted (later ones likelier);
        with `exact`, not an approximated one."""
        p = self.p
        candidates = [v for v in p.arguments if accept(p.arguments[v])]
        for node in p.nodes:
            candidates += [
                v
                for v, t in zip(node.result_ids, node.results, strict=True)
                if accept(t) and not (exact and v in self.approximated)
            ]
        if not candidates or self.rng.random() > reuse:
            return None
        weights = [1 + i for i in range(len(candidates))]
        return self.rng.choices(candidates, weights)[0]

    def value(self, type_: TType, exact: bool = False) -> int:
        """A value of exactly this type: an existing one or a new argument."""
        found = self.pick(lambda t: t == type_, exact=exact)
        return found if found is not None else self.p.new_argument(type_)

    def any_value(
        self, accept: Callable[[TType], bool] = lambda t: True, exact: bool = False
    ) -> int:
        found = self.pick(accept, exact=exact)
        if found is not None:
            return found
        for _ in range(20):
            type_ = self.random_type()
            if accept(type_):
                return self.p.new_argument(type_)
        return self.p.new_argument(TType((2, 3), self.float_type))

    def emit(
        self,
        template: str,
        operands: list[int],
        results: list[TType],
        function: str = "",
        sums: bool = False,
    ):
        """Adds the node; its float results are approximated where an
        operand is, where it applies an `APPROXIMATED` op to floats, or
        where it `sums` floats."""
        ids = self.p.add_node(template, operands, results, function)
        approximated = sums or any(v in self.approximated for v in operands)
        for line in (template + "\n" + function).splitlines():
            op = re.search(r"stablehlo\.(\w+) ", line)
            if op and op.group(1) in APPROXIMATED and FLOAT_LINE.search(line):
                approximated = True
        if approximated:
            self.approximated.update(
                v for v, t in zip(ids, results, strict=True) if t.is_float
            )
        return ids

    # --- the program --------------------------------------------------------

    def program(self) -> Program:
        ops = self.rng.randint(1, self.max_ops)
        makers = [
            (self.unary, 6),
            (self.binary, 8),
            (self.compare, 2),
            (self.select, 2),
            (self.clamp, 1),
            (self.convert, 3),
            (self.constant, 2),
            (self.iota, 1),
            (self.broadcast, 3),
            (self.reshape, 2),
            (self.transpose, 2),
            (self.reverse, 1),
            (self.slice, 2),
            (self.pad, 2),
            (self.concatenate, 2),
            (self.reduce, 3),
            (self.argmax, 1),
            (self.top_k, 1),
            (self.rng_bit_generator, 1),
            (self.dot_general, 3),
            (self.convolution, 2),
            (self.gather, 1),
            (self.scatter, 1),
            (self.gather_windows, 1),
            (self.scatter_windows, 1),
            (self.gather_batched, 1),
            (self.scatter_batched, 1),
            (self.sort, 1),
            (self.while_, 2),
            (self.scan, 2),
            (self.case, 1),
            (self.dynamic_slice, 1),
            (self.dynamic_update_slice, 1),
            (self.reduce_window, 2),
            (self.select_and_scatter, 1),
            (self.bitcast_convert, 1),
            (self.reduce_precision, 1),
            (self.call, 1),
            (self.map, 1),
            (self.optimization_barrier, 1),
            (self.dimension_size, 1),
        ]
        if self.elementwise:
            elementwise = (self.unary, self.binary, self.compare, self.select)
            elementwise += (self.clamp, self.convert, self.constant)
            elementwise += (self.bitcast_convert, self.reduce_precision)
            makers = [(m, w) for m, w in makers if m in elementwise]
        functions = [m for m, _ in makers]
        weights = [w for _, w in makers]
        while len(self.p.nodes) < ops:
            self.rng.choices(functions, weights)[0]()
        self.choose_outputs()
        return self.p

    def choose_outputs(self) -> None:
        p = self.p
        last = p.nodes[-1]
        outputs = [self.rng.choice(list(last.result_ids))]
        used = {v for node in p.nodes for v in node.operands}
        unused = [
            v
            for node in p.nodes
            for v in node.result_ids
            if v not in used and v not in outputs
        ]
        self.rng.shuffle(unused)
        outputs += unused[: self.rng.randint(0, 2)]
        if p.arguments and self.rng.random() < 0.1:  # an argument returned as is
            outputs.append(self.rng.choice(list(p.arguments)))
        p.outputs = outputs

    # --- elementwise --------------------------------------------------------

    def unary_line(
        self,
        out: str,
        x: str,
        type_: TType,
        exact: bool = False,
        continuous: bool = False,
    ) -> str:
        """`out = op x`; with `exact`, of a float op IEEE 754 fixes to the
        bit; with `continuous`, not of a `STEPPED_FLOAT_UNARY` or
        `PERIODIC_FLOAT_UNARY` op."""
        if type_.is_bool:
            return f"{out} = stablehlo.not {x} : {type_}"
        if type_.is_float:
            ops = EXACT_FLOAT_UNARY if exact or self.elementwise else FLOAT_UNARY
            if continuous:
                stepped = (*STEPPED_FLOAT_UNARY, *PERIODIC_FLOAT_UNARY)
                ops = tuple(op for op in ops if op not in stepped)
            if type_.element in NAN_FREE_FLOATS:
                ops = tuple(op for op in ops if op != "sqrt")
            op = self.rng.choice(ops)
        elif type_.is_signed:
            op = self.rng.choice(INT_UNARY)
        else:
            op = self.rng.choice(UNSIGNED_UNARY)
        return f"{out} = stablehlo.{op} {x} : {type_}"

    def unary(self) -> None:
        x = self.any_value()
        type_ = self.p.type_of(x)
        if type_.is_float and self.rng.random() < 0.1:
            result = type_.with_element("i1")
            self.emit(
                f"$R = stablehlo.is_finite $0 : ({type_}) -> {result}", [x], [result]
            )
            return
        continuous = x in self.approximated
        self.emit(
            self.unary_line("$R", "$0", type_, continuous=continuous), [x], [type_]
        )

    def binary_lines(
        self,
        out: str,
        x: str,
        y: str,
        type_: TType,
        exact: bool = False,
        continuous: bool = False,
    ) -> list[str]:
        """`out = x op y`, with the guards that keep it defined; with
        `exact`, of a float op IEEE 754 fixes to the bit; with `continuous`,
        not remainder."""
        t = str(type_)
        if type_.is_bool:
            return [f"{out} = stablehlo.{self.rng.choice(BOOL_BINARY)} {x}, {y} : {t}"]
        if type_.is_float:
            ops = EXACT_FLOAT_BINARY if exact or self.elementwise else FLOAT_BINARY
            if continuous:
                ops = tuple(op for op in ops if op != "remainder")
            op = self.rng.choice(ops)
            if type_.element in NAN_FREE_FLOATS and op in ("divide", "remainder"):
                return self.nonzero_divisor_lines(out, x, y, type_, op)
            return [f"{out} = stablehlo.{op} {x}, {y} : {t}"]
        op = self.rng.choice(INT_BINARY)
        if op == "power":
            return [
                f"{out}m = stablehlo.constant dense<{min(7, int_info(type_).max)}> : {t}",
                f"{out}e = stablehlo.and {y}, {out}m : {t}",
                f"{out} = stablehlo.power {x}, {out}e : {t}",
            ]
        if op in ("divide", "remainder") and self.rng.random() < 0.7:
            return self.nonzero_divisor_lines(out, x, y, type_, op)
        return [f"{out} = stablehlo.{op} {x}, {y} : {t}"]

    @staticmethod
    def nonzero_divisor_lines(
        out: str, x: str, y: str, type_: TType, op: str
    ) -> list[str]:
        """`out = x op y` (divide or remainder) with a zero divisor replaced
        by 1, and for signed integers also the -1 of the smallest value."""
        t, b, cmp = str(type_), type_.with_element("i1"), compare_type(type_)
        zero, one = ("0.0", "1.0") if type_.is_float else ("0", "1")
        lines = [
            f"{out}z = stablehlo.constant dense<{zero}> : {t}",
            f"{out}o = stablehlo.constant dense<{one}> : {t}",
            f"{out}q = stablehlo.compare EQ, {y}, {out}z, {cmp} : ({t}, {t}) -> {b}",
            f"{out}d = stablehlo.select {out}q, {out}o, {y} : {b}, {t}",
        ]
        divisor = f"{out}d"
        if type_.is_signed:
            low = int_info(type_).min
            lines += [
                f"{out}n = stablehlo.constant dense<-1> : {t}",
                f"{out}l = stablehlo.constant dense<{low}> : {t}",
                f"{out}a = stablehlo.compare EQ, {divisor}, {out}n, SIGNED : ({t}, {t}) -> {b}",
                f"{out}c = stablehlo.compare EQ, {x}, {out}l, SIGNED : ({t}, {t}) -> {b}",
                f"{out}g = stablehlo.and {out}a, {out}c : {b}",
                f"{out}s = stablehlo.select {out}g, {out}o, {divisor} : {b}, {t}",
            ]
            divisor = f"{out}s"
        return [*lines, f"{out} = stablehlo.{op} {x}, {divisor} : {t}"]

    def binary(self) -> None:
        x = self.any_value()
        type_ = self.p.type_of(x)
        y = self.value(type_)
        continuous = bool({x, y} & self.approximated)
        lines = self.binary_lines("$Pr", "$0", "$1", type_, continuous=continuous)
        lines[-1] = lines[-1].replace("$Pr =", "$R =", 1)
        self.emit("\n".join(lines), [x, y], [type_])

    @staticmethod
    def canonical_nan(x: str, type_: TType, out: str) -> list[str]:
        """Lines making `out` be `x` with every NaN replaced by the positive
        quiet NaN, for a TOTALORDER comparison (see the module docstring).
        Both the test and the choice are made on the bits (a magnitude past
        infinity's is a NaN's): LLVM may fold a float select of a NaN back
        to `x`, since it does not keep NaNs' bits through float ops, and
        XLA folds a select on `x != x` back to `x` (seed 43300099: the -NaN
        of a sqrt ranked last by top_k)."""
        t, b = str(type_), type_.with_element("i1")
        bits = type_.with_element(BITS_OF[type_.element])
        nan = int(literal(type_.element, float("nan")), 16)
        inf = int(literal(type_.element, float("inf")), 16)
        magnitude = (1 << (type_.bits - 1)) - 1
        return [
            f"{out}b = stablehlo.bitcast_convert {x} : ({t}) -> {bits}",
            f"{out}m = stablehlo.constant dense<{magnitude}> : {bits}",
            f"{out}a = stablehlo.and {out}b, {out}m : {bits}",
            f"{out}i = stablehlo.constant dense<{inf}> : {bits}",
            f"{out}n = stablehlo.compare GT, {out}a, {out}i, SIGNED : ({bits}, {bits}) -> {b}",
            f"{out}q = stablehlo.constant dense<{nan}> : {bits}",
            f"{out}s = stablehlo.select {out}n, {out}q, {out}b : {b}, {bits}",
            f"{out} = stablehlo.bitcast_convert {out}s : ({bits}) -> {t}",
        ]

    @staticmethod
    def tame(
        x: str,
        type_: TType,
        bounds: dict[str, float],
        out: str,
        negative: bool,
        finite: bool = False,
    ) -> list[str]:
        """Lines making `out` be `x` with its finite elements clamped to
        the element type's bound (inf and NaN kept, or with `finite` made
        0) and all of one sign (the magnitude, negated if `negative`): a sum
        or dot product of huge values overflows or not depending on the
        order of its terms, and one of terms of both signs can cancel to a
        result that depends on that order more than any tolerance allows
        (module docstring)."""
        t, b, s = str(type_), type_.with_element("i1"), type_.with_shape(())
        high, low = (literal(type_.element, v * bounds[type_.element]) for v in (1, -1))
        other = x
        lines = [
            f"{out}h = stablehlo.constant dense<{high}> : {s}",
            f"{out}l = stablehlo.constant dense<{low}> : {s}",
            f"{out}c = stablehlo.clamp {out}l, {x}, {out}h : ({s}, {t}, {s}) -> {t}",
            f"{out}f = stablehlo.is_finite {x} : ({t}) -> {b}",
        ]
        if finite:
            other = f"{out}z"
            lines.append(f"{other} = stablehlo.constant dense<0.000000e+00> : {t}")
        lines.append(f"{out}s = stablehlo.select {out}f, {out}c, {other} : {b}, {t}")
        if negative:
            return [
                *lines,
                f"{out}a = stablehlo.abs {out}s : {t}",
                f"{out} = stablehlo.negate {out}a : {t}",
            ]
        return [*lines, f"{out} = stablehlo.abs {out}s : {t}"]

    @staticmethod
    def positive_zero(x: str, type_: TType, out: str) -> list[str]:
        """Lines making `out` be `x` with -0.0 turned into +0.0 (a zero
        replaced by +0.0): whether a float sum or dot product whose terms
        are zeros is -0.0 or +0.0 depends on how it is accumulated, and
        signed zeros decide what later ops (atan2, divide, ...) compute.
        Not `x + 0.0`, which XLA simplifies to `x` (seed 41201530)."""
        s, b = type_.with_shape(()), type_.with_element("i1")
        return [
            f"{out}z = stablehlo.constant dense<0.000000e+00> : {s}",
            f"{out}s = stablehlo.broadcast_in_dim {out}z, dims = [] : ({s}) -> {type_}",
            f"{out}e = stablehlo.compare EQ, {x}, {out}s, FLOAT : ({type_}, {type_}) -> {b}",
            f"{out} = stablehlo.select {out}e, {out}s, {x} : {b}, {type_}",
        ]

    def compare(self) -> None:
        x = self.any_value(lambda t: not t.is_bool, exact=True)
        type_ = self.p.type_of(x)
        y = self.value(type_, exact=True)
        kind = compare_type(type_)
        result = type_.with_element("i1")
        direction = self.rng.choice(DIRECTIONS)
        operands, lines = "$0, $1", []
        if type_.element in BITS_OF and self.rng.random() < 0.2:
            kind = "TOTALORDER"
            lines = [
                *self.canonical_nan("$0", type_, "$Px"),
                *self.canonical_nan("$1", type_, "$Py"),
            ]
            operands = "$Px, $Py"
        lines.append(
            f"$R = stablehlo.compare {direction}, {operands}, {kind} : ({type_}, {type_}) -> {result}"
        )
        self.emit("\n".join(lines), [x, y], [result])

    def select(self) -> None:
        x = self.any_value()
        type_ = self.p.type_of(x)
        y = self.value(type_)
        if self.rng.random() < 0.2:
            predicate_type = TType((), "i1")
        else:
            predicate_type = type_.with_element("i1")
        predicate = self.value(predicate_type)
        self.emit(
            f"$R = stablehlo.select $0, $1, $2 : ({predicate_type}, {type_}, {type_}) -> {type_}",
            [predicate, x, y],
            [type_],
        )

    def clamp(self) -> None:
        x = self.any_value(lambda t: not t.is_bool)
        type_ = self.p.type_of(x)
        bounds = [
            type_ if self.rng.random() < 0.5 else type_.with_shape(()) for _ in range(2)
        ]
        low, high = (self.value(t) for t in bounds)
        self.emit(
            f"$R = stablehlo.clamp $0, $1, $2 : ({bounds[0]}, {type_}, {bounds[1]}) -> {type_}",
            [low, x, high],
            [type_],
        )

    def convert(self) -> None:
        x = self.any_value()
        source = self.p.type_of(x)
        targets = self.all_types
        if x in self.approximated:
            # rounding to an integer is stepped, and a wider float type
            # is compared within a tighter tolerance than the rounding had
            bits = SIGNIFICAND_BITS[source.element]
            targets = tuple(t for t in FLOAT_TYPES if SIGNIFICAND_BITS[t] <= bits)
        target = source.with_element(self.rng.choice(targets))
        s, t = str(source), str(target)
        lines: list[str] = []
        operand = "$0"
        bounds = self.convert_bounds(source, target)
        saturating = target.is_int and self.rng.random() < 0.3  # as XLA defines
        if saturating:
            bounds = None
        zero = "1.0" if source.element == "f8E8M0FNU" else "0.0"  # has no 0
        if bounds is not None:
            low, high = (literal(source.element, v) for v in bounds)
            scalar = source.with_shape(())
            lines = [
                f"$Pl = stablehlo.constant dense<{low}> : {scalar}",
                f"$Ph = stablehlo.constant dense<{high}> : {scalar}",
                f"$Pc = stablehlo.clamp $Pl, $0, $Ph : ({scalar}, {s}, {scalar}) -> {s}",
            ]
            operand = "$Pc"
            if source.element == "f8E8M0FNU":
                zero = low
        if (
            source.is_float
            and not saturating
            and (bounds is not None or target.element in NAN_FREE_FLOATS)
        ):
            b = source.with_element("i1")
            lines += [
                f"$Pn = stablehlo.compare EQ, {operand}, {operand}, FLOAT : ({s}, {s}) -> {b}",
                f"$Pz = stablehlo.constant dense<{zero}> : {s}",
                f"$Ps = stablehlo.select $Pn, {operand}, $Pz : {b}, {s}",
            ]
            operand = "$Ps"
        lines.append(f"$R = stablehlo.convert {operand} : ({s}) -> {t}")
        self.emit("\n".join(lines), [x], [target])

    @staticmethod
    def convert_bounds(source: TType, target: TType) -> tuple[int, int] | None:
        """The range to clamp to before a convert that could leave the
        target's range, or None where every value converts defined."""
        if not target.is_int or source.is_bool:
            return None
        info = int_info(target)
        if source.is_float:
            largest = min(2048, int(float(float_info(source).max)))
            low = max(int(info.min), -largest)
            if source.element == "f8E8M0FNU":  # positive powers of two only
                low = max(low, 1)
            return low, min(int(info.max), largest)
        source_info = int_info(source)
        if source_info.min >= info.min and source_info.max <= info.max:
            return None
        return max(int(info.min), int(source_info.min)), min(
            int(info.max), int(source_info.max)
        )

    def exact_value(self, elements: list[str]) -> int:
        """An existing value (not approximated) of one of these element
        types, or a new argument of one."""
        found = self.pick(lambda t: t.element in elements, exact=True)
        if found is not None:
            return found
        shape = self.rng.choice([*self.shapes, self.random_shape()])
        return self.p.new_argument(TType(shape, self.rng.choice(elements)))

    def bitcast_convert(self) -> None:
        """A float value's bits as an integer of its width, with its NaNs
        made the one canonical NaN first (an op's NaN has an open sign and
        payload), or an integer's bits as a float of its width (NaNs with
        payloads, infinities and denormals among them). Approximated floats
        are not bitcast: their last bits are the implementation's."""
        floats = [e for e in self.all_types if e in BITS_OF]
        if self.rng.random() < 0.5:
            x = self.exact_value(floats)
            source = self.p.type_of(x)
            bits = BITS_OF[source.element]
            target = source.with_element(self.rng.choice([bits, "u" + bits]))
            self.emit(
                "\n".join(self.canonical_nan("$0", source, "$Pn"))
                + f"\n$R = stablehlo.bitcast_convert $Pn : ({source}) -> {target}",
                [x],
                [target],
            )
            return
        widths = {BITS_OF[f] for f in floats}
        x = self.exact_value([e for e in INT_TYPES if e.lstrip("u") in widths])
        source = self.p.type_of(x)
        element = [f for f in floats if BITS_OF[f] == source.element.lstrip("u")]
        target = source.with_element(self.rng.choice(element))
        self.emit(
            f"$R = stablehlo.bitcast_convert $0 : ({source}) -> {target}",
            [x],
            [target],
        )

    def reduce_precision(self) -> None:
        """A float value rounded to a narrower format and back (as JAX
        emulates bf16 and float8): exponent and mantissa bits of at most the
        type's, often those of f16, bf16 and the float8 types. Of values that
        are not approximated only: the rounding goes in steps."""
        x = self.exact_value([e for e in self.all_types if e in SIGNIFICAND_BITS])
        type_ = self.p.type_of(x)
        exponent = {"f16": 5, "bf16": 8, "f32": 8, "f64": 11}[type_.element]
        mantissa = SIGNIFICAND_BITS[type_.element] - 1
        formats = [(5, 10), (8, 7), (4, 3), (5, 2)]
        formats = [(e, m) for e, m in formats if e <= exponent and m <= mantissa]
        if not formats or self.rng.random() < 0.4:
            formats = [(self.rng.randint(1, exponent), self.rng.randint(0, mantissa))]
        e, m = self.rng.choice(formats)
        self.emit(
            f"$R = stablehlo.reduce_precision $0, format = e{e}m{m} : {type_}",
            [x],
            [type_],
        )

    def constant(self) -> None:
        type_ = self.random_type()
        rng = self.rng
        if type_.is_bool:
            value: float | int = rng.random() < 0.5
        elif type_.is_float:
            value = rng.choice(
                [
                    0.0,
                    -0.0,
                    1.0,
                    -2.5,
                    0.1,
                    np.inf,
                    -np.inf,
                    np.nan,
                    1e-40,
                    3e38,
                    70000.0,
                ]
            )
            if type_.element == "f16" and value in (1e-40, 3e38, 70000.0):
                value = {1e-40: 6e-8, 3e38: 65504.0, 70000.0: 60000.0}[value]
            if type_.element in NARROW_FLOAT_WIDTHS and np.isfinite(value):
                largest = float(float_info(type_).max)  # a value the type holds
                value = float(np.clip(value, -largest, largest))
                value = float(np.float32(value).astype(ml_dtype_of(type_.element)))
        else:
            info = int_info(type_)
            values = [0, 1, 7, int(info.max), int(info.min), type_.bits]
            value = rng.choice([v for v in values if info.min <= v <= info.max])
        self.emit(
            f"$R = stablehlo.constant dense<{literal(type_.element, value)}> : {type_}",
            [],
            [type_],
        )

    def iota(self) -> None:
        shape = self.random_shape()
        if not shape:
            shape = (4,)
        element = self.rng.choice([self.int_type, self.float_type, "i32"])
        type_ = TType(shape, element)
        dim = self.rng.randrange(len(shape))
        if self.rng.random() < 0.25:
            line, index = self.shape_constant(shape)
            self.emit(
                f"{line}$R = stablehlo.dynamic_iota $Ps, dim = {dim} : ({index}) -> {type_}",
                [],
                [type_],
            )
            return
        self.emit(f"$R = stablehlo.iota dim = {dim} : {type_}", [], [type_])

    def shape_constant(self, shape: tuple[int, ...]) -> tuple[str, TType]:
        """A line defining `$Ps`, `shape` as an i32 or i64 constant, and its
        type: the shape operand of a dynamic op (dynamic_iota,
        dynamic_broadcast_in_dim, dynamic_reshape) as a shape-polymorphic
        JAX export has it once its shapes are known."""
        index = TType((len(shape),), self.rng.choice(["i32", "i64"]))
        return f"$Ps = stablehlo.constant dense<{_dims(shape)}> : {index}\n", index

    def dimension_size(self) -> None:
        """`get_dimension_size` (a shape-polymorphic export's `x.shape[d]`),
        an i32 that ops after it compute with."""
        x = self.any_value(lambda t: t.rank >= 1)
        source = self.p.type_of(x)
        dim = self.rng.randrange(source.rank)
        target = TType((), "i32")
        self.emit(
            f"$R = stablehlo.get_dimension_size $0, dim = {dim} : ({source}) -> {target}",
            [x],
            [target],
        )

    # --- data movement ------------------------------------------------------

    def broadcast(self) -> None:
        x = self.any_value(lambda t: t.rank <= 2)
        source = self.p.type_of(x)
        rank = source.rank + self.rng.randint(0, 2)
        positions = sorted(self.rng.sample(range(rank), source.rank))
        if self.rng.random() < 0.2:
            self.rng.shuffle(positions)
        shape = [self.rng.choice([1, 2, 3]) for _ in range(rank)]
        for d, position in zip(source.shape, positions, strict=True):
            shape[position] = d if d != 1 or self.rng.random() < 0.5 else 3
        target = source.with_shape(tuple(shape))
        if shape and self.rng.random() < 0.25:
            line, index = self.shape_constant(target.shape)
            self.emit(
                f"{line}$R = stablehlo.dynamic_broadcast_in_dim $0, $Ps, "
                f"dims = {_dims(positions)} : ({source}, {index}) -> {target}",
                [x],
                [target],
            )
            return
        self.emit(
            f"$R = stablehlo.broadcast_in_dim $0, dims = {_dims(positions)} : ({source}) -> {target}",
            [x],
            [target],
        )

    def reshape(self) -> None:
        x = self.any_value()
        source = self.p.type_of(x)
        factors = _prime_factors(source.size)
        self.rng.shuffle(factors)
        shape: list[int] = []
        for f in factors:
            if shape and self.rng.random() < 0.5:
                shape[-1] *= f
            else:
                shape.append(f)
        while self.rng.random() < 0.3 and len(shape) < 4:
            shape.insert(self.rng.randint(0, len(shape)), 1)
        if source.size == 0:
            shape = [0]
        target = source.with_shape(tuple(shape))
        if shape and self.rng.random() < 0.25:
            line, index = self.shape_constant(target.shape)
            self.emit(
                f"{line}$R = stablehlo.dynamic_reshape $0, $Ps : ({source}, {index}) -> {target}",
                [x],
                [target],
            )
            return
        self.emit(f"$R = stablehlo.reshape $0 : ({source}) -> {target}", [x], [target])

    def transpose(self) -> None:
        x = self.any_value(lambda t: t.rank >= 1)
        source = self.p.type_of(x)
        permutation = list(range(source.rank))
        self.rng.shuffle(permutation)
        target = source.with_shape(tuple(source.shape[i] for i in permutation))
        self.emit(
            f"$R = stablehlo.transpose $0, dims = {_dims(permutation)} : ({source}) -> {target}",
            [x],
            [target],
        )

    def reverse(self) -> None:
        x = self.any_value(lambda t: t.rank >= 1)
        type_ = self.p.type_of(x)
        dims = sorted(
            self.rng.sample(range(type_.rank), self.rng.randint(1, type_.rank))
        )
        self.emit(
            f"$R = stablehlo.reverse $0, dims = {_dims(dims)} : {type_}", [x], [type_]
        )

    def slice(self) -> None:
        x = self.any_value(lambda t: t.rank >= 1)
        source = self.p.type_of(x)
        parts, shape = [], []
        for d in source.shape:
            start = self.rng.randint(0, d)
            limit = self.rng.randint(start, d)
            if limit == start and self.rng.random() < 0.8:
                start, limit = 0, d
            stride = self.rng.choice([1, 1, 2, 3])
            parts.append(f"{start}:{limit}:{stride}")
            shape.append(-(-(limit - start) // stride))
        target = source.with_shape(tuple(shape))
        self.emit(
            f"$R = stablehlo.slice $0 [{', '.join(parts)}] : ({source}) -> {target}",
            [x],
            [target],
        )

    def pad(self) -> None:
        x = self.any_value(lambda t: t.rank >= 1)
        source = self.p.type_of(x)
        low, high, interior, shape = [], [], [], []
        for d in source.shape:
            while True:
                lo, hi = self.rng.randint(-2, 2), self.rng.randint(-2, 2)
                inner = self.rng.choice([0, 0, 1, 2])
                size = d + lo + hi + max(d - 1, 0) * inner
                if size >= 0:
                    break
            low.append(lo)
            high.append(hi)
            interior.append(inner)
            shape.append(size)
        target = source.with_shape(tuple(shape))
        scalar = source.with_shape(())
        padding = self.value(scalar)
        self.emit(
            f"$R = stablehlo.pad $0, $1, low = {_dims(low)}, high = {_dims(high)}, "
            f"interior = {_dims(interior)} : ({source}, {scalar}) -> {target}",
            [x, padding],
            [target],
        )

    def concatenate(self) -> None:
        x = self.any_value(lambda t: t.rank >= 1)
        first = self.p.type_of(x)
        dim = self.rng.randrange(first.rank)
        operands, types = [x], [first]
        for _ in range(self.rng.randint(1, 2)):
            found = self.pick(
                lambda t: (
                    t.element == first.element
                    and t.rank == first.rank
                    and all(
                        a == b
                        for i, (a, b) in enumerate(
                            zip(t.shape, first.shape, strict=True)
                        )
                        if i != dim
                    )
                )
            )
            if found is None:
                shape = list(first.shape)
                shape[dim] = self.rng.randint(1, 4)
                found = self.p.new_argument(first.with_shape(tuple(shape)))
            operands.append(found)
            types.append(self.p.type_of(found))
        shape = list(first.shape)
        shape[dim] = sum(t.shape[dim] for t in types)
        target = first.with_shape(tuple(shape))
        names = ", ".join(f"${i}" for i in range(len(operands)))
        self.emit(
            f"$R = stablehlo.concatenate {names}, dim = {dim} : "
            f"({', '.join(str(t) for t in types)}) -> {target}",
            operands,
            [target],
        )

    # --- reductions and contractions ------------------------------------------

    def reduce(self) -> None:
        x = self.any_value(lambda t: t.rank >= 1)
        source = self.p.type_of(x)
        if source.is_bool:
            combiner = self.rng.choice(["and", "or"])
        elif source.is_float:
            combiner = self.rng.choice(["add", "add", "maximum", "minimum"])
        else:
            combiner = self.rng.choice(
                ["add", "multiply", "maximum", "minimum", "and", "or"]
            )
        dims = sorted(
            self.rng.sample(range(source.rank), self.rng.randint(1, source.rank))
        )
        scalar = source.with_shape(())
        target = source.with_shape(
            tuple(d for i, d in enumerate(source.shape) if i not in dims)
        )
        init = literal(source.element, identity(combiner, source.element))
        operand, lines, result, after = "$0", [], "$R", []
        if combiner == "add" and source.is_float:
            negative = self.rng.random() < 0.5
            operand, lines = "$Pt", self.tame("$0", source, SUM_BOUNDS, "$Pt", negative)
            result, after = "$Ps", self.positive_zero("$Ps", target, "$R")
        self.emit(
            "".join(f"{line}\n" for line in lines)
            + f"$Pi = stablehlo.constant dense<{init}> : {scalar}\n"
            f"{result} = stablehlo.reduce({operand} init: $Pi) applies stablehlo.{combiner} "
            f"across dimensions = {_dims(dims)} : ({source}, {scalar}) -> {target}"
            + "".join(f"\n{line}" for line in after),
            [x],
            [target],
            sums=bool(after),
        )

    def argmax(self) -> None:
        """JAX's argmax or argmin along one dimension: a reduce of the
        values and their iota, whose combiner takes the larger (smaller)
        value or a NaN, and on a tie the first index."""
        x = self.any_value(lambda t: t.rank >= 1 and not t.is_bool, exact=True)
        source = self.p.type_of(x)
        dim = self.rng.randrange(source.rank)
        direction = self.rng.choice(["GT", "LT"])
        indices = source.with_element("i32")
        v, i = source.with_shape(()), indices.with_shape(())
        shape = tuple(d for j, d in enumerate(source.shape) if j != dim)
        targets = [source.with_shape(shape), indices.with_shape(shape)]
        kind = compare_type(source)
        extreme = identity(
            "maximum" if direction == "GT" else "minimum", source.element
        )
        b = "tensor<i1>"
        better = "$Pp" if source.is_float else "$Pg"
        body = [
            f"$Pg = stablehlo.compare {direction}, $Pa, $Pb, {kind} : ({v}, {v}) -> {b}"
        ]
        if source.is_float:
            body += [
                f"$Pn = stablehlo.compare NE, $Pa, $Pa, FLOAT : ({v}, {v}) -> {b}",
                f"$Pp = stablehlo.or $Pg, $Pn : {b}",
            ]
        body += [
            f"$Pe = stablehlo.compare EQ, $Pa, $Pb, {kind} : ({v}, {v}) -> {b}",
            f"$Pl = stablehlo.compare LT, $Pc, $Pd, SIGNED : ({i}, {i}) -> {b}",
            f"$Pt = stablehlo.and $Pe, $Pl : {b}",
            f"$Pq = stablehlo.or {better}, $Pt : {b}",
            f"$Pv = stablehlo.select {better}, $Pa, $Pb : {b}, {v}",
            f"$Pw = stablehlo.select $Pq, $Pc, $Pd : {b}, {i}",
            f"stablehlo.return $Pv, $Pw : {v}, {i}",
        ]
        self.emit(
            f"$Px = stablehlo.iota dim = {dim} : {indices}\n"
            f"$Pi = stablehlo.constant dense<{literal(source.element, extreme)}> : {v}\n"
            f"$Pz = stablehlo.constant dense<0> : {i}\n"
            f"$R = stablehlo.reduce($0 init: $Pi), ($Px init: $Pz) across dimensions = "
            f"[{dim}] : ({source}, {indices}, {v}, {i}) -> ({', '.join(map(str, targets))})\n"
            f" reducer($Pa: {v}, $Pb: {v}) ($Pc: {i}, $Pd: {i}) {{\n"
            + "".join(f"  {line}\n" for line in body)
            + "}",
            [x],
            targets,
        )

    def top_k(self) -> None:
        """`chlo.top_k` along the last dimension (keys with one NaN, as
        TOTALORDER tells NaNs apart by their bits)."""
        x = self.any_value(
            lambda t: t.rank >= 1 and t.shape[-1] > 0 and not t.is_bool, exact=True
        )
        keys = self.p.type_of(x)
        k = self.rng.randint(1, keys.shape[-1])
        shape = (*keys.shape[:-1], k)
        targets = [keys.with_shape(shape), TType(shape, "i32")]
        lines, operand = [], "$0"
        if keys.is_float and keys.element in BITS_OF:
            lines, operand = self.canonical_nan("$0", keys, "$Pk"), "$Pk"
        elif keys.is_float:
            return
        lines.append(
            f"$R = chlo.top_k({operand}, k = {k}) : {keys} -> "
            f"({', '.join(map(str, targets))})"
        )
        self.emit("\n".join(lines), [x], targets)

    def rng_bit_generator(self) -> None:
        """Random bits of a state: a deterministic function of it for the
        algorithms the spec names (DEFAULT's bits are the implementation's)."""
        algorithm, sizes = self.rng.choice([("THREE_FRY", [2]), ("PHILOX", [2, 3])])
        state = self.value(TType((self.rng.choice(sizes),), "ui64"))
        state_type = self.p.type_of(state)
        bits = TType(
            self.random_shape(), self.rng.choice(["ui32", "ui64", "i32", "ui8", "i64"])
        )
        self.emit(
            f"$R = stablehlo.rng_bit_generator $0, algorithm = {algorithm} : "
            f"({state_type}) -> ({state_type}, {bits})",
            [state],
            [state_type, bits],
        )

    def dot_general(self) -> None:
        """Of an existing value and one more by any dimension numbers, or
        (1 in 4) a `matmul`."""
        if self.later.random() < 0.25:
            self.matmul()
            return
        x = self.any_value(lambda t: 1 <= t.rank <= 3 and not t.is_bool)
        lhs = self.p.type_of(x)
        rng = self.rng
        roles = [rng.choice(["batch", "contract", "free"]) for _ in lhs.shape]
        batch = [i for i, r in enumerate(roles) if r == "batch"]
        contract = [i for i, r in enumerate(roles) if r == "contract"]
        rng.shuffle(batch)
        rng.shuffle(contract)
        lhs_free = [i for i, r in enumerate(roles) if r == "free"]
        rhs_dims = [("batch", i) for i in batch] + [("contract", i) for i in contract]
        rhs_dims += [("free", rng.randint(1, 4)) for _ in range(rng.randint(0, 1))]
        rng.shuffle(rhs_dims)
        rhs_shape = tuple(
            size if role == "free" else lhs.shape[size] for role, size in rhs_dims
        )
        rhs = lhs.with_shape(rhs_shape)
        y = self.value(rhs)

        def where(role: str, lhs_dim: int) -> int:
            return rhs_dims.index((role, lhs_dim))

        rhs_batch = [where("batch", i) for i in batch]
        rhs_contract = [where("contract", i) for i in contract]
        rhs_free = [s for role, s in rhs_dims if role == "free"]
        shape = [lhs.shape[i] for i in batch] + [lhs.shape[i] for i in lhs_free]
        target = TType(tuple(shape + rhs_free), self.accumulator(lhs.element))
        batching = (
            f"batching_dims = {_dims(batch)} x {_dims(rhs_batch)}, " if batch else ""
        )
        self.product(
            lambda operands: (
                f"stablehlo.dot_general {operands}, {batching}"
                f"contracting_dims = {_dims(contract)} x {_dims(rhs_contract)} : "
                f"({lhs}, {rhs}) -> {target}"
            ),
            (x, y),
            target,
        )

    def matmul(self) -> None:
        """A matrix product as JAX writes `x @ w` (batched: `einsum`), sized
        for the GEMM routine (`MATMUL_M`, `_K`, `_N`), mostly f32, its rhs
        now and then transposed (`x @ w.T`)."""
        rng = self.rng
        element = "f32" if rng.random() < 0.7 else self.float_type
        m, k, n = rng.choice(MATMUL_M), rng.choice(MATMUL_K), rng.choice(MATMUL_N)
        batch = [rng.choice([2, 3])] if rng.random() < 0.3 else []
        b = len(batch)
        transposed = rng.random() < 0.3
        lhs = TType((*batch, m, k), element)
        rhs = TType((*batch, n, k) if transposed else (*batch, k, n), element)
        target = TType((*batch, m, n), self.accumulator(element))
        batching = f"batching_dims = {_dims(range(b))} x {_dims(range(b))}, "
        contracting = f"contracting_dims = [{b + 1}] x [{b + 1 if transposed else b}]"
        self.product(
            lambda operands: (
                f"stablehlo.dot_general {operands}, {batching if b else ''}"
                f"{contracting} : ({lhs}, {rhs}) -> {target}"
            ),
            (self.value(lhs), self.value(rhs)),
            target,
        )

    def product(
        self,
        op: Callable[[str], str],
        values: tuple[int, int],
        target: TType,
        finite: tuple[bool, bool] = (False, False),
    ) -> None:
        """Emit `$R = op("a, b")`, a product of the two `values`: float
        operands tamed to `PRODUCT_BOUNDS` (one side negated at random) so
        sums of products stay finite (those `finite` says with their inf
        and NaN made 0), and a -0 result made +0 (summation order decides
        its sign)."""
        lhs, rhs = (self.p.type_of(v) for v in values)
        lines, names, result, after = [], ("$0", "$1"), "$R", []
        if lhs.is_float:
            negative = self.rng.random() < 0.5
            lines = self.tame("$0", lhs, PRODUCT_BOUNDS, "$Px", False, finite[0])
            lines += self.tame("$1", rhs, PRODUCT_BOUNDS, "$Py", negative, finite[1])
            names = ("$Px", "$Py")
            result, after = "$Pd", self.positive_zero("$Pd", target, "$R")
        self.emit(
            "".join(f"{line}\n" for line in lines)
            + f"{result} = {op(', '.join(names))}"
            + "".join(f"\n{line}" for line in after),
            list(values),
            [target],
            sums=lhs.is_float,
        )

    def convolution(self) -> None:
        """A convolution of an existing value (rank 2 to 4) in a random
        layout of its operands and result, with strides, padding (negative
        too), lhs and rhs dilation, window reversal, and feature or batch
        groups; float operands tamed as dot_general's are."""
        rng = self.rng
        x = self.any_value(lambda t: 2 <= t.rank <= 4 and not t.is_bool)
        lhs = self.p.type_of(x)
        spatial = lhs.rank - 2
        lhs_layout = rng.sample(["b", "f", *map(str, range(spatial))], lhs.rank)
        batch = lhs.shape[lhs_layout.index("b")]
        features = lhs.shape[lhs_layout.index("f")]
        in_spatial = [lhs.shape[lhs_layout.index(str(i))] for i in range(spatial)]
        feature_groups = rng.choice([g for g in (1, 2, 3) if features % max(g, 1) == 0])
        batch_groups = 1
        if feature_groups == 1 and rng.random() < 0.3:
            batch_groups = rng.choice([g for g in (1, 2, 3) if batch % g == 0])
        output_features = rng.randint(1, 2) * max(feature_groups, batch_groups)
        windows = [self.conv_window(size) for size in in_spatial]
        columns = [[w[i] for w in windows] for i in range(7)]
        kernel, strides, lhs_dilate, rhs_dilate, lows, highs, out_spatial = columns
        reverse = [str(rng.random() < 0.3).lower() for _ in range(spatial)]
        rhs_layout = rng.sample(["i", "o", *map(str, range(spatial))], lhs.rank)
        rhs_sizes = {"i": features // feature_groups, "o": output_features}
        rhs_sizes.update((str(i), k) for i, k in enumerate(kernel))
        rhs = lhs.with_shape(tuple(rhs_sizes[d] for d in rhs_layout))
        y = self.value(rhs)
        out_layout = rng.sample(["b", "f", *map(str, range(spatial))], lhs.rank)
        out_sizes = {"b": batch // batch_groups, "f": output_features}
        out_sizes.update((str(i), s) for i, s in enumerate(out_spatial))
        target = TType(
            tuple(out_sizes[d] for d in out_layout), self.accumulator(lhs.element)
        )
        window = ""  # as JAX prints it where there is no spatial dimension
        if spatial:
            pads = ", ".join(
                f"[{lo}, {hi}]" for lo, hi in zip(lows, highs, strict=True)
            )
            window = (
                f"stride = {_dims(strides)}, pad = [{pads}], "
                f"lhs_dilate = {_dims(lhs_dilate)}, rhs_dilate = {_dims(rhs_dilate)}, "
                f"reverse = {_dims(reverse)}"
            )
        spread = any(lo > 0 or hi > 0 for lo, hi in zip(lows, highs, strict=True))
        spread = spread or any(d > 1 for d in lhs_dilate)  # zeros in the lhs
        self.product(
            lambda operands: (
                f"stablehlo.convolution({operands}) dim_numbers = "
                f"{_dims(lhs_layout)}x{_dims(rhs_layout)}->{_dims(out_layout)}, "
                f"window = {{{window}}} {{batch_group_count = {batch_groups} : i64, "
                f"feature_group_count = {feature_groups} : i64}} : ({lhs}, {rhs}) -> {target}"
            ),
            (x, y),
            target,
            finite=(max(feature_groups, batch_groups) > 1, spread or batch_groups > 1),
        )

    def conv_window(self, size: int) -> tuple[int, int, int, int, int, int, int]:
        """A convolution's window along a spatial dimension of this size:
        kernel size, stride, lhs and rhs dilation, low and high padding, and
        the result's size."""
        rng = self.rng
        while True:
            kernel, stride = rng.randint(1, 3), rng.choice([1, 1, 2, 3])
            lhs_dilate, rhs_dilate = rng.choice([1, 1, 2]), rng.choice([1, 1, 2])
            low, high = rng.choice([-1, 0, 0, 1, 2]), rng.choice([-1, 0, 0, 1])
            padded = low + (0 if size == 0 else (size - 1) * lhs_dilate + 1) + high
            window = (kernel - 1) * rhs_dilate + 1
            if padded >= window:
                result = (padded - window) // stride + 1
                return kernel, stride, lhs_dilate, rhs_dilate, low, high, result

    def accumulator(self, element: str) -> str:
        """The result element type of a contraction of `element` operands:
        theirs, or sometimes a wider one (JAX's `preferred_element_type`:
        bf16 and f16 products summed in f32, 8- and 16-bit integers in 32
        bits)."""
        wider = WIDER_ACCUMULATORS.get(element)
        if wider is not None and self.rng.random() < 0.3:
            return wider
        return element

    # --- indexing ---------------------------------------------------------------

    def row_indices(self, rows: int) -> tuple[str, str, TType, int | None]:
        """For a gather or scatter of 1 to 4 rows of `rows`: the template's
        name of the indices, a line defining them (or none), their type, and
        the value read (or None). A quarter are a constant of distinct rows
        in order, with `indices_are_sorted = true, unique_indices = true`
        (JAX's promise, which lets an implementation skip the sorting and
        combining it would do otherwise); the others any value (clamped)."""
        count = self.rng.randint(1, 4)
        if self.rng.random() < 0.25 and rows > 0:
            rows_taken = sorted(self.rng.sample(range(rows), min(count, rows)))
            index_type = TType((len(rows_taken), 1), self.index_element())
            points = ", ".join(f"[{r}]" for r in rows_taken)
            line = f"$Pr = stablehlo.constant dense<[{points}]> : {index_type}\n"
            return "$Pr", line, index_type, None
        index_type = TType((count, 1), self.index_element())
        return "$1", "", index_type, self.value(index_type)

    def gather(self) -> None:
        x = self.any_value(lambda t: t.rank >= 1 and t.size > 0)
        source = self.p.type_of(x)
        dim = self.rng.randrange(source.rank)
        name, line, index_type, indices = self.row_indices(source.shape[dim])
        sizes = [
            self.rng.randint(1, d) if i != dim else 1
            for i, d in enumerate(source.shape)
        ]
        kept = [s for i, s in enumerate(sizes) if i != dim]
        target = source.with_shape((index_type.shape[0], *kept))
        offsets = list(range(1, source.rank))
        sorted_ = "indices_are_sorted = true, " if indices is None else ""
        self.emit(
            f'{line}$R = "stablehlo.gather"($0, {name}) <{{dimension_numbers = '
            f"#stablehlo.gather<offset_dims = {_dims(offsets)}, "
            f"collapsed_slice_dims = [{dim}], start_index_map = [{dim}], "
            f"index_vector_dim = 1>, {sorted_}"
            f"slice_sizes = array<i64: {', '.join(map(str, sizes))}>}}> : "
            f"({source}, {index_type}) -> {target}",
            [x] if indices is None else [x, indices],
            [target],
        )

    def scatter(self) -> None:
        """A scatter of rows; where the rows are distinct (`row_indices`),
        each element is combined at most once, so float `add` and
        `multiply` combine in no open order and are used too."""
        x = self.any_value(lambda t: t.rank >= 1 and t.size > 0 and not t.is_bool)
        source = self.p.type_of(x)
        dim = self.rng.randrange(source.rank)
        name, line, index_type, indices = self.row_indices(source.shape[dim])
        scalar_index = index_type.with_shape(())
        kept = [d for i, d in enumerate(source.shape) if i != dim]
        update_type = source.with_shape((index_type.shape[0], *kept))
        updates = self.value(update_type)
        windows = list(range(1, source.rank))
        unique = indices is None
        self.emit_scatter(
            (x, indices, updates),
            f"dense<{source.shape[dim] - 1}> : {scalar_index}",
            f"update_window_dims = {_dims(windows)}, inserted_window_dims = [{dim}], "
            f"scatter_dims_to_operand_dims = [{dim}], index_vector_dim = 1",
            (name, line, index_type) if unique else None,
        )

    def emit_scatter(
        self,
        values: tuple[int, int | None, int],
        highest: str,
        dimensions: str,
        unique: tuple[str, str, TType] | None = None,
    ) -> None:
        """Emit a scatter of `values` (operand, coordinates, updates), the
        coordinates clamped between 0 and `highest` (a typed literal), with
        `dimensions` (its dimension numbers) and a combiner whose result
        does not depend on the updates' order (`add` only for integers:
        float sums round by order). With `unique` (the name, definition and
        type of constant coordinates of distinct rows, in order, in place of
        `values`' second), the scatter says so, and float combiners add and
        multiply too (each element combines at most one update)."""
        operand, coordinates, updates = values
        source, update_type = self.p.type_of(operand), self.p.type_of(updates)
        flags = ""
        if unique is not None:
            name, line, index_type = unique
            flags = ", indices_are_sorted = true, unique_indices = true"
            combiners = ["add", "multiply", "maximum", "minimum"]
        else:
            assert coordinates is not None
            name, line, index_type = "$1", "", self.p.type_of(coordinates)
            combiners = ["maximum", "minimum"]
            if not source.is_float:
                combiners.append("add")
        combiner = self.rng.choice(combiners)
        e = source.with_shape(())
        low, high = index_type.with_shape(()), highest.rsplit(" : ", 1)[1]
        self.emit(
            f"{line}$Pl = stablehlo.constant dense<0> : {low}\n"
            f"$Ph = stablehlo.constant {highest}\n"
            f"$Pi = stablehlo.clamp $Pl, {name}, $Ph : ({low}, {index_type}, {high}) -> {index_type}\n"
            f'$R = "stablehlo.scatter"($0, $Pi, ${2 if unique is None else 1}) <{{'
            f"scatter_dimension_numbers = #stablehlo.scatter<{dimensions}>{flags}}}> ({{\n"
            f"^bb0($Pa: {e}, $Pb: {e}):\n"
            f"  $Pc = stablehlo.{combiner} $Pa, $Pb : {e}\n"
            f"  stablehlo.return $Pc : {e}\n"
            f"}}) : ({source}, {index_type}, {update_type}) -> {source}",
            [v for v in values if v is not None],
            [source],
        )

    def windows(self, source: TType) -> tuple[list[int], list[int], list[int]]:
        """For a gather or scatter of windows of `source` at points of one or
        two coordinates (JAX's `x[i, j]`, `x.at[i].add(v)`): the operand
        dimensions the coordinates index (in any order), the window's size
        in each dimension, and the dimensions the window drops (of size 1,
        among the indexed ones)."""
        rng = self.rng
        indexed = rng.sample(range(source.rank), rng.randint(1, min(2, source.rank)))
        dropped = sorted(d for d in indexed if rng.random() < 0.6)
        sizes = [
            1 if i in dropped else rng.randint(1, d) for i, d in enumerate(source.shape)
        ]
        return indexed, sizes, dropped

    def batch_layout(
        self, count: int, window: list[int]
    ) -> tuple[list[int], list[int]]:
        """The shape of a gather's result (a scatter's updates), the window's
        sizes with the point count at a random position, and the positions
        of the window's dimensions in it."""
        where = self.rng.randint(0, len(window))
        shape = [*window[:where], count, *window[where:]]
        return shape, [i for i in range(len(shape)) if i != where]

    def window_points(
        self, accept: Callable[[TType], bool]
    ) -> tuple[
        int,
        TType,
        tuple[list[int], list[int], list[int], TType, int, list[int], list[int]],
    ]:
        """For a gather or scatter of windows: an existing value `accept`
        takes, its type, and of its windows (`windows`) the indexed
        dimensions, sizes and dropped dimensions, the type and value of 1 to
        3 points' coordinates, and the result's (updates') shape and window
        positions (`batch_layout`)."""
        x = self.any_value(accept)
        source = self.p.type_of(x)
        indexed, sizes, dropped = self.windows(source)
        count = self.rng.randint(1, 3)
        index_type = TType((count, len(indexed)), self.index_element())
        indices = self.value(index_type)
        window = [s for i, s in enumerate(sizes) if i not in dropped]
        shape, positions = self.batch_layout(count, window)
        return (
            x,
            source,
            (indexed, sizes, dropped, index_type, indices, shape, positions),
        )

    def gather_windows(self) -> None:
        """A gather of windows at points of one or two coordinates, which
        the spec clamps so that each window is inside the operand."""
        x, source, at = self.window_points(lambda t: t.rank >= 1 and t.size > 0)
        indexed, sizes, dropped, index_type, indices, shape, offsets = at
        target = source.with_shape(tuple(shape))
        self.emit(
            f'$R = "stablehlo.gather"($0, $1) <{{dimension_numbers = #stablehlo.gather<'
            f"offset_dims = {_dims(offsets)}, collapsed_slice_dims = {_dims(dropped)}, "
            f"start_index_map = {_dims(indexed)}, index_vector_dim = 1>, "
            f"slice_sizes = array<i64: {', '.join(map(str, sizes))}>}}> : "
            f"({source}, {index_type}) -> {target}",
            [x, indices],
            [target],
        )

    def scatter_windows(self) -> None:
        """A scatter of windows at points of one or two coordinates, the
        coordinates clamped so that each window is inside the operand (the
        spec leaves the others to the implementation); combiners as
        `scatter`'s."""
        x, source, at = self.window_points(
            lambda t: t.rank >= 1 and t.size > 0 and not t.is_bool
        )
        indexed, sizes, dropped, index_type, indices, shape, window_dims = at
        count = index_type.shape[0]
        update_type = source.with_shape(tuple(shape))
        updates = self.value(update_type)
        highest = [source.shape[d] - sizes[d] for d in indexed]
        bounds = "[" + ", ".join([_dims(highest)] * count) + "]"
        self.emit_scatter(
            (x, indices, updates),
            f"dense<{bounds}> : {index_type}",
            f"update_window_dims = {_dims(window_dims)}, "
            f"inserted_window_dims = {_dims(dropped)}, "
            f"scatter_dims_to_operand_dims = {_dims(indexed)}, index_vector_dim = 1",
        )

    def batched_points(
        self, accept: Callable[[TType], bool]
    ) -> tuple[
        int, int, list[int], list[int], list[int], list[int], Callable[[str], str]
    ]:
        """For a gather or scatter of windows at points of one or two
        coordinates in each member of a batch (JAX's `vmap` of `x[i]`,
        `x.at[i].set(v)`): an existing value of rank 2 or more `accept`
        takes, and the indices' value (1 to 3 points per member,
        the batch dimension first or second, the coordinates last); the
        indexed dimensions, the window's sizes, the result's (updates')
        shape; and the dimension numbers but the windows' and the indexed
        ones, given the prefix of the batching fields' names (`operand`
        or `input`; the indices' are `start_indices` and `scatter_indices`)."""
        rng = self.rng
        x = self.any_value(lambda t: accept(t) and t.rank >= 2 and t.size > 0)
        source = self.p.type_of(x)
        batch = rng.randrange(source.rank)
        rest = [d for d in range(source.rank) if d != batch]
        indexed = rng.sample(rest, rng.randint(1, min(2, len(rest))))
        dropped = sorted(d for d in indexed if rng.random() < 0.6)
        sizes = [
            1 if i in dropped or i == batch else rng.randint(1, d)
            for i, d in enumerate(source.shape)
        ]
        first = rng.random() < 0.5
        count = rng.randint(1, 3)
        points = [source.shape[batch], count] if first else [count, source.shape[batch]]
        index_type = TType((*points, len(indexed)), self.index_element())
        indices = self.value(index_type)
        window = [s for i, s in enumerate(sizes) if i not in dropped and i != batch]
        where = rng.randint(0, len(window))
        shape = [*window[:where], *points, *window[where:]]
        positions = [i for i in range(len(shape)) if i not in (where, where + 1)]
        indices_name = {"operand": "start_indices", "input": "scatter_indices"}

        def numbers(prefix: str) -> str:
            collapsed = "collapsed_slice" if prefix == "operand" else "inserted_window"
            return (
                f"{collapsed}_dims = {_dims(dropped)}, "
                f"{prefix}_batching_dims = [{batch}], "
                f"{indices_name[prefix]}_batching_dims = [{0 if first else 1}]"
            )

        return x, indices, indexed, sizes, shape, positions, numbers

    def gather_batched(self) -> None:
        """A gather of windows in each member of a batch (`batched_points`),
        its start indices clamped by the spec."""
        at = self.batched_points(lambda t: True)
        x, indices, indexed, sizes, shape, offsets, numbers = at
        source, index_type = self.p.type_of(x), self.p.type_of(indices)
        target = source.with_shape(tuple(shape))
        self.emit(
            f'$R = "stablehlo.gather"($0, $1) <{{dimension_numbers = #stablehlo.gather<'
            f"offset_dims = {_dims(offsets)}, {numbers('operand')}, "
            f"start_index_map = {_dims(indexed)}, index_vector_dim = 2>, "
            f"slice_sizes = array<i64: {', '.join(map(str, sizes))}>}}> : "
            f"({source}, {index_type}) -> {target}",
            [x, indices],
            [target],
        )

    def scatter_batched(self) -> None:
        """A scatter of windows in each member of a batch (`batched_points`),
        its coordinates clamped so that each window is inside the operand;
        combiners as `scatter`'s."""
        at = self.batched_points(lambda t: not t.is_bool)
        x, indices, indexed, sizes, shape, windows, numbers = at
        source, index_type = self.p.type_of(x), self.p.type_of(indices)
        updates = self.value(source.with_shape(tuple(shape)))
        highest = [source.shape[d] - sizes[d] for d in indexed]
        bounds = np.broadcast_to(np.array(highest), index_type.shape).tolist()
        self.emit_scatter(
            (x, indices, updates),
            f"dense<{bounds}> : {index_type}",
            f"update_window_dims = {_dims(windows)}, {numbers('input')}, "
            f"scatter_dims_to_operand_dims = {_dims(indexed)}, index_vector_dim = 2",
        )

    def sort(self) -> None:
        """A sort along one dimension by its first operand, or
        lexicographically by its first two (the second decides between
        equal firsts), with a payload operand now and then. Float keys
        compare in TOTALORDER, their NaNs made one canonical NaN first. The
        sort is stable, or not where the second key is an iota along the
        sorted dimension (JAX's argsort), which leaves no two keys equal."""
        rng = self.rng
        x = self.any_value(lambda t: t.rank >= 1 and not t.is_bool, exact=True)
        keys = self.p.type_of(x)
        dim = rng.randrange(keys.rank)
        if self.later.random() < 0.25:  # long rows: the sort routine's radix sort
            element = self.random_element()
            shape = [rng.choice([1, 2, 3]) for _ in range(rng.randint(0, 1))]
            dim = rng.randint(0, len(shape))
            shape.insert(dim, rng.choice(LONG_ROWS))
            keys = TType(tuple(shape), self.int_type if element == "i1" else element)
            x = self.p.new_argument(keys)
        operands, names, types, lines = [x], ["$0"], [keys], []
        second = rng.choice(["none", "value", "iota"])
        if second == "value":
            y = self.value(keys.with_element(self.random_element()), exact=True)
            if self.p.type_of(y).is_bool:
                second = "none"
            else:
                operands.append(y)
                names.append("$1")
                types.append(self.p.type_of(y))
        elif second == "iota":
            iota = keys.with_element("i32")
            lines.append(f"$Pj = stablehlo.iota dim = {dim} : {iota}")
            names.append("$Pj")
            types.append(iota)
        if rng.random() < 0.4:
            operands.append(self.value(keys.with_element(self.random_element())))
            names.append(f"${len(operands) - 1}")
            types.append(self.p.type_of(operands[-1]))
        key_count = 1 if second == "none" else 2
        for k in range(key_count):
            if types[k].is_float:
                lines += self.canonical_nan(names[k], types[k], f"$Pk{k}")
                names[k] = f"$Pk{k}"
        scalars = [t.with_shape(()) for t in types]
        block_args = ", ".join(
            f"$Pa{i}{side}: {s}" for i, s in enumerate(scalars) for side in "ab"
        )
        b = "tensor<i1>"

        def compare(direction: str, k: int, out: str) -> str:
            t = scalars[k]
            kind = "TOTALORDER" if t.is_float else compare_type(t)
            return f"  {out} = stablehlo.compare {direction}, $Pa{k}a, $Pa{k}b, {kind} : ({t}, {t}) -> {b}\n"

        body = compare(rng.choice(["LT", "GT"]), 0, "$Pc0")
        result = "$Pc0"
        if key_count == 2:
            body += compare("EQ", 0, "$Pq")
            body += compare(rng.choice(["LT", "GT"]), 1, "$Pc1")
            body += f"  $Pm = stablehlo.and $Pq, $Pc1 : {b}\n"
            body += f"  $Pc = stablehlo.or $Pc0, $Pm : {b}\n"
            result = "$Pc"
        stable = "false" if second == "iota" and rng.random() < 0.7 else "true"
        type_list = ", ".join(str(t) for t in types)
        results = type_list if len(types) == 1 else f"({type_list})"
        self.emit(
            "".join(f"{line}\n" for line in lines)
            + f'$R = "stablehlo.sort"({", ".join(names)}) <{{dimension = {dim} : i64, is_stable = {stable}}}> ({{\n'
            f"^bb0({block_args}):\n" + body + f"  stablehlo.return {result} : {b}\n"
            f"}}) : ({type_list}) -> {results}",
            operands,
            types,
        )

    def index_element(self) -> str:
        """The element type of indices: mostly i32 (as JAX makes them), but
        any integer type, whose extremes targets must not wrap."""
        if self.rng.random() < 0.5:
            return "i32"
        return self.rng.choice(INT_TYPES)

    def start_indices(self, count: int) -> list[int]:
        """Scalar start indices (any value: dynamic slices clamp them)."""
        element = self.index_element()
        return [self.value(TType((), element)) for _ in range(count)]

    def dynamic_slice(self) -> None:
        x = self.any_value(lambda t: t.rank >= 1)
        source = self.p.type_of(x)
        sizes = [self.rng.randint(0 if d == 0 else 1, d) for d in source.shape]
        starts = self.start_indices(source.rank)
        target = source.with_shape(tuple(sizes))
        index_types = ", ".join(str(self.p.type_of(v)) for v in starts)
        names = ", ".join(f"${i + 1}" for i in range(len(starts)))
        self.emit(
            f"$R = stablehlo.dynamic_slice $0, {names}, sizes = {_dims(sizes)} : "
            f"({source}, {index_types}) -> {target}",
            [x, *starts],
            [target],
        )

    def dynamic_update_slice(self) -> None:
        x = self.any_value(lambda t: t.rank >= 1)
        source = self.p.type_of(x)
        update = self.value(
            source.with_shape(tuple(self.rng.randint(0, d) for d in source.shape))
        )
        starts = self.start_indices(source.rank)
        types = [source, self.p.type_of(update), *(self.p.type_of(v) for v in starts)]
        names = ", ".join(f"${i}" for i in range(len(types)))
        self.emit(
            f"$R = stablehlo.dynamic_update_slice {names} : "
            f"({', '.join(map(str, types))}) -> {source}",
            [x, update, *starts],
            [source],
        )

    def reduce_window(self) -> None:
        x = self.any_value(lambda t: t.rank >= 1 and not t.is_bool)
        source = self.p.type_of(x)
        rng = self.rng
        windows, strides, base, dilations, padding, shape = [], [], [], [], [], []
        for d in source.shape:
            while True:
                b, w = rng.choice([1, 1, 2]), rng.choice([1, 1, 2])
                low, high = rng.choice([0, 0, 1, 2]), rng.choice([0, 0, 1])
                size = rng.randint(1, 3)
                dilated = (max(d, 1) - 1) * b + 1 + low + high if d else low + high
                window = (size - 1) * w + 1
                if dilated >= window:
                    break
            stride = rng.choice([1, 1, 2, 3])
            windows.append(size)
            strides.append(stride)
            base.append(b)
            dilations.append(w)
            padding.append(f"[{low}, {high}]")
            shape.append((dilated - window) // stride + 1)
        if source.is_float:
            combiner = rng.choice(["add", "maximum", "minimum"])
        else:
            combiner = rng.choice(
                ["add", "multiply", "maximum", "minimum", "and", "or"]
            )
        scalar = source.with_shape(())
        target = source.with_shape(tuple(shape))
        init = literal(source.element, identity(combiner, source.element))
        operand, lines, result, after = "$0", [], "$R", []
        if combiner == "add" and source.is_float:
            negative = self.rng.random() < 0.5
            operand, lines = "$Pt", self.tame("$0", source, SUM_BOUNDS, "$Pt", negative)
            result, after = "$Ps", self.positive_zero("$Ps", target, "$R")

        self.emit(
            "".join(f"{line}\n" for line in lines)
            + f"$Pi = stablehlo.constant dense<{init}> : {scalar}\n"
            f'{result} = "stablehlo.reduce_window"({operand}, $Pi) <{{base_dilations = {_array(base)}, '
            f"padding = dense<[{', '.join(padding)}]> : tensor<{source.rank}x2xi64>, "
            f"window_dilations = {_array(dilations)}, "
            f"window_dimensions = {_array(windows)}, window_strides = {_array(strides)}}}> ({{\n"
            f"^bb0($Pa: {scalar}, $Pb: {scalar}):\n"
            f"  $Pc = stablehlo.{combiner} $Pa, $Pb : {scalar}\n"
            f"  stablehlo.return $Pc : {scalar}\n"
            f"}}) : ({source}, {scalar}) -> {target}"
            + "".join(f"\n{line}" for line in after),
            [x],
            [target],
            sums=bool(after),
        )

    def select_and_scatter(self) -> None:
        """JAX's max pooling gradient: each source element goes to the
        operand element its window selects, where the result combines them
        with add (float sources tamed as a sum's terms), maximum or minimum.
        The selection compares GE, GT, LE or LT, walking the window in
        row-major order: on ties GE and LE keep the first, GT and LT take
        the last. Windows padded (padding is never selected; a window of
        padding only scatters nothing), overlapping (strides below their
        size) or apart; the operand is not approximated (a selection jumps
        between neighbouring values)."""
        rng = self.rng
        x = self.any_value(lambda t: t.rank >= 1 and not t.is_bool, exact=True)
        operand = self.p.type_of(x)
        windows, strides, padding, shape = [], [], [], []
        for d in operand.shape:
            while True:
                size, stride = rng.randint(1, 3), rng.choice([1, 1, 2, 3])
                low, high = rng.choice([0, 0, 1]), rng.choice([0, 0, 1])
                if d + low + high >= size:
                    break
            windows.append(size)
            strides.append(stride)
            padding.append(f"[{low}, {high}]")
            shape.append((d + low + high - size) // stride + 1)
        source = operand.with_shape(tuple(shape))
        y = self.value(source)
        combiner = rng.choice(["add", "maximum", "minimum"])
        scalar = operand.with_shape(())
        init = literal(operand.element, identity(combiner, operand.element))
        lines, names = [], "$0, $1"
        sums = combiner == "add" and operand.is_float
        if sums:
            negative = rng.random() < 0.5
            lines = self.tame("$1", source, SUM_BOUNDS, "$Pt", negative)
            names = "$0, $Pt"
        direction = rng.choice(["GE", "GT", "LE", "LT"])
        kind = compare_type(operand)

        self.emit(
            "".join(f"{line}\n" for line in lines)
            + f"$Pi = stablehlo.constant dense<{init}> : {scalar}\n"
            f'$R = "stablehlo.select_and_scatter"({names}, $Pi) <{{'
            f"padding = dense<[{', '.join(padding)}]> : tensor<{operand.rank}x2xi64>, "
            f"window_dimensions = {_array(windows)}, window_strides = {_array(strides)}}}> ({{\n"
            f"^bb0($Pa: {scalar}, $Pb: {scalar}):\n"
            f"  $Pc = stablehlo.compare {direction}, $Pa, $Pb, {kind} : ({scalar}, {scalar}) -> tensor<i1>\n"
            f"  stablehlo.return $Pc : tensor<i1>\n"
            f"}}, {{\n"
            f"^bb0($Pd: {scalar}, $Pe: {scalar}):\n"
            f"  $Pf = stablehlo.{combiner} $Pd, $Pe : {scalar}\n"
            f"  stablehlo.return $Pf : {scalar}\n"
            f"}}) : ({operand}, {source}, {scalar}) -> {operand}",
            [x, y],
            [operand],
            sums=sums,
        )

    def call(self) -> None:
        """A call of a private function (JAX's `pjit` and `jnp.where`), whose
        body is one elementwise op; or of one of two arguments that calls
        another (their operands swapped) and returns that call's result too."""
        x = self.any_value()
        type_ = self.p.type_of(x)
        t = str(type_)
        if self.rng.random() < 0.6:
            body = self.binary_lines("%r", "%a", "%a", type_)
            self.emit(
                f"$R = func.call $F($0) : ({t}) -> {t}",
                [x],
                [type_],
                function=f"func.func private $F(%a: {t}) -> {t} {{\n"
                + "".join(f"  {line}\n" for line in body)
                + f"  return %r : {t}\n}}",
            )
            return
        y = self.value(type_)
        inner = self.binary_lines("%r", "%a", "%b", type_)
        outer = self.binary_lines("%r", "%c", "%a", type_)
        self.emit(
            f"$R = func.call $F($0, $1) : ({t}, {t}) -> ({t}, {t})",
            [x, y],
            [type_, type_],
            function=f"func.func private $F(%a: {t}, %b: {t}) -> ({t}, {t}) {{\n"
            f"  %c = func.call $Fi(%b, %a) : ({t}, {t}) -> {t}\n"
            + "".join(f"  {line}\n" for line in outer)
            + f"  return %r, %c : {t}, {t}\n}}\n"
            f"func.func private $Fi(%a: {t}, %b: {t}) -> {t} {{\n"
            + "".join(f"  {line}\n" for line in inner)
            + f"  return %r : {t}\n}}",
        )

    def map(self) -> None:
        """`map` of one elementwise op over two operands of one type."""
        x = self.any_value()
        type_ = self.p.type_of(x)
        y = self.value(type_)
        scalar = type_.with_shape(())
        continuous = bool({x, y} & self.approximated)
        body = self.binary_lines("$Pr", "$Pa", "$Pb", scalar, continuous=continuous)
        dims = f"array<i64: {', '.join(map(str, range(type_.rank)))}>"
        self.emit(
            f'$R = "stablehlo.map"($0, $1) ({{\n'
            f"^bb0($Pa: {scalar}, $Pb: {scalar}):\n"
            + "".join(f"  {line}\n" for line in body)
            + f"  stablehlo.return $Pr : {scalar}\n"
            f"}}) {{dimensions = {dims if type_.rank else 'array<i64>'}}} : "
            f"({type_}, {type_}) -> {type_}",
            [x, y],
            [type_],
        )

    def optimization_barrier(self) -> None:
        """JAX's `optimization_barrier` (rematerialization's) of one to three
        values, now and then one of them twice."""
        values = [self.any_value() for _ in range(self.rng.randint(1, 3))]
        if self.rng.random() < 0.3:
            values.append(values[0])
        types = [self.p.type_of(v) for v in values]
        names = ", ".join(f"${i}" for i in range(len(values)))
        self.emit(
            f"$R = stablehlo.optimization_barrier {names} : "
            + ", ".join(map(str, types)),
            values,
            types,
        )

    # --- control flow -----------------------------------------------------------

    def while_(self) -> None:
        rng = self.rng
        carried = [self.any_value() for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.5:  # two slots of one type, for a value yielded twice
            carried.append(self.value(self.p.type_of(carried[0])))
        types = [self.p.type_of(v) for v in carried]
        continuous = bool(set(carried) & self.approximated)
        counter = TType((), "i32")
        trips = rng.randint(0, 4)
        slots = ", ".join(f"$Pi{i} = ${i}" for i in range(len(carried)))
        body: list[str] = []
        yields: list[str] = []
        for i, type_ in enumerate(types):
            same = [j for j, t in enumerate(types) if t == type_]
            other = f"$Pi{rng.choice(same)}"
            out = f"$Pb{i}"
            roll = rng.random()
            if roll < 0.15:
                yields.append(f"$Pi{i}")
                continue
            if roll < 0.25 and yields and types[i] == types[i - 1]:
                yields.append(yields[-1])  # one value into two slots
                continue
            if roll < 0.6:
                body.append(self.unary_line(out, f"$Pi{i}", type_, True, continuous))
            else:
                body += self.binary_lines(
                    out, f"$Pi{i}", other, type_, True, continuous
                )
            yields.append(out)
        all_types = ", ".join(str(t) for t in [counter, *types])
        condition, captured = self.loop_condition(types, len(carried))
        self.emit(
            f"$Pz = stablehlo.constant dense<0> : {counter}\n"
            f"$R = stablehlo.while($Pk = $Pz, {slots}) : {all_types}\n"
            f"cond {{\n"
            f"  $Pn = stablehlo.constant dense<{trips}> : {counter}\n"
            f"  $Pc = stablehlo.compare LT, $Pk, $Pn, SIGNED : ({counter}, {counter}) -> tensor<i1>\n"
            + "".join(f"  {line}\n" for line in condition)
            + f"  stablehlo.return {'$Pe' if condition else '$Pc'} : tensor<i1>\n"
            f"}} do {{\n"
            f"  $Po = stablehlo.constant dense<1> : {counter}\n"
            f"  $Pk1 = stablehlo.add $Pk, $Po : {counter}\n"
            + "".join(f"  {line}\n" for line in body)
            + f"  stablehlo.return $Pk1, {', '.join(yields)} : {all_types}\n"
            f"}}",
            carried + captured,
            [counter, *types],
        )

    def loop_condition(
        self, types: list[TType], captured_at: int
    ) -> tuple[list[str], list[int]]:
        """Lines of a while condition (`while_`) that make its trip count
        depend on data, `$Pe`: the counter `$Pk` below its bound (`$Pc`)
        and, now and then, below a value the condition captures from above
        (read through `$captured_at`), or a carried integer `$Pi<i>`
        reduced to its largest or smallest element compared with a
        constant; and the captured values. Empty for a fixed count."""
        rng = self.rng
        roll = rng.random()
        ints = [i for i, t in enumerate(types) if t.is_int]
        b = "tensor<i1>"
        if roll < 0.2:
            bound = TType((), "i32")
            lines = [
                f"$Pd = stablehlo.compare LT, $Pk, ${captured_at}, SIGNED : ({bound}, {bound}) -> {b}"
            ]
            captured = [self.value(bound)]
        elif roll < 0.45 and ints:
            i = rng.choice(ints)
            type_, lines, captured = types[i], [], []
            scalar, value = type_.with_shape(()), f"$Pi{i}"
            if type_.rank:
                combiner = rng.choice(["maximum", "minimum"])
                init = literal(type_.element, identity(combiner, type_.element))
                dims = _dims(range(type_.rank))
                lines = [
                    f"$Pv = stablehlo.constant dense<{init}> : {scalar}",
                    f"$Pm = stablehlo.reduce({value} init: $Pv) applies stablehlo.{combiner} "
                    f"across dimensions = {dims} : ({type_}, {scalar}) -> {scalar}",
                ]
                value = "$Pm"
            info = int_info(type_)
            limit = rng.randint(max(int(info.min), -8), min(int(info.max), 8))
            direction = rng.choice(DIRECTIONS)
            lines += [
                f"$Pl = stablehlo.constant dense<{limit}> : {scalar}",
                f"$Pd = stablehlo.compare {direction}, {value}, $Pl, "
                f"{compare_type(type_)} : ({scalar}, {scalar}) -> {b}",
            ]
        else:
            return [], []
        return [*lines, f"$Pe = stablehlo.and $Pc, $Pd : {b}"], captured

    def scan(self) -> None:
        """JAX's `lax.scan` (and `fori_loop` over an array): a while loop
        whose body reads row `i` of `xs` with dynamic_slice (forwards or
        backwards; past the end sometimes, where the start is clamped),
        combines it with a carried value, and writes the result into row
        `i` of `ys` with dynamic_update_slice."""
        rng = self.rng
        xs = self.any_value(lambda t: t.rank >= 1 and t.shape[0] >= 1)
        type_ = self.p.type_of(xs)
        ys = self.value(type_)
        row = type_.with_shape(type_.shape[1:])
        carry = self.value(row)
        rows = type_.shape[0]
        trips = rows if rng.random() < 0.8 else rng.randint(0, rows + 2)
        counter, b = TType((), "i32"), "tensor<i1>"
        one_row = type_.with_shape((1, *row.shape))
        continuous = bool({xs, ys, carry} & self.approximated)
        index = "$Pk"
        lines = []
        if rng.random() < 0.3:  # backwards: rows - 1 - i
            lines.append(f"$Pm = stablehlo.constant dense<{rows - 1}> : {counter}")
            lines.append(f"$Pr = stablehlo.subtract $Pm, $Pk : {counter}")
            index = "$Pr"
        zeros = "".join(", $Pz" for _ in row.shape)
        sizes = _dims([1, *row.shape])
        if row.shape:
            lines.append(f"$Pz = stablehlo.constant dense<0> : {counter}")
        lines += [
            f"$Ps = stablehlo.dynamic_slice $Pi0, {index}{zeros}, sizes = {sizes} : "
            f"({type_}, {', '.join([str(counter)] * type_.rank)}) -> {one_row}",
            f"$Pt = stablehlo.reshape $Ps : ({one_row}) -> {row}",
            *self.binary_lines("$Pc", "$Pt", "$Pi2", row, True, continuous),
            self.unary_line("$Pu", "$Pc", row, True, continuous),
            f"$Pv = stablehlo.reshape $Pu : ({row}) -> {one_row}",
            f"$Pw = stablehlo.dynamic_update_slice $Pi1, $Pv, {index}{zeros} : "
            f"({type_}, {one_row}, {', '.join([str(counter)] * type_.rank)}) -> {type_}",
        ]
        all_types = f"{counter}, {type_}, {type_}, {row}"
        self.emit(
            f"$Pq = stablehlo.constant dense<0> : {counter}\n"
            f"$R = stablehlo.while($Pk = $Pq, $Pi0 = $0, $Pi1 = $1, $Pi2 = $2) : {all_types}\n"
            f"cond {{\n"
            f"  $Pn = stablehlo.constant dense<{trips}> : {counter}\n"
            f"  $Pl = stablehlo.compare LT, $Pk, $Pn, SIGNED : ({counter}, {counter}) -> {b}\n"
            f"  stablehlo.return $Pl : {b}\n"
            f"}} do {{\n"
            f"  $Po = stablehlo.constant dense<1> : {counter}\n"
            f"  $Pk1 = stablehlo.add $Pk, $Po : {counter}\n"
            + "".join(f"  {line}\n" for line in lines)
            + f"  stablehlo.return $Pk1, $Pi0, $Pw, $Pc : {all_types}\n"
            f"}}",
            [xs, ys, carry],
            [counter, type_, type_, row],
        )

    def case(self) -> None:
        """`case` on an i32 index (out of range: the last branch) with one
        to three branches, or `if` on an i1, each branch returning the
        captured values or ops of them."""
        rng = self.rng
        choice = TType((), "i1" if rng.random() < 0.3 else "i32")
        index = self.value(choice)
        results = [self.any_value() for _ in range(rng.randint(1, 2))]
        types = [self.p.type_of(v) for v in results]
        operands = [index, *results]
        branches = []
        for b in range(2 if choice.is_bool else rng.randint(1, 3)):
            lines, returned = [], []
            for i, type_ in enumerate(types):
                name = f"$P{b}x{i}"
                if rng.random() < 0.3:
                    returned.append(f"${i + 1}")
                    continue
                continuous = results[i] in self.approximated
                lines.append(
                    self.unary_line(name, f"${i + 1}", type_, continuous=continuous)
                )
                returned.append(name)
            type_list = ", ".join(str(t) for t in types)
            lines.append(f"stablehlo.return {', '.join(returned)} : {type_list}")
            branches.append("".join(f"  {line}\n" for line in lines))
        result_text = (
            str(types[0]) if len(types) == 1 else f"({', '.join(map(str, types))})"
        )
        op = "if" if choice.is_bool else "case"
        self.emit(
            f'$R = "stablehlo.{op}"($0) ({{\n'
            + "}, {\n".join(branches)
            + f"}}) : ({choice}) -> {result_text}",
            operands,
            types,
        )


def _prime_factors(n: int) -> list[int]:
    factors, d = [], 2
    while n > 1 and d * d <= n:
        while n % d == 0:
            factors.append(d)
            n //= d
        d += 1
    if n > 1:
        factors.append(n)
    return factors


def generate(
    seed: int, max_ops: int = 12, elements: tuple[str, ...] | None = None
) -> Program:
    """The random program of this seed (`elements`: the elementwise mode
    over them, `Generator`)."""
    return Generator(seed, max_ops, elements).program()

"""Integer ranges of `index` values, and index expressions as linear sums.

`fold-index` needs to know that an induction variable of a loop from 0 to 8
lies in [0, 7], and that `%a * 8 + %b` is two terms and a constant, to fold
the `divui`/`remui` pairs a reshape's index map leaves. The ranges are exact
integers (Python ints): a result whose range leaves the signed 64-bit range
has no range, so a value with a range never wrapped and its signed and
unsigned readings agree whenever its lower end is non-negative.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Block, Operation, SSAValue
from xlir.analysis.loop_utils import constant_int, static_trip_count
from xlir.dialects.loop.loops import Bound, ForOp, ParallelOp

Range = tuple[int, int]
"""Inclusive lower and upper ends."""

_MIN, _MAX = -(2**63), 2**63 - 1
_DEPTH = 16


def _checked(lo: int, hi: int) -> Range | None:
    return (lo, hi) if _MIN <= lo <= hi <= _MAX else None


def _bound_range(bound: Bound, depth: int) -> Range | None:
    return (bound, bound) if isinstance(bound, int) else value_range(bound, depth)


def _induction_range(block: Block, index: int, depth: int) -> Range | None:
    loop = block.parent_op()
    if isinstance(loop, ForOp) and index != 0:
        return None
    if not isinstance(loop, ParallelOp | ForOp):
        return None
    lower = loop.lower_bounds[index]
    upper = loop.upper_bounds[index]
    step = loop.steps[index]
    count = static_trip_count(lower, upper, step)
    if count is not None:
        assert isinstance(lower, int) and isinstance(step, int)
        return (lower, lower + max(count - 1, 0) * step)
    low, high = _bound_range(lower, depth), _bound_range(upper, depth)
    if low is None or high is None:
        return None
    # A body that runs has lower <= iv < upper; one that never runs may be
    # folded any way, so an empty range is reported as a point.
    return _checked(low[0], max(low[0], high[1] - 1))


def most_trips(lower: Bound, upper: Bound, step: Bound) -> int:
    """Iterations of one loop dimension: exact when static, else the most
    the ranges of the bounds allow, else 1 (unknown is taken as small)."""
    count = static_trip_count(lower, upper, step)
    if count is not None:
        return count
    low = (lower, lower) if isinstance(lower, int) else value_range(lower)
    high = (upper, upper) if isinstance(upper, int) else value_range(upper)
    if low is None or high is None or not isinstance(step, int):
        return 1
    return max(0, -(-(high[1] - low[0]) // step))


def value_range(value: SSAValue, depth: int = 0) -> Range | None:
    """The values an integer `value` can take, or None when unknown."""
    if depth > _DEPTH:
        return None
    if (constant := constant_int(value)) is not None:
        return (constant, constant)
    owner = value.owner
    if isinstance(owner, Block):
        return _induction_range(owner, owner.args.index(value), depth + 1)
    if isinstance(owner, arith.IndexCastOp):
        return _cast_range(owner)
    if not isinstance(owner, arith.SignlessIntegerBinaryOperation):
        return None
    a = value_range(owner.lhs, depth + 1)
    b = value_range(owner.rhs, depth + 1)
    if a is None or b is None:
        return None
    match owner:
        case arith.AddiOp():
            return _checked(a[0] + b[0], a[1] + b[1])
        case arith.SubiOp():
            return _checked(a[0] - b[1], a[1] - b[0])
        case arith.MuliOp():
            products = [x * y for x in a for y in b]
            return _checked(min(products), max(products))
        case arith.MinSIOp():
            return (min(a[0], b[0]), min(a[1], b[1]))
        case arith.MaxSIOp():
            return (max(a[0], b[0]), max(a[1], b[1]))
        case arith.DivUIOp() | arith.DivSIOp() | arith.FloorDivSIOp():
            if a[0] >= 0 and b[0] > 0:
                return (a[0] // b[1], a[1] // b[0])
        case arith.RemUIOp() | arith.RemSIOp():
            if a[0] >= 0 and b[0] > 0:
                return a if a[1] < b[0] else (0, b[1] - 1)
        case arith.ShLIOp():
            if a[0] >= 0 and b[0] >= 0 and b[1] < 64:
                return _checked(a[0] << b[0], a[1] << b[1])
        case arith.ShRUIOp() | arith.ShRSIOp():
            if a[0] >= 0 and b[0] >= 0 and b[1] < 64:
                return (a[0] >> b[1], a[1] >> b[0])
        case _:
            pass
    return None


def _cast_range(cast: arith.IndexCastOp) -> Range | None:
    """An index cast of an integer: its constant, else any value of the
    source's width, read as signed (the cast sign-extends)."""
    if (constant := constant_int(cast.input)) is not None:
        return (constant, constant)
    source = cast.input.type
    if not isinstance(source, IntegerType) or source.width.data > 64:
        return None
    half = 1 << (source.width.data - 1)
    return (-half, half - 1)


Linear = tuple[dict[SSAValue, int], int]
"""A sum of terms (value -> coefficient) plus a constant."""


_Remainder = type[arith.RemUIOp] | type[arith.RemSIOp]
_PAIRS: dict[type[Operation], _Remainder] = {
    arith.DivUIOp: arith.RemUIOp,
    arith.DivSIOp: arith.RemSIOp,
}
"""Truncating divisions and their remainders: `(x / c) * c + x rem c == x`
for every `x` and constant `c` > 1, wrapping included."""


def _quotient(value: SSAValue) -> tuple[SSAValue, int, _Remainder] | None:
    """`(x, c, remainder op)` when `value` is `x / c` for a constant c > 1."""
    owner = value.owner
    if isinstance(owner, arith.DivUIOp | arith.DivSIOp):
        divisor = constant_int(owner.rhs)
        if divisor is not None and divisor > 1:
            return owner.lhs, divisor, _PAIRS[type(owner)]
    return None


def _is_remainder(
    value: SSAValue, source: SSAValue, divisor: int, kind: _Remainder
) -> bool:
    owner = value.owner
    return (
        isinstance(owner, kind)
        and owner.lhs is source
        and constant_int(owner.rhs) == divisor
    )


def _recombine(
    terms: dict[SSAValue, int], depth: int, through: Callable[[SSAValue], SSAValue]
) -> Linear:
    """A sum with each `a*c * (x / c) + a * (x rem c)` replaced by `a * x`
    (expanded): what a delinearized index linearized again leaves."""
    terms = dict(terms)
    constant = 0
    for term in list(terms):
        if term not in terms or (quotient := _quotient(term)) is None:
            continue
        source, divisor, kind = quotient
        remainder = next(
            (t for t in terms if _is_remainder(t, source, divisor, kind)), None
        )
        if remainder is None or terms[term] != terms[remainder] * divisor:
            continue
        scale = terms.pop(remainder)
        del terms[term]
        inner, inner_constant = linear_form(source, depth + 1, through)
        for t, c in inner.items():
            terms[t] = terms.get(t, 0) + scale * c
        constant += scale * inner_constant
    return {t: c for t, c in terms.items() if c}, constant


def linear_form(
    value: SSAValue,
    depth: int = 0,
    through: Callable[[SSAValue], SSAValue] = lambda value: value,
) -> Linear:
    """`value` as a linear sum through `addi`, `subi` and `muli` by
    constants, with division/remainder pairs recombined; anything else is a
    term of its own. `through` gives the value each value stands for (a
    caller that has folded some ops in its head, not yet in the IR)."""
    value = through(value)
    if (constant := constant_int(value)) is not None:
        return {}, constant
    owner = value.owner
    if depth < _DEPTH and isinstance(owner, arith.AddiOp | arith.SubiOp):
        sign = 1 if isinstance(owner, arith.AddiOp) else -1
        terms, constant = linear_form(owner.lhs, depth + 1, through)
        right, right_constant = linear_form(owner.rhs, depth + 1, through)
        terms = dict(terms)
        for term, coefficient in right.items():
            terms[term] = terms.get(term, 0) + sign * coefficient
        terms, extra = _recombine(terms, depth, through)
        return terms, constant + sign * right_constant + extra
    if depth < _DEPTH and isinstance(owner, arith.MuliOp):
        for scaled, factor in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs)):
            if (times := constant_int(through(factor))) is not None:
                terms, constant = linear_form(scaled, depth + 1, through)
                if times == 0:
                    return {}, 0
                return {t: c * times for t, c in terms.items()}, constant * times
    return {value: 1}, 0


def linear_range(terms: dict[SSAValue, int], constant: int) -> Range | None:
    """The range of a linear sum from its terms' ranges."""
    lo = hi = constant
    for term, coefficient in terms.items():
        found = value_range(term)
        if found is None:
            return None
        ends = (coefficient * found[0], coefficient * found[1])
        lo, hi = lo + min(ends), hi + max(ends)
    return _checked(lo, hi)


def compare_ranges(predicate: int, a: Range, b: Range) -> bool | None:
    """The answer of `cmpi` (arith's predicate numbers) for every pair in the
    ranges, or None when it depends on the values."""
    if predicate >= 6:  # unsigned: the same as signed on non-negative ranges
        if a[0] < 0 or b[0] < 0:
            return None
        predicate -= 4
    if predicate in (0, 1):  # eq, ne
        if a[0] == a[1] == b[0] == b[1]:
            return predicate == 0
        if a[1] < b[0] or b[1] < a[0]:
            return predicate == 1
        return None
    less = {2: (a, b, False), 3: (a, b, True), 4: (b, a, False), 5: (b, a, True)}
    low, high, or_equal = less[predicate]  # slt, sle, sgt, sge: low < high?
    if low[1] < high[0] or (or_equal and low[1] <= high[0]):
        return True
    if low[0] > high[1] or (not or_equal and low[0] >= high[1]):
        return False
    return None

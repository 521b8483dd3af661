"""`int-in-float`: integer work a vector CPU does lane by lane, as float code.

Two kinds of integer op keep a loop that LLVM would vectorize scalar on
x86 (and Arm's NEON): a division by a value it does not know (no vector
integer divide: one `idiv` per lane), and a float to integer conversion
(`arith.fptosi`/`fptoui` lower to the saturating `llvm.fptosi.sat`, as
xDSL's llvm dialect has no plain `fptosi`, which x86's backend turns into
one scalar conversion and one branch, for NaN, per lane). The other ops of
a fused elementwise loop then run one element at a time with them. This
pass writes both, in every `loop.kernel`, on integers of at most 32 bits
(scalars or vectors), as float code that vectorizes and gives the same
results:

* **Divisions** (`arith.divsi`, `divui`, `remsi`, `remui`): both operands
  converted to f64 (to f32 for 16 bits or fewer), divided, the quotient
  truncated (`math.trunc`) and read back (`integer_bits`); a remainder is
  `a - q * b`. Exact: for |a| < 2^w and 1 <= |b| < 2^w (w = 32 unsigned,
  31 signed), a quotient that is not an integer is at least 1/|b| from the
  nearest one, while the rounded float quotient is within |a/b| 2^-p of
  it (p = 53 for f64, 24 for f32): 2^(w-p)/|b| < 1/|b| for w <= 32 with
  f64 and w <= 16 with f32, so truncation gives the integer quotient; an
  integer quotient is exact in the float. `a - q * b` wraps as the integer
  op would. What the integer op leaves undefined (a zero divisor, the
  signed minimum over -1) gives the low bits of the float's result, where
  the integer op's lowering would be undefined behaviour; `hlo-to-loop`
  guards both. Left alone: a divisor that is a constant
  (`analysis/known_integers.py`: a constant, a splat, `hlo-to-loop`'s
  guard of one), which LLVM divides with a multiply and shifts, faster than
  a float division.
* **Conversions** of an f16, f32 or f64 value: widened to f64 (to f32 for
  16 bits or fewer from an f16 or f32: their range and every integer in it
  are exact in f32, and a vector of f32 holds twice the lanes), clamped to
  the integer type's range, truncated, read back, NaN sent to 0: the
  saturating conversion's results. `hlo-to-loop` guards a conversion
  (`lowering/scalar.py`'s `float_to_int`): `select(inside, x, 0)` into it,
  and selects of the bounds and 0 after it, under compares of `x`. The
  float code of `x` itself gives those results already, so where every
  select after the conversion picks what the saturating conversion of `x`
  is under its compare, and those compares cover every lane `inside`
  leaves out, the float code reads `x` and takes the place of the last
  select; the guard's ops, dead, are erased.

Left alone: 64-bit integers and `index` (f64 has no room for them), and
conversions to i1.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AnyFloat,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    ModuleOp,
    VectorType,
    f32,
    f64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import is_trivially_dead
from xlir.analysis.known_integers import known, known_float
from xlir.analysis.loop_utils import kernel_ops_of
from xlir.dialects.arith import VECTOR_FORMS, predicate
from xlir.passes.loop.math_approximations.scalar_builder import ScalarBuilder, Value

DIVISIONS = (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp)
UNSIGNED_DIVISIONS = (arith.DivUIOp, arith.RemUIOp)

MAGIC = {64: 1.5 * 2.0**52, 32: 1.5 * 2.0**23}
"""By float width: added to an integer-valued float of magnitude below a
quarter of it, a sum whose low bits are the integer's two's complement."""

CONVERSIONS = (
    arith.FPToSIOp,
    arith.FPToUIOp,
    VECTOR_FORMS[arith.FPToSIOp],
    VECTOR_FORMS[arith.FPToUIOp],
)
UNSIGNED_CONVERSIONS = (arith.FPToUIOp, VECTOR_FORMS[arith.FPToUIOp])


def integer_bits(value: Value, integer: IntegerType) -> Value:
    """An integer-valued f32 or f64 `value` (below 2^22 or 2^51 in
    magnitude) as an `integer` of at most its width: the low bits of
    `value + MAGIC`, exact in the float, whose last bits are the value's
    two's complement."""
    float_ = value.element
    assert isinstance(float_, Float32Type | Float64Type)
    bits = (value + MAGIC[float_.bitwidth]).bits()
    return bits if bits.element == integer else bits.truncate(integer)


def float_for(width: int) -> AnyFloat | None:
    """The float whose quotients of `width`-bit integers truncate exactly
    (module docstring), or None."""
    if width <= 16:
        return f32
    if width <= 32:
        return f64
    return None


def divide_in_float(op: Operation) -> None:
    """Replace one division or remainder by its float form, where it has
    one (module docstring)."""
    dividend, divisor = op.operands
    type_ = dividend.type
    lanes = type_.get_shape()[0] if isinstance(type_, VectorType) else None
    element = type_.element_type if isinstance(type_, VectorType) else type_
    if not isinstance(element, IntegerType):
        return  # index
    float_ = float_for(element.width.data)
    if float_ is None or known(divisor) is not None:
        return
    code = ScalarBuilder(Builder(InsertPoint.before(op)), None, lanes)
    to_float = arith.UIToFPOp if isinstance(op, UNSIGNED_DIVISIONS) else arith.SIToFPOp

    def converted(value: SSAValue) -> Value:
        return code.made(code.form(to_float), (value,), code.shaped(float_))

    quotient = code.made(
        math.TruncOp, ((converted(dividend) / converted(divisor)).ssa,)
    )
    result = integer_bits(quotient, element)
    if isinstance(op, arith.RemSIOp | arith.RemUIOp):
        result = code.wrap(dividend) - result * code.wrap(divisor)
    Rewriter.replace_op(op, (), [result.ssa])


def convert_in_float(op: Operation) -> None:
    """Replace one conversion by its float code, where it has one (module
    docstring)."""
    source, result = op.operands[0].type, op.results[0].type
    lanes = source.get_shape()[0] if isinstance(source, VectorType) else None
    element = source.element_type if isinstance(source, VectorType) else source
    integer = result.element_type if isinstance(result, VectorType) else result
    if not isinstance(element, Float16Type | Float32Type | Float64Type):
        return
    assert isinstance(integer, IntegerType)
    width = integer.width.data
    if not 1 < width <= 32:
        return
    if isinstance(op, UNSIGNED_CONVERSIONS):
        low, high = 0, (1 << width) - 1
    else:
        low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    guard = unguarded(op, low, high)
    code = ScalarBuilder(Builder(InsertPoint.before(op)), None, lanes)
    x = code.wrap(op.operands[0] if guard is None else guard[0])
    float_ = f64 if isinstance(element, Float64Type) else float_for(width)
    assert float_ is not None  # 1 < width <= 32
    wide = x if element == float_ else x.extend(float_)
    clamped = code.select(
        wide.lt(float(low)),
        float(low),
        code.select(wide.gt(float(high)), float(high), wide),
    )
    truncated = code.made(math.TruncOp, (clamped.ssa,))
    converted = code.select(x.is_nan(), 0, integer_bits(truncated, integer))
    if guard is None:
        Rewriter.replace_op(op, (), [converted.ssa])
        return
    last = guard[1]
    last.results[0].replace_all_uses_with(converted.ssa)
    erase_dead(last)


def unguarded(
    conversion: Operation, low: int, high: int
) -> tuple[SSAValue, Operation] | None:
    """`(x, last)` where `conversion` (to integers in `[low, high]`) is
    guarded as the module docstring says: it converts `select(inside, x,
    _)` and its result, chained through selects `select(c, k, .)`, ends
    as `last`'s; every `c` a compare of `x` under which the saturating
    conversion of `x` is `k`, and `inside` the complement of an `ori` of
    such `c`s. Else None."""
    guarded = conversion.operands[0].owner
    if not isinstance(guarded, arith.SelectOp):
        return None
    x = guarded.lhs
    inside = guarded.cond.owner
    if not isinstance(inside, arith.XOrIOp) or known(inside.rhs) != 1:
        return None
    leaves = _or_leaves(inside.lhs)
    covered: set[SSAValue] = set()
    value, last = conversion.results[0], None
    while (use := value.get_unique_use()) is not None:
        select = use.operation
        if not (isinstance(select, arith.SelectOp) and use.index == 2):
            break
        fixed = _saturated_under(select.cond, x, low, high)
        picked = known(select.lhs)
        if fixed is None or picked is None or (fixed - picked) % (high - low + 1):
            break
        covered.add(select.cond)
        value, last = select.results[0], select
    if last is None or not leaves <= covered:
        return None
    return x, last


def _or_leaves(value: SSAValue) -> set[SSAValue]:
    """The values an `arith.ori` tree ors together (`value` itself if it
    is no `ori`)."""
    op = value.owner
    if not isinstance(op, arith.OrIOp):
        return {value}
    return _or_leaves(op.lhs) | _or_leaves(op.rhs)


def _saturated_under(
    condition: SSAValue, x: SSAValue, low: int, high: int
) -> int | None:
    """The saturating conversion of `x` (to `[low, high]`, NaN to 0)
    wherever `condition` holds, where its compare alone says so: `x`
    unordered with itself, at or above a float of at least `high`, at or
    below one of at most `low`. Else None."""
    compare = condition.owner
    if not isinstance(compare, arith.CmpfOp) or compare.lhs != x:
        return None
    name = predicate(compare)
    if name == "uno":
        return 0 if compare.rhs == x else None
    bound = known_float(compare.rhs)
    if bound is None:
        return None
    if name in ("ogt", "oge") and bound >= high:
        return high
    if name in ("olt", "ole") and bound <= low:
        return low
    return None


def erase_dead(op: Operation) -> None:
    """Erase `op` if nothing uses it and it has no effect, then the ops
    that made its operands, where that leaves them dead in turn."""
    if not is_trivially_dead(op):
        return
    producers = [o.owner for o in op.operands]
    Rewriter.erase_op(op)
    for producer in producers:
        if isinstance(producer, Operation) and producer.parent is not None:
            erase_dead(producer)


@dataclass(frozen=True)
class IntInFloatPass(ModulePass):
    """Integer divisions and float to integer conversions in kernels as
    float code (module docstring)."""

    name = "int-in-float"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for found in kernel_ops_of(op, DIVISIONS + CONVERSIONS):
            if isinstance(found, DIVISIONS):
                divide_in_float(found)
            else:
                convert_in_float(found)

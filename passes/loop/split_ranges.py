"""`split-ranges{max-pieces=N}`: index-set splitting of kernels' loop nests.

`hlo-to-loop` lowers a concatenate, a pad and a reverse to one nest over the
output whose body loads from every operand at clamped indices and chooses
by the output index:

    loop.parallel (%i, %j) = (0, 0) to (128, 384) step (1, 1) {
      %a = loop.load %x[%i, min(max(%j, 0), 127)]
      %b = loop.load %y[%i, min(max(%j - 128, 0), 127)]
      %c = loop.load %z[%i, min(max(%j - 256, 0), 127)]
      %v = select(%j < 128, %a, select(%j < 256, %b, %c))
      loop.store %v, %out[%i, %j]
    }

Every element then loads from all three operands through indices LLVM can
only gather. But `%j < 128` changes its answer only at `%j = 128`: on
`[0, 128)`, `[128, 256)` and `[256, 384)` every comparison and clamp has one
answer, and each piece is a plain copy (a pad's border a plain fill) that
LLVM turns into `memcpy`/`memset` or a unit-stride vector loop.

A nest is split at the points of a dimension (static bounds, step 1) where
a `cmpi`, `minsi` or `maxsi` on `index` values whose difference is
`+-iv + c` (`index_ranges.linear_form`, on the ops folded so far) changes its
answer, outermost dimension first, and the pieces again, as long as the
nest has at most `max-pieces` pieces. On each piece the ops its ranges
decide fold (a clamp to the operand it takes, a comparison to its answer,
then the `select`s, `andi`s and `ori`s those decide), and only the ops
still needed are copied into it: a pad's border rows, where the row's
comparison is false, lose the column comparisons with the rest, so they
are not split by columns. Outermost first keeps a pad at 7 pieces where
innermost first makes 15. Only the outermost `loop.parallel`s of kernels
whose bodies hold no regions are split, before `parallelize` (each piece is
threaded on its own). Each element is computed by the same ops in the same
order: results are bit for bit the same. Pieces of one iteration each
along the last dimension, consecutive and alike elsewhere, stay one nest
(`_single_iteration_runs`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xlir.analysis.index_ranges import Linear, compare_ranges, linear_form
from xlir.analysis.loop_utils import constant_int, is_pure, plain_nests
from xlir.dialects.loop.loops import ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp

from xlir.diagnostics import XlirError

DEFAULT_MAX_PIECES = 8
"""Pieces a nest may become: a pad of a concatenation of three takes 7."""

_DECIDERS = (arith.CmpiOp, arith.MinSIOp, arith.MaxSIOp)
_I1 = IntegerType(1)

Iterations = tuple[int, int]
"""A dimension's iterations [begin, end) (`index_ranges.Range` is inclusive)."""


def _answer(op: Operation, difference: int) -> bool:
    """What `op` decides when lhs - rhs is `difference`: a (signed)
    comparison its answer, a min or max whether it takes its lhs."""
    if isinstance(op, arith.CmpiOp):
        answer = compare_ranges(
            op.predicate.value.data, (difference, difference), (0, 0)
        )
        assert answer is not None
        return answer
    return difference <= 0 if isinstance(op, arith.MinSIOp) else difference >= 0


def _changes(
    op: Operation, sign: int, constant: int, iterations: Iterations
) -> list[int]:
    """The iterations p inside `iterations` where `op`'s answer at p differs
    from its answer at p - 1, lhs - rhs being `sign * iv + constant`."""
    begin, end = iterations
    root = -constant * sign
    return [
        p
        for p in (root, root + 1)
        if begin < p < end
        and _answer(op, sign * (p - 1) + constant) != _answer(op, sign * p + constant)
    ]


def _decides_on_index(op: Operation) -> bool:
    """A signed comparison, min or max of `index` values."""
    if not isinstance(op, _DECIDERS) or op.operands[0].type != IndexType():
        return False
    return not isinstance(op, arith.CmpiOp) or op.predicate.value.data <= 5


class _Body:
    """What every piece of a nest shares: its body's ops, which of them can
    decide or be decided, and which may go when unused (they write nothing:
    a load only reads, at indices the lowering keeps in bounds)."""

    def __init__(self, nest: ParallelOp, ops: list[Operation]):
        self.nest, self.ops = nest, ops
        self.own = set(ops)
        self.choosers = [
            op
            for op in ops
            if _decides_on_index(op)
            or isinstance(op, arith.SelectOp)
            or (isinstance(op, arith.AndIOp | arith.OrIOp) and op.result.type == _I1)
        ]
        self.removable = {
            op
            for op in ops
            if isinstance(op, LoadOp) or (is_pure(op) and not isinstance(op, YieldOp))
        }


class _Folding:
    """What a box of iterations decides in a nest's body: values that equal
    other values, i1 values that are constants, the ops still needed, and
    the points where an undecided op would be decided by a split."""

    def __init__(self, body: _Body, box: Sequence[Iterations | None]):
        self.body, self.box = body, box
        self.dims = {
            iv: d for d, iv in enumerate(body.nest.induction_vars) if box[d] is not None
        }
        self.equal: dict[SSAValue, SSAValue] = {}
        self.known: dict[SSAValue, bool] = {}
        self.forms: dict[SSAValue, Linear] = {}
        self.undecided: list[tuple[Operation, int, list[int]]] = []
        for op in body.choosers:
            self._visit(op)
        self.live = self._live()

    def value(self, value: SSAValue) -> SSAValue:
        return self.equal.get(value, value)

    def truth(self, value: SSAValue) -> bool | None:
        value = self.value(value)
        if value in self.known:
            return self.known[value]
        constant = constant_int(value)
        return None if constant is None or value.type != _I1 else bool(constant & 1)

    def _form(self, value: SSAValue) -> Linear:
        """`linear_form` of what `value` stands for on this box, once each."""
        value = self.value(value)
        if value not in self.forms:
            self.forms[value] = linear_form(value, through=self.value)
        return self.forms[value]

    def _visit(self, op: Operation) -> None:
        if isinstance(op, _DECIDERS):
            self._decide(op)
        elif isinstance(op, arith.SelectOp):
            if (truth := self.truth(op.cond)) is not None:
                self.equal[op.result] = self.value(op.lhs if truth else op.rhs)
        else:  # andi or ori on i1
            assert isinstance(op, arith.AndIOp | arith.OrIOp)
            absorbing = isinstance(op, arith.OrIOp)  # true for or, false for and
            for this, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                truth = self.truth(this)
                if truth is None:
                    continue
                if truth == absorbing:
                    self.known[op.result] = absorbing
                elif (answer := self.truth(other)) is not None:
                    self.known[op.result] = answer
                else:
                    self.equal[op.result] = self.value(other)
                return

    def _decide(self, op: Operation) -> None:
        """`op` on one dimension's index: decided on the box, or the points
        where it changes."""
        lhs, rhs = op.operands
        (left, a), (right, b) = self._form(lhs), self._form(rhs)
        terms = dict(left)
        for term, coefficient in right.items():
            terms[term] = terms.get(term, 0) - coefficient
        terms = {t: c for t, c in terms.items() if c}
        if not terms:
            answer = _answer(op, a - b)
        elif len(terms) == 1:
            [(iv, sign)] = terms.items()
            if iv not in self.dims or sign not in (1, -1):
                return
            dim = self.dims[iv]
            iterations = self.box[dim]
            assert iterations is not None
            points = _changes(op, sign, a - b, iterations)
            if points:
                self.undecided.append((op, dim, points))
                return
            answer = _answer(op, sign * iterations[0] + a - b)
        else:
            return
        if isinstance(op, arith.CmpiOp):
            self.known[op.results[0]] = answer
        else:
            self.equal[op.results[0]] = self.value(lhs if answer else rhs)

    def _live(self) -> set[Operation]:
        """Ops with effects, and the ops whose values they still use."""
        live: set[Operation] = set()
        for op in reversed(self.body.ops):
            if op not in live and op in self.body.removable:
                continue  # its users, all after it, need none of its values
            live.add(op)
            for operand in op.operands:
                if self.truth(operand) is None:
                    owner = self.value(operand).owner
                    if isinstance(owner, Operation):
                        live.add(owner)
        return live

    def split(self) -> tuple[int, list[int]] | None:
        """The outermost dimension a still-needed op could be decided in by
        splitting, and its points."""
        points: dict[int, set[int]] = {}
        for op, dim, at in self.undecided:
            if op in self.live:
                points.setdefault(dim, set()).update(at)
        if not points:
            return None
        dim = min(points)
        return dim, sorted(points[dim])


def _materialize(foldings: Sequence[_Folding]) -> ParallelOp:
    """A nest over the first folding's box with the ops each still needs,
    folded; several foldings (one iteration each of the last dimension, in
    order) share one iteration of it, each with that index a constant."""
    folding = foldings[0]
    nest = folding.body.nest
    lower, upper = list(nest.lower_bounds), list(nest.upper_bounds)
    for dim, iterations in enumerate(folding.box):
        if iterations is not None:
            lower[dim], upper[dim] = iterations
    block = Block(arg_types=[iv.type for iv in nest.induction_vars])
    for piece_folding in foldings:
        mapping: dict[SSAValue, SSAValue] = dict(
            zip(nest.induction_vars, block.args, strict=True)
        )
        if len(foldings) > 1:
            last = piece_folding.box[-1]
            assert last is not None
            index = arith.ConstantOp(IntegerAttr(last[0], IndexType()))
            block.add_op(index)
            mapping[nest.induction_vars[-1]] = index.result
        _copy_live(piece_folding, block, mapping, piece_folding is foldings[-1])
    piece = ParallelOp(lower, upper, list(nest.steps), Region(block))
    piece.attributes |= nest.attributes
    return piece


def _copy_live(
    folding: _Folding,
    block: Block,
    mapping: dict[SSAValue, SSAValue],
    terminate: bool,
) -> None:
    """Append the ops `folding` still needs to `block`, folded (the
    terminator too if `terminate`)."""
    for op in folding.body.ops:
        if op not in folding.live or (isinstance(op, YieldOp) and not terminate):
            continue
        for operand in op.operands:
            if operand in mapping:
                continue
            truth = folding.truth(operand)
            if truth is not None and folding.value(operand).owner in folding.body.own:
                constant = arith.ConstantOp(IntegerAttr(int(truth), _I1))
                block.add_op(constant)
                mapping[operand] = constant.result
            else:
                target = folding.value(operand)
                mapping[operand] = mapping.get(target, target)
        block.add_op(op.clone(value_mapper=mapping))


def _split(nest: ParallelOp, max_pieces: int) -> None:
    """Replace `nest` by its pieces (module docstring), if it splits."""
    ops = list(nest.body.block.ops)
    if not any(_decides_on_index(op) for op in ops):
        return  # the common case, and the cheap test: nothing to split on
    box: list[Iterations | None] = [
        (lower, upper)
        if isinstance(lower, int) and isinstance(upper, int) and step == 1
        else None
        for lower, upper, step in zip(
            nest.lower_bounds, nest.upper_bounds, nest.steps, strict=True
        )
    ]
    body = _Body(nest, ops)
    pieces = [_Folding(body, box)]
    count, done = 1, []
    while pieces:
        folding = pieces.pop(0)
        found = folding.split()
        if found is None or count + len(found[1]) > max_pieces:
            done.append(folding)
            continue
        dim, points = found
        iterations = folding.box[dim]
        assert iterations is not None
        for a, b in pairwise([iterations[0], *points, iterations[1]]):
            piece_box = list(folding.box)
            piece_box[dim] = (a, b)
            pieces.append(_Folding(body, piece_box))
        count += len(points)
    if len(done) == 1:
        return
    done.sort(key=lambda f: [r for r in f.box if r is not None])
    block = nest.parent_block()
    assert block is not None
    for group in _single_iteration_runs(done):
        block.insert_op_before(_materialize(group), nest)
    nest.detach()
    nest.erase()


def _single_iteration_runs(done: list[_Folding]) -> list[list[_Folding]]:
    """The pieces in order, those that differ only in their last dimension,
    one iteration each, taken together: the columns of a concatenate along
    a last dimension of 2 (complex numbers' real and imaginary parts,
    passes/hlo/split_complex.py) are one nest computing both, not two nests
    each reading both parts of every operand element to write every other
    element."""
    groups: list[list[_Folding]] = []
    for folding in done:
        last = folding.box[-1]
        if groups and last is not None and last[1] - last[0] == 1:
            previous = groups[-1][-1]
            before = previous.box[-1]
            if (
                before is not None
                and before[1] - before[0] == 1
                and before[1] == last[0]
                and previous.box[:-1] == folding.box[:-1]
            ):
                groups[-1].append(folding)
                continue
        groups.append([folding])
    return groups


@dataclass(frozen=True)
class SplitRangesPass(ModulePass):
    """Split kernels' nests where their choices change (module docstring)."""

    name = "split-ranges"
    max_pieces: int = DEFAULT_MAX_PIECES

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.max_pieces < 1:
            raise XlirError(
                f"error: split-ranges: max-pieces must be at least 1, got {self.max_pieces}"
            )
        for nest in plain_nests(op):
            _split(nest, self.max_pieces)

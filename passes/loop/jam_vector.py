"""Vector copies in a jam: the copies of a jam along a unit-stride dimension,
`width` at a time, as one copy of vector ops.

Jamming a dot's columns by 32 makes 32 scalar copies of every op, which LLVM's
SLP vectorizer packs back into vectors: hundreds of ops per tile that xDSL
builds and translates one by one, and that LLVM's DSE, InstCombine and SLP
walk quadratically (about 70% of the LLVM time of a dot kernel). With
`width` 16, copies 0-15 of a column are one copy of `vector<16xf32>` ops
instead:

    %y = loop.load %B[%k, %j] : memref<8x64xf32>, vector<16xf32>
    %x = loop.load %A[%i, %k] : memref<4x8xf32>
    %xs = vector.broadcast %x : f32 to vector<16xf32>
    %f = math.fma %xs, %y, %acc : vector<16xf32>

Lane l of each vector op is what copy l computed, op for op, so the bits are
those of the scalar jam. What depends on the dimension's induction variable
(`Lanes.varying`) is vectorized: a load or store whose last index is that
variable (plus something that does not depend on it) moves `width`
consecutive elements; a load whose leading indices are (`B[j, k]`, a
transposed operand) is a scalar load per lane, lane 0's broadcast and the
others put in by `vector.insert`, so the rest of the tile is still vector
ops, and so is a cast of the variable to an integer (a causal mask's or a
one-hot's column number, lane by lane); elementwise `arith`/`math` ops
(`VECTOR_OPS`) get vector types, their scalar operands broadcast; carried
values of a `loop.for` become vectors. The index arithmetic that only
addresses the vector (`j + 1`) stays scalar: it is lane 0's index.
Anything else that depends on the variable (another use of its index, an
op without a vector form, a store along it by a leading index, a store of
lanes into one element) keeps the scalar jam (`blocker`).
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.builder import Builder
from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    VectorType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xlir.analysis.loop_utils import index_constant
from xlir.dialects.arith import VECTOR_FORMS
from xlir.dialects.loop.loops import ForOp, ParallelOp, YieldOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.passes.loop.expand_math import EXPANDED_TYPES, EXPANSIONS

from xlir.walk import walk

VECTOR_OPS = frozenset(
    {
        "arith.addf",
        "arith.subf",
        "arith.mulf",
        "arith.divf",
        "arith.remf",
        "arith.negf",
        "arith.maximumf",
        "arith.minimumf",
        "arith.maxnumf",
        "arith.minnumf",
        "arith.addi",
        "arith.subi",
        "arith.muli",
        "arith.andi",
        "arith.ori",
        "arith.xori",
        "arith.shli",
        "arith.shrui",
        "arith.shrsi",
        "arith.cmpi",
        "arith.cmpf",
        "arith.select",
        "arith.bitcast",
        "arith.maxsi",
        "arith.minsi",
        "arith.maxui",
        "arith.minui",
        "arith.extf",
        "arith.truncf",
        "math.fma",
        "math.absf",
        "math.sqrt",
        "math.copysign",
        "arith.extsi",
        "arith.extui",
        "arith.trunci",
        "arith.sitofp",
        "arith.uitofp",
        "arith.fptosi",
        "arith.fptoui",
        "arith.dot_quads",
        *(op.name for op in EXPANSIONS),
    }
)
"""Elementwise ops that vector copies make on vectors (every backend that runs
`register-tile` or `vectorize` lowers them on vectors: the cpu target's
`lowering/llvm/scalars.py`). Integer compares, selects, shifts and bitcasts
are a bf16 dot's: its loads widen bf16 to f32 by shifting the bits, and its
epilogue rounds each sum back with compares and selects. Float compares and
selects are a relu, a clamp or a mask in a dot's epilogue. Transcendentals
(a GELU's tanh) only where `expand-math` writes them out as vector code (on
its `EXPANDED_TYPES`; the LLVM lowering calls libm on scalars only), on
vectors of `EXPANDED_WIDTH` lanes or more. The ops xDSL's `arith` defines
on scalars only are cloned as their vector forms (`xlir.dialects.arith`'s
`VECTOR_FORMS`): without them an int8 contraction's tile was 128 scalar
copies, a bf16 one 256."""


EXPANDED_WIDTH = 8
"""The fewest lanes a vector copy of a transcendental takes: on narrower
vectors (a remainder's few columns, 128-bit registers) scalar copies, which
LLVM's SLP vectorizer packs into full registers, ran faster (a GRU's gates
on 4-lane copies)."""


def _is_lane_type(type_: Attribute) -> bool:
    """Integers and floats of whole bytes: a vector of i1 would be packed bits
    in memory, where a buffer of i1 holds a byte per element."""
    if isinstance(type_, IntegerType):
        return type_.width.data % 8 == 0
    return isinstance(type_, AnyFloat)


def _is_register_lane_type(type_: Attribute) -> bool:
    """A lane type, or i1: a compare's vector of i1 stays in registers (a
    buffer of i1 is no vector lane: `_is_lane_type`)."""
    return type_ == i1 or _is_lane_type(type_)


class Lanes:
    """The vector copies of one jam: which values vary along the dimension,
    and how an op is cloned as a vector op."""

    def __init__(self, varying: set[SSAValue], addresses: set[SSAValue], width: int):
        self.varying = varying
        self.addresses = addresses
        self.width = width
        self._splats: dict[tuple[SSAValue, Block | None], SSAValue] = {}
        self._offsets: dict[tuple[SSAValue, int, Block | None], SSAValue] = {}
        self._types: dict[Attribute, VectorType] = {}

    def vectorizes(self, op: Operation) -> bool:
        """Whether the op becomes a vector op (not an address computation)."""
        if isinstance(op, StoreOp):
            return op.indices[-1] in self.varying if op.indices else False
        return any(r in self.varying and r not in self.addresses for r in op.results)

    def vector_type(self, type_: Attribute) -> VectorType:
        """`vector<width x type_>`, made once (xDSL verifies each new one)."""
        found = self._types.get(type_)
        if found is None:
            found = self._types[type_] = VectorType(type_, [self.width])
        return found

    def splat(self, value: SSAValue, builder: Builder) -> SSAValue:
        """`value` as a vector: itself if it is one, else broadcast (once per
        block it is used in)."""
        if isinstance(value.type, VectorType):
            return value
        point = builder.insertion_point
        key = (value, point.block)
        found = self._splats.get(key)
        if found is None:
            made = vector.BroadcastOp.create(
                operands=[value], result_types=[self.vector_type(value.type)]
            )
            found = self._splats[key] = builder.insert(made).vector
        return found

    def clone(
        self, op: Operation, mapping: dict[SSAValue, SSAValue], builder: Builder
    ) -> Operation:
        """The vector form of `op` under `mapping`, inserted by `builder`.
        Ops are created directly (`create`), as their constructors would
        make them, at a fraction of the cost of xDSL's generic construction."""
        operands = [mapping.get(v, v) for v in op.operands]
        if isinstance(op, StoreOp):
            value = self.splat(operands[0], builder)
            return builder.insert(StoreOp.create(operands=[value, *operands[1:]]))
        lanes = self._lane_by_lane(op, operands, builder)
        if lanes is not None:
            gathered = self._into_vector(lanes, builder)
            gathered.results[0].name_hint = op.results[0].name_hint
            mapping[op.results[0]] = gathered.results[0]
            return gathered
        if isinstance(op, LoadOp):
            vector_type = self.vector_type(op.result.type)
            made = LoadOp.create(operands=operands, result_types=[vector_type])
        else:
            made = VECTOR_FORMS.get(type(op), type(op)).create(
                operands=[self.splat(v, builder) for v in operands],
                result_types=[self.vector_type(r.type) for r in op.results],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
        for new, old in zip(made.results, op.results, strict=True):
            new.name_hint = old.name_hint
            mapping[old] = new
        return builder.insert(made)

    def _lane_by_lane(
        self, op: Operation, operands: list[SSAValue], builder: Builder
    ) -> list[SSAValue] | None:
        """Each lane's scalar, for the ops computed lane by lane (None for
        the others): a load along the vector by leading indices, a cast of
        the index along the vector to an integer (a mask's column number).
        Lane l's indices along the vector are lane 0's plus l (each is the
        variable plus something that does not vary: `blocker`)."""
        if isinstance(op, LoadOp) and is_lane_load(op, self.varying):
            loads: list[SSAValue] = []
            for lane in range(self.width):
                indices = [
                    self._offset(new, lane, builder) if old in self.varying else new
                    for old, new in zip(op.indices, operands[1:], strict=True)
                ]
                loads.append(builder.insert(LoadOp(operands[0], indices)).result)
            return loads
        if is_lane_number(op, self.addresses):
            return [
                builder.insert(
                    arith.IndexCastOp(
                        self._offset(operands[0], lane, builder), op.results[0].type
                    )
                ).result
                for lane in range(self.width)
            ]
        return None

    def _into_vector(self, lanes: list[SSAValue], builder: Builder) -> Operation:
        """A vector of `lanes`: lane 0's broadcast, then a `vector.insert`
        of each other lane's."""
        made = builder.insert(
            vector.BroadcastOp(lanes[0], self.vector_type(lanes[0].type))
        )
        for lane, value in enumerate(lanes[1:], start=1):
            made = builder.insert(vector.InsertOp(value, made.results[0], [lane]))
        return made

    def _offset(self, index: SSAValue, lane: int, builder: Builder) -> SSAValue:
        """`index + lane` (made once per block), `index` for lane 0."""
        if lane == 0:
            return index
        point = builder.insertion_point
        key = (index, lane, point.block)
        found = self._offsets.get(key)
        if found is None:
            step = index_constant(builder, lane)
            found = builder.insert(arith.AddiOp(index, step)).result
            self._offsets[key] = found
        return found


def blocker(
    ops: Iterable[Operation],
    varying: set[SSAValue],
    addresses: set[SSAValue],
    width: int,
) -> str | None:
    """Why `ops` (with those nested) cannot become vector copies of `width`
    lanes along an induction variable (`varying`: the values that depend on
    it; `addresses`: its `lane_addresses`), or None when they can. The jam
    has already refused `loop.for` bounds that vary (`jam.jam_blocker`)."""
    for top in ops:
        for op in walk(top):
            problem = _op_blocker(op, varying, addresses, width)
            if problem is not None:
                return problem
    return None


def lane_addresses(
    ops: Iterable[Operation], iv: SSAValue, varying: set[SSAValue]
) -> set[SSAValue]:
    """`iv` and the index values `iv + x` (x not varying) among `ops`."""
    found = {iv}
    for top in ops:
        for op in walk(top):
            if isinstance(op, arith.AddiOp) and isinstance(op.result.type, IndexType):
                lhs, rhs = op.lhs, op.rhs
                if (lhs in found and rhs not in varying) or (
                    rhs in found and lhs not in varying
                ):
                    found.add(op.result)
    return found


def _op_blocker(
    op: Operation, varying: set[SSAValue], addresses: set[SSAValue], width: int
) -> str | None:
    uses_varying = [v for v in op.operands if v in varying]
    if not uses_varying or isinstance(op, YieldOp):
        return None
    if isinstance(op, LoadOp | StoreOp):
        *leading, last = op.indices
        if is_lane_load(op, varying):
            if not all(v in addresses for v in leading if v in varying):
                return f"'{op.name}' indexes a leading dimension along the vector"
        elif any(v in varying for v in leading):
            return f"'{op.name}' indexes a leading dimension along the vector"
        elif last not in addresses:
            return f"'{op.name}' does not move along the vector with unit stride"
        if isinstance(op, StoreOp) and op.value in addresses:
            return "an index along the vector is stored"
        buffer = op.buffer.type
        assert isinstance(buffer, MemRefType)
        if not _is_lane_type(buffer.element_type):
            return f"'{op.name}' moves {buffer.element_type}, which is no vector lane"
        return None
    if any(r in addresses for r in op.results) or is_lane_number(op, addresses):
        return None
    if any(v in addresses for v in uses_varying):
        return f"'{op.name}' uses an index along the vector"
    if isinstance(op, ForOp):
        return _carried_blocker(op, varying)
    if isinstance(op, ParallelOp):
        return "an inner loop.parallel uses a value that varies along the vector"
    if op.name not in VECTOR_OPS:
        return f"'{op.name}' has no vector form"
    if type(op) in EXPANSIONS:
        if not isinstance(op.results[0].type, EXPANDED_TYPES):
            return f"'{op.name}' on {op.results[0].type} has no vector form"
        if width < EXPANDED_WIDTH:
            return f"'{op.name}' on {width} lanes is slower than scalar copies"
    if not all(_is_register_lane_type(r.type) for r in op.results):
        return f"'{op.name}' has a result that cannot be a vector lane"
    return None


def is_lane_load(op: LoadOp | StoreOp, varying: set[SSAValue]) -> bool:
    """Whether `op` is a load along the vector by a leading index only (a
    transposed operand's column, `B[j, k]` along `j`): one scalar load per
    lane, gathered into a vector (`Lanes.clone`)."""
    if not isinstance(op, LoadOp) or not op.indices:
        return False
    *leading, last = op.indices
    return last not in varying and any(v in varying for v in leading)


def is_lane_number(op: Operation, addresses: set[SSAValue]) -> bool:
    """Whether `op` casts an index along the vector to an integer of whole
    bytes (the column number a causal mask or a one-hot compares): cast
    lane by lane into a vector (`Lanes.clone`)."""
    return (
        isinstance(op, arith.IndexCastOp)
        and op.input in addresses
        and isinstance(op.result.type, IntegerType)
        and _is_lane_type(op.result.type)
    )


def _carried_blocker(loop: ForOp, varying: set[SSAValue]) -> str | None:
    """A loop.for takes varying values only as carried values of lane types."""
    for arg in loop.carried:
        if arg in varying and not _is_lane_type(arg.type):
            return "a loop.for carries a value that cannot be a vector lane"
    return None

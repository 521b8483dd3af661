"""One `loop.kernel` per `hlo.fusion`: one loop nest over the output.

The kernel takes the fusion's operands, then one buffer per result
(docs/loop-level.md, "The contract"). Its body is a `loop.parallel` over the
output's index space whose iteration computes one output element by pulling
it through the fused ops: data-movement ops map the index tuple
(`index_maps`), elementwise ops become scalar `arith`/`math` (`scalar`),
fusion operands are loaded, and nothing in between is materialized. Each
(value, index tuple) is computed once per nest, however many users it has.

* Input fusions: the parallel nest runs over the reduce's result; the reduce
  is a `loop.for` nest over the reduced dims carrying the accumulators
  (several for a variadic reduce, and all sibling reduces over the same
  input shape and dims share it), with the reducer inlined. An output
  shaped like the reduce's input (softmax's exponentials) is computed once
  per element and stored in the same nest. When the reduction runs along
  the input's last dimension and reduces only such outputs, they are
  computed first, in a `loop.parallel` over the reduced dims, and the
  `loop.for` reduces what it loads back from them (a row still in cache):
  the elementwise work then vectorizes, which it cannot inside an ordered
  float reduction, and the reduction adds the same values in the same order.
  Otherwise they are stored inside the `loop.for`.
* A reduce_window (in an input fusion, or feeding other fused ops) is a
  `loop.for` nest over its window's taps carrying one accumulator per
  input, as its own kernel is; each tap pulls its element through the fused
  producers, and a tap in the padding reads the init value. Running
  reductions (`prefix_scan.py`: cumsum and its kin) of an output's shape
  along one dimension are instead one `loop.for` along it, inside a
  parallel nest over the other dimensions, carrying all their accumulators;
  each step stores that position of every output of the shape.
* Output fusions: the dot's or convolution's contraction is a `loop.for`
  nest inside the parallel nest, and the epilogue is applied to the
  accumulated value before the store.
* `fuse` forms no fusion with outputs of other shapes (its
  multi-output-shape rule), so each of its fusions is one nest. A
  hand-written fusion with such outputs (a concatenation and its padding)
  still lowers correctly: one parallel nest per output shape, in one kernel,
  each recomputing what it shares with the others.

Scalar constants become `arith.constant`s at the kernel's top; other
constants become `loop.global`s read with `loop.get_global`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IntegerType,
    MemRefType,
    TensorType,
    f32,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xlir.dialects.hlo import FusionOp
from xlir.dialects.loop.globals import GetGlobalOp, GlobalOp
from xlir.dialects.loop.kernel import KernelOp
from xlir.dialects.loop.memory import LoadOp, StoreOp
from xlir.dialects.stablehlo import data_movement as dm
from xlir.dialects.stablehlo.attributes import (
    DotDimensionNumbersAttr,
)
from xlir.dialects.stablehlo.contraction import ConvolutionOp, DotGeneralOp
from xlir.dialects.stablehlo.indexing import GatherOp
from xlir.dialects.stablehlo.reduction import ReduceOp, ReduceWindowOp
from xlir.lowering import index_maps as maps
from xlir.lowering.index_maps import IndexArith, Indices, shape
from xlir.lowering.nest import Nest
from xlir.lowering.planned_memory import in_place
from xlir.lowering.prefix_scan import scan_dimension
from xlir.lowering.scalar import (
    UnsupportedScalarOp,
    captured_values,
    constant,
    emit_block,
    emit_scalar,
    float_sum_type,
    float_to_int,
    is_unsigned,
    scalar_type,
)


@lru_cache(maxsize=1024)
def buffer_type(type_: Attribute) -> MemRefType:
    """The buffer of a tensor: same shape, element type as `scalar_type`.
    Remembered: xDSL builds and verifies a `MemRefType` in 50-100 us, and a
    program asks for the same few types again and again (1-2 ms a compile)."""
    assert isinstance(type_, TensorType)
    return MemRefType(scalar_type(type_), type_.get_shape())


def signless(value: DenseIntOrFPElementsAttr) -> DenseIntOrFPElementsAttr:
    """A constant's data with the buffer's element type (`ui8` -> `i8`): the
    same bytes."""
    type_ = value.type
    assert isinstance(type_, TensorType)
    element = scalar_type(type_)
    if element == type_.get_element_type():
        return value
    retyped = TensorType(element, type_.get_shape())
    return DenseIntOrFPElementsAttr(retyped, value.data)  # pyright: ignore[reportArgumentType]


def _load(buffer: SSAValue, idx: Indices) -> LoadOp:
    """`loop.load buffer[idx]` as `LoadOp(buffer, idx)` makes it, created
    directly: xDSL's generic construction checks each operand list, a cost
    on every element a fusion reads (the same for `StoreOp` in `store`)."""
    type_ = buffer.type
    assert isinstance(type_, MemRefType)
    return LoadOp.create(operands=[buffer, *idx], result_types=[type_.element_type])


class FusionLowering:
    """Builds the kernel of one fusion; `globals` are the `loop.global`s its
    constants need, to be put in the module."""

    def __init__(self, fusion: FusionOp, name: str):
        self.fusion = fusion
        self.name = name
        types = [buffer_type(t) for t in (*fusion.inputs.types, *fusion.outputs.types)]
        self.kernel = KernelOp(name, types)
        args = self.kernel.body.block.args
        self.buffers: dict[SSAValue, SSAValue] = dict(
            zip(fusion.block.args, args, strict=False)
        )
        self.outputs = list(args[len(fusion.inputs) :])
        self.results: dict[SSAValue, SSAValue] = dict(
            zip(self.outputs, fusion.results, strict=True)
        )
        """Each output buffer's fusion result."""
        self.globals: list[GlobalOp] = []
        self.nest = Nest(self.kernel.body.block)
        self.ix = IndexArith(self.nest.place)
        self.memo: dict[tuple[SSAValue, tuple[SSAValue, ...]], SSAValue] = {}
        self.nest.on_close(self._forget)
        self.constants: dict[tuple[str, Attribute], SSAValue] = {}
        self.problems: list[tuple[Operation, str]] = []
        self.passengers: dict[SSAValue, list[tuple[SSAValue, SSAValue]]] = {}

    def _forget(self, depth: int) -> None:
        self.ix.forget(lambda v: self.nest.depth(v) >= depth)
        self.memo = {k: v for k, v in self.memo.items() if self.nest.depth(v) < depth}

    # --- the nests ---------------------------------------------------------------

    def lower(self) -> KernelOp:
        yielded = list(self.fusion.yield_op.values)
        pending: list[tuple[SSAValue, SSAValue]] = list(
            zip(yielded, self.outputs, strict=True)
        )
        reduces = [op for op in self.fusion.block.ops if isinstance(op, ReduceOp)]
        for reduce in reduces:
            # outputs shaped like a reduce's input are stored inside its loop
            in_shape = shape(reduce.inputs[0])
            if shape(reduce.results[0]) == in_shape:
                continue
            riding = [(v, b) for v, b in pending if shape(v) == in_shape]
            if riding and any(shape(v) == shape(reduce.results[0]) for v, _ in pending):
                self.passengers[reduce.results[0]] = riding
                pending = [p for p in pending if p not in riding]
        groups: dict[tuple[int, ...], list[tuple[SSAValue, SSAValue]]] = {}
        for value, buffer in pending:
            if isinstance(value.owner, dm.DynamicUpdateSliceOp):
                self._update_window(value.owner, buffer)
            else:
                groups.setdefault(shape(value), []).append((value, buffer))
        for out_shape, stores in groups.items():
            dim, scans = self._scans(out_shape)
            if scans:
                self._running(dim, scans, stores)
                continue
            idx = self.nest.open_parallel(out_shape)
            for value, buffer in stores:
                self.store(self.value(value, idx), buffer, idx)
            self.nest.close()
        return self.kernel

    def _scans(self, out_shape: tuple[int, ...]) -> tuple[int, list[ReduceWindowOp]]:
        """The running reductions of this shape (`prefix_scan.py`) along the
        first one's dimension, in block order (one may reduce another's
        result), and that dimension."""
        dims = {
            op: scan_dimension(op)
            for op in self.fusion.block.ops
            if isinstance(op, ReduceWindowOp) and shape(op.results[0]) == out_shape
        }
        found = [d for d in dims.values() if d is not None]
        if not found:
            return -1, []
        return found[0], [op for op, d in dims.items() if d == found[0]]

    def _running(
        self,
        dim: int,
        scans: Sequence[ReduceWindowOp],
        stores: Sequence[tuple[SSAValue, SSAValue]],
    ) -> None:
        """A parallel nest over the other dimensions around one `loop.for`
        along `dim` that carries every scan's accumulators: each step folds
        that position's inputs into them, remembers them as the scans'
        elements there, and stores every output of the shape there."""
        sizes = list(shape(scans[0].results[0]))
        outer = list(sizes)
        outer[dim] = 1
        idx = self.nest.open_parallel(outer)
        inits = [self.value(init, []) for scan in scans for init in scan.init_values]

        def step(ivs: list[SSAValue], accs: list[SSAValue]) -> list[SSAValue]:
            at = list(idx)
            at[dim] = ivs[0]
            following: list[SSAValue] = []
            for scan in scans:
                count = len(scan.inputs)
                mine, accs = accs[:count], accs[count:]
                values = [self.value(x, at) for x in scan.inputs]
                folded = self._apply(scan.body.block, [*mine, *values])
                for result, scalar in zip(scan.results, folded, strict=True):
                    self.memo[(result, tuple(at))] = scalar
                following += folded
            for value, buffer in stores:
                self.store(self.value(value, at), buffer, at)
            return following

        self.nest.for_nest([sizes[dim]], inits, step)
        self.nest.close()

    def _apply(self, block: Block, args: Sequence[SSAValue]) -> list[SSAValue]:
        """A reducer's block applied to `args`."""
        return list(self.nest.emit(args, lambda b: emit_block(block, args, b)))

    def _update_window(self, op: dm.DynamicUpdateSliceOp, buffer: SSAValue) -> None:
        """A yielded dynamic_update_slice as XLA does it: the operand copied
        into the output, then the update stored over its window. The copy is
        left out when the plan gives the output the operand's memory (an
        in-place update), so only the window is written."""
        operand = op.operand
        if not (
            isinstance(operand, BlockArgument)
            and in_place(self.results[buffer], self.fusion.inputs[operand.index])
        ):
            idx = self.nest.open_parallel(shape(operand))
            self.store(self.value(operand, idx), buffer, idx)
            self.nest.close()
        starts = self._starts(op.start_indices, shape(operand), shape(op.update))
        idx = self.nest.open_parallel(shape(op.update))
        target = [self.ix.add(s, i) for s, i in zip(starts, idx, strict=True)]
        self.store(self.value(op.update, idx), buffer, target)
        self.nest.close()

    def store(self, scalar: SSAValue, buffer: SSAValue, idx: Indices) -> None:
        store = StoreOp.create(operands=[scalar, buffer, *idx])
        self.nest.builder(self.nest.innermost).insert(store)

    # --- one element of a value --------------------------------------------------

    def value(self, value: SSAValue, idx: Indices) -> SSAValue:
        """The scalar of `value` at index `idx`, computed once per nest."""
        key = (value, tuple(idx))
        if key not in self.memo:
            self.memo[key] = self._compute(value, idx)
        return self.memo[key]

    def _scalar(self, op: Operation, operands: Sequence[SSAValue]) -> SSAValue:
        try:
            (result,) = self.nest.emit(
                operands, lambda builder: emit_scalar(op, operands, builder)
            )
        except UnsupportedScalarOp as error:
            type_ = scalar_type(op.results[0].type)
            if not isinstance(type_, IntegerType | AnyFloat):
                raise
            # carry on with a stand-in, so that every such op is reported
            self.problems.append((op, error.reason))
            return self._const(0, type_)
        return result

    def _select(self, cond: SSAValue | None, a: SSAValue, b: SSAValue) -> SSAValue:
        if cond is None:
            return a
        return self.nest.place(arith.SelectOp(cond, a, b))

    def _compute(self, value: SSAValue, idx: Indices) -> SSAValue:
        if 0 in shape(value):
            # no element: a pad, concatenate or window reads it only where a
            # select then takes another value, so load nothing out of bounds
            return self._const(0, scalar_type(value.type))
        if isinstance(value, BlockArgument):
            return self.nest.place(_load(self.buffers[value], idx))
        op = value.owner
        assert isinstance(op, Operation)
        ix = self.ix
        match op:
            case dm.ConstantOp():
                return self._constant(op, idx)
            case dm.BroadcastInDimOp():
                return self.value(op.operand, maps.broadcast_in_dim(op, idx, ix))
            case dm.TransposeOp():
                return self.value(op.operand, maps.transpose(op, idx))
            case dm.ReverseOp():
                return self.value(op.operand, maps.reverse(op, idx, ix))
            case dm.SliceOp():
                return self.value(op.operand, maps.slice_(op, idx, ix))
            case dm.ReshapeOp():
                return self.value(op.operand, maps.reshape(op, idx, ix))
            case dm.IotaOp():
                return self._iota(op, idx)
            case dm.PadOp():
                inner, inside = maps.pad(op, idx, ix)
                loaded = self.value(op.operand, inner)
                if inside is None:
                    return loaded
                return self._select(inside, loaded, self.value(op.padding_value, []))
            case dm.ConcatenateOp():
                choices = maps.concatenate(op, idx, ix)
                values = [
                    self.value(o, i)
                    for o, (i, _) in zip(op.inputs, choices, strict=True)
                ]
                result = values[-1]
                for (_, cond), v in zip(
                    reversed(choices[:-1]), reversed(values[:-1]), strict=True
                ):
                    result = self._select(cond, v, result)
                return result
            case dm.DynamicSliceOp():
                starts = self._starts(op.start_indices, shape(op.operand), op.sizes)
                return self.value(op.operand, maps.dynamic_slice(starts, idx, ix))
            case dm.DynamicUpdateSliceOp():
                starts = self._starts(
                    op.start_indices, shape(op.operand), shape(op.update)
                )
                inner, inside = maps.dynamic_update_slice(op, starts, idx, ix)
                return self._select(
                    inside, self.value(op.update, inner), self.value(op.operand, idx)
                )
            case GatherOp():
                return self.value(
                    op.operand,
                    maps.gather(op, idx, lambda i: self.value(op.start_indices, i), ix),
                )
            case ReduceOp():
                return self._reduce(op, value, idx)
            case ReduceWindowOp():
                return self._reduce_window(op, value, idx)
            case DotGeneralOp():
                return self._dot(op, idx)
            case ConvolutionOp():
                return self._convolution(op, idx)
            case _:
                rank = len(idx)
                operands = [
                    self.value(o, idx if len(shape(o)) == rank else [])
                    for o in op.operands
                ]
                return self._scalar(op, operands)

    def _constant(self, op: dm.ConstantOp, idx: Indices) -> SSAValue:
        values = op.value.get_values()
        if len({repr(v) for v in values}) == 1:  # repr: -0.0 is not 0.0
            first = values[0]
            assert isinstance(first, int | float)
            return self._const(first, scalar_type(op.results[0].type))
        name = f"{self.name}_constant_{len(self.globals)}"
        value = signless(op.value)
        global_op = GlobalOp(name, value)
        self.globals.append(global_op)
        data = self.nest.place(GetGlobalOp(name, global_op.buffer_type))
        return self.nest.place(_load(data, idx))

    def _const(self, value: float | int, type_: Attribute) -> SSAValue:
        """One `arith.constant` per value and type, at the kernel's top
        (told apart by `repr`: -0.0 == 0.0, and they hash alike)."""
        number = float(value) if isinstance(type_, AnyFloat) else int(value)
        key = (repr(number), type_)
        if key not in self.constants:
            self.constants[key] = self.nest.emit(
                [], lambda b: [constant(b, value, type_)]
            )[0]
        return self.constants[key]

    def _iota(self, op: dm.IotaOp, idx: Indices) -> SSAValue:
        position = idx[op.iota_dimension.value.data]
        target = scalar_type(op.results[0].type)
        if isinstance(target, AnyFloat):
            wide = self.nest.place(arith.IndexCastOp(position, i64))
            return self.nest.place(arith.SIToFPOp(wide, target))
        if not isinstance(target, IntegerType):
            raise UnsupportedScalarOp(op, f"of {target} elements is not supported")
        return self.nest.place(arith.IndexCastOp(position, target))

    def _starts(
        self, starts: Sequence[SSAValue], operand: Sequence[int], sizes: Sequence[int]
    ) -> Indices:
        unsigned = [is_unsigned(s.type) for s in starts]
        return maps.clamped_starts(
            lambda d: self.value(starts[d], []), unsigned, operand, sizes, self.ix
        )

    # --- loops with carried values ---------------------------------------------

    def _reduce(self, op: ReduceOp, value: SSAValue, idx: Indices) -> SSAValue:
        """All reduces of the fusion over the same input shape and dims are
        computed in one loop nest; returns `value`'s element."""
        in_shape, dims = shape(op.inputs[0]), op.dims
        siblings = [
            other
            for other in self.fusion.block.ops
            if isinstance(other, ReduceOp)
            and shape(other.inputs[0]) == in_shape
            and other.dims == dims
        ]
        riding = [p for s in siblings for p in self.passengers.pop(s.results[0], [])]
        inits = [self.value(i, []) for s in siblings for i in s.init_values]
        stored_first = dict(riding) if self._store_first(riding, siblings) else {}
        if stored_first:
            inner = self.nest.open_parallel([in_shape[d] for d in dims])
            full = _full_index(inner, idx, dims, len(in_shape))
            for stored, buffer in riding:
                self.store(self.value(stored, full), buffer, full)
            self.nest.close()

        def body(ivs: list[SSAValue], accs: list[SSAValue]) -> list[SSAValue]:
            full = _full_index(ivs, idx, dims, len(in_shape))
            for stored, buffer in stored_first.items():
                loaded = self.nest.place(_load(buffer, full))
                self.memo[(stored, tuple(full))] = loaded
            for stored, buffer in riding:
                if stored not in stored_first:
                    self.store(self.value(stored, full), buffer, full)
            results: list[SSAValue] = []
            offset = 0
            for s in siblings:
                n = len(s.inputs)
                xs = [self.value(i, full) for i in s.inputs]
                args = [*accs[offset : offset + n], *xs]
                captured = self._captured_scalars(s.body.block)
                results += self.nest.emit(
                    [*args, *captured.values()],
                    lambda b, s=s, args=args, captured=captured: emit_block(
                        s.body.block, args, b, captured
                    ),
                )
                offset += n
            return results

        results = self.nest.for_nest([in_shape[d] for d in dims], inits, body)
        flat = [r for s in siblings for r in s.results]
        for result, scalar in zip(flat, results, strict=True):
            self.memo[(result, tuple(idx))] = scalar
        return self.memo[(value, tuple(idx))]

    def _captured_scalars(self, block: Block) -> dict[SSAValue, SSAValue]:
        """The scalars of the fusion's rank-0 values a reducer's block uses
        from outside it (a constant the fusion took as an operand)."""
        return {
            value: self.value(value, [])
            for value in captured_values(block)
            if isinstance(value.type, TensorType) and not value.type.get_shape()
        }

    def _reduce_window(
        self, op: ReduceWindowOp, value: SSAValue, idx: Indices
    ) -> SSAValue:
        """A `loop.for` nest over the window's taps carrying one accumulator
        per input, as the op's own kernel (`kernels/reduce_window.py`); a tap
        in the padding or a hole of the base dilation reads the init value.
        Returns `value`'s element."""
        inits = [self.value(i, []) for i in op.init_values]

        def body(taps: list[SSAValue], accs: list[SSAValue]) -> list[SSAValue]:
            at, inside = maps.reduce_window(op, idx, taps, self.ix)
            values = [
                self._select(inside, self.value(x, at), init)
                for x, init in zip(op.inputs, inits, strict=True)
            ]
            return self._apply(op.body.block, [*accs, *values])

        window = maps.int_list(op.window_dimensions, [])
        results = self.nest.for_nest(window, inits, body)
        for result, scalar in zip(op.results, results, strict=True):
            self.memo[(result, tuple(idx))] = scalar
        return self.memo[(value, tuple(idx))]

    @staticmethod
    def _store_first(
        riding: Sequence[tuple[SSAValue, SSAValue]], siblings: Sequence[ReduceOp]
    ) -> bool:
        """Whether the outputs riding on a reduction are computed before it,
        in their own parallel nest (module docstring): the reduction runs
        along the input's unit-stride last dimension, so the nest walks the
        row in order, and every input it reduces is one of them, so the
        `loop.for` only loads."""
        stored = {value for value, _ in riding}
        reduce = siblings[0]
        last = len(shape(reduce.inputs[0])) - 1
        return (
            bool(stored)
            and last in reduce.dims
            and all(i in stored for s in siblings for i in s.inputs)
        )

    def _dot(self, op: DotGeneralOp, idx: Indices) -> SSAValue:
        numbers = op.dot_dimension_numbers
        assert isinstance(numbers, DotDimensionNumbersAttr)
        lhs_b = numbers.field("lhs_batching_dimensions")
        rhs_b = numbers.field("rhs_batching_dimensions")
        lhs_c = numbers.field("lhs_contracting_dimensions")
        rhs_c = numbers.field("rhs_contracting_dimensions")
        lhs_shape, rhs_shape = shape(op.lhs), shape(op.rhs)
        lhs_free = [d for d in range(len(lhs_shape)) if d not in (*lhs_b, *lhs_c)]
        rhs_free = [d for d in range(len(rhs_shape)) if d not in (*rhs_b, *rhs_c)]
        out_type = scalar_type(op.results[0].type)
        acc_type = accumulator_type(out_type, scalar_type(op.lhs.type))
        zero = self._const(0, acc_type)

        def operand_index(
            rank: int,
            batch: Sequence[int],
            free: Sequence[int],
            contract: Sequence[int],
            free_at: int,
            ivs: Sequence[SSAValue],
        ) -> Indices:
            result: Indices = [self.ix.const(0)] * rank
            for k, d in enumerate(batch):
                result[d] = idx[k]
            for k, d in enumerate(free):
                result[d] = idx[free_at + k]
            for k, d in enumerate(contract):
                result[d] = ivs[k]
            return result

        def body(ivs: list[SSAValue], accs: list[SSAValue]) -> list[SSAValue]:
            nb = len(lhs_b)
            lhs = self.value(
                op.lhs, operand_index(len(lhs_shape), lhs_b, lhs_free, lhs_c, nb, ivs)
            )
            rhs = self.value(
                op.rhs,
                operand_index(
                    len(rhs_shape), rhs_b, rhs_free, rhs_c, nb + len(lhs_free), ivs
                ),
            )
            return [self._multiply_add(accs[0], (lhs, op.lhs), (rhs, op.rhs))]

        sum_ = self.nest.for_nest([lhs_shape[d] for d in lhs_c], [zero], body)[0]
        return self._contraction_result(op.results[0], sum_)

    def _convolution(self, op: ConvolutionOp, idx: Indices) -> SSAValue:
        """A convolution's element: the sum over the input features of the
        output feature's group and the window's taps
        (`index_maps.convolution`); a tap in the padding or a hole of the lhs
        dilation multiplies zero (the load is clamped in bounds, a select
        replaces it, and the test is left out where the shapes prove every
        tap of a dimension lands on an input element)."""
        out_type = scalar_type(op.result.type)
        lhs_type = scalar_type(op.lhs.type)
        zero = self._const(0, accumulator_type(out_type, lhs_type))
        lhs_zero = self._const(0, lhs_type)

        def body(ivs: list[SSAValue], accs: list[SSAValue]) -> list[SSAValue]:
            x_idx, w_idx, inside = maps.convolution(op, idx, ivs, self.ix)
            x = self._select(inside, self.value(op.lhs, x_idx), lhs_zero)
            w = self.value(op.rhs, w_idx)
            return [self._multiply_add(accs[0], (x, op.lhs), (w, op.rhs))]

        sum_ = self.nest.for_nest(maps.convolution_loops(op), [zero], body)[0]
        return self._contraction_result(op.result, sum_)

    def _multiply_add(
        self,
        acc: SSAValue,
        lhs: tuple[SSAValue, SSAValue],
        rhs: tuple[SSAValue, SSAValue],
    ) -> SSAValue:
        """`acc + lhs * rhs` in the accumulator's type; each factor is a
        scalar and the tensor it is an element of (whose type says whether
        an integer is unsigned)."""
        acc_type = acc.type
        a, b = (self._widen(x, acc_type, is_unsigned(t.type)) for x, t in (lhs, rhs))
        product = self.nest.place(_multiply(acc_type)(a, b))
        return self.nest.place(_add(acc_type)(acc, product))

    def _contraction_result(self, result: SSAValue, sum_: SSAValue) -> SSAValue:
        """A contraction's sum in its result's type (`accumulator_type`)."""
        out_type = scalar_type(result.type)
        if sum_.type == out_type:
            return sum_
        if isinstance(out_type, IntegerType):
            unsigned = is_unsigned(result.type)
            return self.nest.emit(
                [sum_], lambda b: [float_to_int(b, sum_, out_type, unsigned)]
            )[0]
        return self.nest.place(arith.TruncFOp(sum_, out_type))

    def _widen(self, scalar: SSAValue, target: Attribute, unsigned: bool) -> SSAValue:
        """A contraction's operand in the accumulator's type (bf16 x bf16 ->
        f32, ui8 x ui8 -> ui32: zero-extended)."""
        if scalar.type == target:
            return scalar
        if isinstance(target, AnyFloat) and isinstance(scalar.type, AnyFloat):
            return self.nest.place(arith.ExtFOp(scalar, target))
        if isinstance(target, AnyFloat):
            to_float = arith.UIToFPOp if unsigned else arith.SIToFPOp
            return self.nest.place(to_float(scalar, target))
        assert isinstance(target, IntegerType)
        extend = arith.ExtUIOp if unsigned else arith.ExtSIOp
        return self.nest.place(extend(scalar, target))


def accumulator_type(result: Attribute, operand: Attribute) -> Attribute:
    """The type a contraction of `operand` elements accumulates in: the
    result's, except half-precision floats, which accumulate in f32 (as the
    reference interpreter does), and float operands of an integer result
    (`float_sum_type`)."""
    float_sum = float_sum_type(operand, result)
    if float_sum is not None:
        return float_sum
    if isinstance(result, AnyFloat) and result.bitwidth < 32:
        return f32
    return result


def _full_index(
    reduced: Sequence[SSAValue], kept: Indices, dims: Sequence[int], rank: int
) -> Indices:
    """The input's index of a reduction: the reduced dims' induction
    variables at `dims`, the kept index elsewhere, in order."""
    reduced_ivs, kept_ivs = iter(reduced), iter(kept)
    return [next(reduced_ivs) if d in dims else next(kept_ivs) for d in range(rank)]


def _multiply(type_: Attribute):
    if isinstance(type_, AnyFloat):
        return arith.MulfOp
    return arith.AndIOp if type_ == i1 else arith.MuliOp


def _add(type_: Attribute):
    if isinstance(type_, AnyFloat):
        return arith.AddfOp
    return arith.OrIOp if type_ == i1 else arith.AddiOp


def lower_fusion(
    fusion: FusionOp, name: str
) -> tuple[KernelOp, list[GlobalOp], list[tuple[Operation, str]]]:
    """The kernel of `fusion`, named `name`, the globals it reads, and the
    ops in it that have no scalar translation, with the reason."""
    lowering = FusionLowering(fusion, name)
    try:
        kernel = lowering.lower()
    except UnsupportedScalarOp as error:
        # no stand-in value of that type: report it, leave the rest unlowered
        return KernelOp(name, []), [], [*lowering.problems, (error.op, error.reason)]
    return kernel, lowering.globals, lowering.problems

"""Ops with a reducer, comparator or mapped region: map, reduce,
reduce_window, select_and_scatter, sort.

`reduce` prints in StableHLO's two pretty forms: the one-line
`applies stablehlo.add across dimensions = [1]` form when its body is a single
commutative binary op on its two arguments, and the `reducer(%a: T, %b: T)`
region form otherwise. The other ops print generically, as StableHLO
does. Their shape formula (the number of windows along each dimension) is a
pure function here, `infer_reduce_window`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    I64,
    AnyFloat,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Commutative
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.effects import RecursiveEffects
from xlir.dialects.stablehlo import shape_rules
from xlir.dialects.stablehlo.control_flow import (
    ReturnOp,
    check_region_signature,
    region_block,
    returned_values,
)
from xlir.dialects.stablehlo.shape_rules import Shape, ShapeError, check_rule
from xlir.dialects.stablehlo.types import element_type, shape
from xlir.dialects.syntax import (
    array_values,
    i64_array,
    parse_function_type_tail,
    parse_int_list,
    print_attr_dict,
    print_function_type,
    print_int_list,
    resolve_operands,
)

from xlir.element_types import bit_width

# --- shape formulas ----------------------------------------------------------


def infer_reduce_window(
    operand: Shape,
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    base_dilations: Sequence[int],
    window_dilations: Sequence[int],
    padding: Sequence[tuple[int, int]],
) -> Shape:
    """The number of windows along each dimension (the spec's `num_windows`):
    the operand is dilated by `base_dilations`, padded, and a window of
    `window_dimensions` dilated by `window_dilations` slides over it by
    `window_strides`. select_and_scatter uses it with dilations of 1."""
    rank = len(operand)
    for what, values in (
        ("window_dimensions", window_dimensions),
        ("window_strides", window_strides),
        ("base_dilations", base_dilations),
        ("window_dilations", window_dilations),
        ("padding", padding),
    ):
        if len(values) != rank:
            raise ShapeError(
                f"{what} has {len(values)} entries but the operand has rank {rank}"
            )
    for what, values in (
        ("window_dimensions", window_dimensions),
        ("window_strides", window_strides),
        ("base_dilations", base_dilations),
        ("window_dilations", window_dilations),
    ):
        for d, v in enumerate(values):
            if v <= 0:
                raise ShapeError(
                    f"{what} {list(values)} must be positive, but dimension {d} is {v}"
                )
    result = []
    for d in range(rank):
        dilated = 0 if operand[d] == 0 else (operand[d] - 1) * base_dilations[d] + 1
        padded = padding[d][0] + dilated + padding[d][1]
        window = (window_dimensions[d] - 1) * window_dilations[d] + 1
        if padded <= 0 or window > padded:
            result.append(0)
        else:
            result.append((padded - window) // window_strides[d] + 1)
    return tuple(result)


# --- shared checks -----------------------------------------------------------


def _fail(op: Operation, message: str) -> VerifyException:
    return VerifyException(f"'{op.name}' op {message}")


def is_promotable(source: Attribute, target: Attribute) -> bool:
    """Whether a reducer may accumulate `source` elements in `target`: the
    same type, or a wider one of the same kind (float, signed, unsigned)."""
    if source == target:
        return True
    if isinstance(source, IntegerType) and isinstance(target, IntegerType):
        unsigned = Signedness.UNSIGNED
        if (source.signedness.data == unsigned) != (target.signedness.data == unsigned):
            return False
        return 1 < source.width.data <= target.width.data
    if isinstance(source, AnyFloat) and isinstance(target, AnyFloat):
        a, b = bit_width(source), bit_width(target)
        return a is not None and b is not None and a < b
    return False


def _check_same_shapes(op: Operation, values: Sequence[SSAValue], what: str) -> None:
    first = shape(values[0].type)
    for i, value in enumerate(values):
        if shape(value.type) != first:
            raise _fail(
                op,
                f"{what} #{i} has shape {list(shape(value.type))} but {what} #0 has "
                f"shape {list(first)}; all {what}s must have the same shape",
            )


def _check_inits(
    op: Operation, inputs: Sequence[SSAValue], inits: Sequence[SSAValue]
) -> None:
    """Inputs and init values pair up: one rank-0 init per input, of the same
    element type."""
    if not inputs:
        raise _fail(op, "needs at least one input")
    if len(inits) != len(inputs):
        raise _fail(
            op, f"has {len(inputs)} inputs but {len(inits)} init values; they pair up"
        )
    for i, (value, init) in enumerate(zip(inputs, inits, strict=True)):
        if shape(init.type):
            raise _fail(
                op,
                f"init value #{i} must be rank 0, but has shape "
                f"{list(shape(init.type))}",
            )
        if element_type(init.type) != element_type(value.type):
            raise _fail(
                op,
                f"init value #{i} has element type {element_type(init.type)} but "
                f"input #{i} has {element_type(value.type)}",
            )


def _check_reducer(
    op: Operation, region: Region, what: str, inputs: Sequence[SSAValue]
) -> list[Attribute]:
    """A reducer for N inputs takes 2N rank-0 tensors (the N accumulators, then
    the N input elements) and returns the N new accumulators. Returns the
    accumulator element types."""
    n = len(inputs)
    block = region_block(op, region, what)
    args = list(block.args)
    if len(args) != 2 * n:
        raise _fail(
            op,
            f"{what} must take {2 * n} arguments (two per input), but takes "
            f"{len(args)}",
        )
    for j, arg in enumerate(args):
        if not isinstance(arg.type, TensorType) or shape(arg.type):
            raise _fail(
                op, f"{what} argument #{j} must be a rank-0 tensor, but is {arg.type}"
            )
    accumulators: list[Attribute] = []
    for i in range(n):
        if args[i].type != args[i + n].type:
            raise _fail(
                op,
                f"{what} arguments #{i} and #{i + n} must have the same type, but "
                f"have {args[i].type} and {args[i + n].type}",
            )
        accumulator = element_type(args[i].type)
        source = element_type(inputs[i].type)
        if not is_promotable(source, accumulator):
            raise _fail(
                op,
                f"{what} argument #{i} has element type {accumulator}, which input "
                f"#{i} with element type {source} cannot be promoted to",
            )
        accumulators.append(accumulator)
    returned = returned_values(op, block, what)
    if len(returned) != n:
        raise _fail(op, f"{what} must return {n} values, but returns {len(returned)}")
    for i, value in enumerate(returned):
        if value.type != args[i].type:
            raise _fail(
                op,
                f"{what} returns {value.type} as value #{i}, but the accumulator has "
                f"type {args[i].type}",
            )
    return accumulators


def _check_result_elements(
    op: Operation, results: Sequence[SSAValue], accumulators: Sequence[Attribute]
) -> None:
    for i, (result, accumulator) in enumerate(zip(results, accumulators, strict=True)):
        if element_type(result.type) != accumulator:
            raise _fail(
                op,
                f"result #{i} has element type {element_type(result.type)} but the "
                f"body accumulates {accumulator}",
            )


def _check_result_shapes(
    op: Operation, results: Sequence[SSAValue], inferred: Shape, rule: str
) -> None:
    for i, result in enumerate(results):
        if shape(result.type) != inferred:
            raise _fail(
                op,
                f"result #{i} has shape {list(shape(result.type))} but {rule} "
                f"{list(inferred)}",
            )


def _padding_pairs(
    op: Operation, padding: DenseIntOrFPElementsAttr | None, rank: int
) -> list[tuple[int, int]]:
    """The `padding` attribute (tensor<Nx2xi64>) as (low, high) pairs."""
    if padding is None:
        return [(0, 0)] * rank
    padding_shape = tuple(padding.type.get_shape())
    if not isinstance(padding.get_element_type(), IntegerType):
        raise _fail(
            op,
            f"padding must have integer elements, but has {padding.get_element_type()}",
        )
    if padding_shape != (rank, 2):
        raise _fail(
            op,
            f"padding must have shape [{rank}, 2] (a low and a high padding per "
            f"operand dimension), but has shape {list(padding_shape)}",
        )
    values = cast(tuple[int, ...], padding.get_values())
    return [(values[2 * d], values[2 * d + 1]) for d in range(rank)]


def _window_attr(attr: DenseArrayBase | None, rank: int) -> tuple[int, ...]:
    return (1,) * rank if attr is None else array_values(attr)


# --- reduce --------------------------------------------------------------------

COMPACT_REDUCERS = (
    "stablehlo.add",
    "stablehlo.multiply",
    "stablehlo.maximum",
    "stablehlo.minimum",
    "stablehlo.and",
    "stablehlo.or",
    "stablehlo.xor",
)
"""The commutative binary ops of stablehlo: a reduce whose body is one of them
prints as `applies <op>`."""


def _is_compact_reducer(name: str, op_type: type[Operation] | None) -> bool:
    if name in COMPACT_REDUCERS:
        return True
    return (
        op_type is not None
        and name.startswith("stablehlo.")
        and issubclass(op_type, IRDLOperation)
        and op_type.has_trait(Commutative)
    )


def _compact_inner_op(op: ReduceOp) -> Operation | None:
    """The body's single op when the reduce can print as `applies <op>` (the
    rule StableHLO prints by): one input; the body is one commutative binary
    stablehlo op on the two block arguments, in order, whose operands and
    result are tensor<E> (E the input's element type), then a return of its
    result. An op carrying attributes is not compact, so none are lost."""
    if len(op.inputs) != 1 or len(op.body.blocks) != 1:
        return None
    block = op.body.block
    ops = list(block.ops)
    if len(ops) != 2:
        return None
    inner, ret = ops
    if not _is_compact_reducer(inner.name, type(inner)):
        return None
    if inner.regions or inner.attributes or inner.properties:
        return None
    if len(inner.operands) != 2 or len(inner.results) != 1:
        return None
    expected = TensorType(element_type(op.inputs[0].type), [])
    if any(t != expected for t in (*inner.operand_types, *inner.result_types)):
        return None
    if list(block.args) != list(inner.operands):
        return None
    if not isinstance(ret, ReturnOp) or list(ret.operands) != list(inner.results):
        return None
    return inner


def _parse_compact_body(
    parser: Parser, name: str, pos: int, input_type: Attribute
) -> Region:
    """The body of `applies <name>`: two tensor<E> arguments, the op on them,
    and a return of its result."""
    op_type = parser.ctx.get_optional_op(name)
    if op_type is None or not _is_compact_reducer(name, op_type):
        parser.raise_error(
            f"expected the reducer after `applies` to be a commutative binary op of "
            f"the stablehlo dialect ({', '.join(COMPACT_REDUCERS)}), found '{name}'",
            pos,
        )
    if not isinstance(input_type, TensorType):
        parser.raise_error(f"expected a tensor input type, found {input_type}", pos)
    scalar = TensorType(input_type.get_element_type(), [])
    block = Block(arg_types=[scalar, scalar])
    inner = op_type.create(operands=list(block.args), result_types=[scalar])
    # xlir's parser gives every op its place in the text; the built op takes
    # the place of its name, so its diagnostics point there.
    locate = getattr(parser, "source_location", None)
    if locate is not None:
        inner.location = locate(pos)
    block.add_ops([inner, ReturnOp(inner.results)])
    return Region(block)


def _parse_reducer_argument(parser: Parser) -> Parser.Argument:
    """`%a: tensor<f32>`, with an optional `loc(...)` after the type."""
    argument = parser.parse_argument()
    location = parser.parse_optional_location()
    if location is not None:
        argument.location = location
    return argument


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """`stablehlo.reduce(%x init: %zero) applies stablehlo.add across
    dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>`.

    Reduces each input over `dimensions` with the body, starting from its init
    value. The body takes (acc_0..acc_N-1, x_0..x_N-1); the region form lists
    them in pairs, `reducer(%acc_0: T, %x_0: T) (%acc_1: T, %x_1: T)`."""

    name = "stablehlo.reduce"
    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    dimensions = prop_def(DenseArrayBase[I64])
    body = region_def()
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(RecursiveEffects())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        init_values: Sequence[SSAValue],
        dimensions: Sequence[int],
        body: Region,
        result_types: Sequence[Attribute] | None = None,
    ):
        if result_types is None:
            reduced = shape_rules.infer_reduce(shape(inputs[0].type), dimensions)
            result_types = [
                TensorType(element_type(init.type), reduced) for init in init_values
            ]
        super().__init__(
            operands=[inputs, init_values],
            result_types=[result_types],
            properties={"dimensions": i64_array(dimensions)},
            regions=[body],
        )

    @property
    def dims(self) -> tuple[int, ...]:
        return array_values(self.dimensions)

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        pos = parser.pos
        inputs, inits = [], []
        while True:
            parser.parse_punctuation("(")
            inputs.append(parser.parse_unresolved_operand())
            parser.parse_keyword("init")
            parser.parse_punctuation(":")
            inits.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(")")
            if parser.parse_optional_punctuation(",") is None:
                break
        inner_name, inner_pos = None, parser.pos
        if parser.parse_optional_keyword("applies") is not None:
            inner_pos = parser.pos
            inner_name = parser.parse_identifier(
                " (the reducer op, e.g. stablehlo.add)"
            )
        parser.parse_keyword("across")
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        dims = parse_int_list(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = parse_function_type_tail(parser)
        values = resolve_operands(parser, [*inputs, *inits], operand_types, pos)
        if inner_name is not None:
            if len(inputs) != 1:
                parser.raise_error(
                    f"`applies {inner_name}` reduces one input, but "
                    f"{len(inputs)} are given; use the `reducer` region form",
                    inner_pos,
                )
            body = _parse_compact_body(parser, inner_name, inner_pos, operand_types[0])
        else:
            parser.parse_keyword("reducer")
            accumulators: list[Parser.Argument] = []
            elements: list[Parser.Argument] = []
            while parser.parse_optional_punctuation("(") is not None:
                accumulators.append(_parse_reducer_argument(parser))
                parser.parse_punctuation(",")
                elements.append(_parse_reducer_argument(parser))
                parser.parse_punctuation(")")
            body = parser.parse_region([*accumulators, *elements])
        n = len(inputs)
        op = cls(values[:n], values[n:], dims, body, result_types)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        for i, (value, init) in enumerate(
            zip(self.inputs, self.init_values, strict=False)
        ):
            printer.print_string(", (" if i else "(")
            printer.print_operand(value)
            printer.print_string(" init: ")
            printer.print_operand(init)
            printer.print_string(")")
        inner = _compact_inner_op(self)
        if inner is not None:
            printer.print_string(f" applies {inner.name}")
        printer.print_string(f" across dimensions = {print_int_list(self.dims)}")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)
        if inner is not None:
            return
        printer.print_string("\n reducer")
        args = self.body.blocks.first.args if self.body.blocks.first else ()
        n = len(self.inputs)
        for i in range(n):
            if i + n >= len(args):
                break
            printer.print_string("(")
            printer.print_block_argument(args[i])
            printer.print_string(", ")
            printer.print_block_argument(args[i + n])
            printer.print_string(") ")
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        _check_inits(self, self.inputs, self.init_values)
        _check_same_shapes(self, self.inputs, "input")
        if len(self.outputs) != len(self.inputs):
            raise _fail(
                self,
                f"has {len(self.inputs)} inputs but {len(self.outputs)} results; "
                "each input gives one result",
            )
        operand_shape = shape(self.inputs[0].type)
        reduced: Shape = ()

        def infer() -> None:
            nonlocal reduced
            reduced = shape_rules.infer_reduce(operand_shape, self.dims)

        check_rule(self, infer)
        _check_result_shapes(
            self,
            self.outputs,
            reduced,
            f"reducing {list(operand_shape)} over dimensions {list(self.dims)} gives",
        )
        accumulators = _check_reducer(self, self.body, "body", self.inputs)
        _check_result_elements(self, self.outputs, accumulators)


# --- reduce_window -------------------------------------------------------------


@irdl_op_definition
class ReduceWindowOp(IRDLOperation):
    """`"stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64:
    1, 2, 2, 1>, ...}> ({...}) : (T, tensor<E>) -> T'`: reduces every window
    (pooling, and cumulative sums with a padded full-length window)."""

    name = "stablehlo.reduce_window"
    inputs = var_operand_def(TensorType)
    init_values = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    window_dimensions = prop_def(DenseArrayBase[I64])
    window_strides = opt_prop_def(DenseArrayBase[I64])
    base_dilations = opt_prop_def(DenseArrayBase[I64])
    window_dilations = opt_prop_def(DenseArrayBase[I64])
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    body = region_def()
    irdl_options = (SameVariadicOperandSize(),)
    traits = traits_def(RecursiveEffects())

    def inferred_shape(self) -> Shape:
        """The result shape the window attributes give (raises ShapeError)."""
        operand = shape(self.inputs[0].type)
        rank = len(operand)
        window = array_values(self.window_dimensions)
        if len(window) != rank:
            raise ShapeError(
                f"window_dimensions has {len(window)} entries but the operand has "
                f"rank {rank}"
            )
        return infer_reduce_window(
            operand,
            window,
            _window_attr(self.window_strides, rank),
            _window_attr(self.base_dilations, rank),
            _window_attr(self.window_dilations, rank),
            _padding_pairs(self, self.padding, rank),
        )

    def verify_(self) -> None:
        _check_inits(self, self.inputs, self.init_values)
        _check_same_shapes(self, self.inputs, "input")
        if len(self.outputs) != len(self.inputs):
            raise _fail(
                self,
                f"has {len(self.inputs)} inputs but {len(self.outputs)} results; "
                "each input gives one result",
            )
        inferred: Shape = ()

        def infer() -> None:
            nonlocal inferred
            inferred = self.inferred_shape()

        check_rule(self, infer)
        _check_result_shapes(self, self.outputs, inferred, "the window attributes give")
        accumulators = _check_reducer(self, self.body, "body", self.inputs)
        _check_result_elements(self, self.outputs, accumulators)


# --- select_and_scatter ----------------------------------------------------------


@irdl_op_definition
class SelectAndScatterOp(IRDLOperation):
    """`"stablehlo.select_and_scatter"(%x, %source, %init) <{window_dimensions =
    ..., window_strides = ...}> ({select}, {scatter}) : (...) -> T`: in each
    window of `x`, `select` picks one element, and the window's `source` value
    is scattered onto it (the gradient of max pooling)."""

    name = "stablehlo.select_and_scatter"
    operand = operand_def(TensorType)
    source = operand_def(TensorType)
    init_value = operand_def(TensorType)
    result = result_def(TensorType)
    window_dimensions = opt_prop_def(DenseArrayBase[I64])
    window_strides = opt_prop_def(DenseArrayBase[I64])
    padding = opt_prop_def(DenseIntOrFPElementsAttr)
    select = region_def()
    scatter = region_def()
    traits = traits_def(RecursiveEffects())

    def verify_(self) -> None:
        operand_shape = shape(self.operand.type)
        rank = len(operand_shape)
        element = element_type(self.operand.type)
        if element_type(self.source.type) != element:
            raise _fail(
                self,
                f"source has element type {element_type(self.source.type)} but the "
                f"operand has {element}",
            )
        if shape(self.result.type) != operand_shape:
            raise _fail(
                self,
                f"result shape {list(shape(self.result.type))} must equal the "
                f"operand shape {list(operand_shape)}",
            )
        if shape(self.init_value.type):
            raise _fail(
                self,
                f"init value must be rank 0, but has shape "
                f"{list(shape(self.init_value.type))}",
            )
        windows: Shape = ()

        def infer() -> None:
            nonlocal windows
            window = _window_attr(self.window_dimensions, rank)
            if len(window) != rank:
                raise ShapeError(
                    f"window_dimensions has {len(window)} entries but the operand "
                    f"has rank {rank}"
                )
            windows = infer_reduce_window(
                operand_shape,
                window,
                _window_attr(self.window_strides, rank),
                (1,) * rank,
                (1,) * rank,
                _padding_pairs(self, self.padding, rank),
            )

        check_rule(self, infer)
        if shape(self.source.type) != windows:
            raise _fail(
                self,
                f"source has shape {list(shape(self.source.type))} but the operand "
                f"has {list(windows)} windows",
            )
        scalar = TensorType(element, [])
        check_region_signature(
            self, self.select, "select region", [scalar, scalar], [TensorType(i1, [])]
        )
        block = region_block(self, self.scatter, "scatter region")
        args = [arg.type for arg in block.args]
        if len(args) != 2:
            raise _fail(
                self, f"scatter region must take 2 arguments, but takes {len(args)}"
            )
        accumulator = args[0]
        if (
            not isinstance(accumulator, TensorType)
            or shape(accumulator)
            or args[1] != accumulator
        ):
            raise _fail(
                self,
                f"scatter region must take two rank-0 tensors of one type, but "
                f"takes ({args[0]}, {args[1]})",
            )
        check_region_signature(
            self, self.scatter, "scatter region", args, [accumulator]
        )
        if self.init_value.type != accumulator:
            raise _fail(
                self,
                f"init value has type {self.init_value.type} but the scatter region "
                f"accumulates {accumulator}",
            )
        if element_type(self.result.type) != element_type(accumulator):
            raise _fail(
                self,
                f"result has element type {element_type(self.result.type)} but the "
                f"scatter region accumulates {element_type(accumulator)}",
            )


# --- sort ------------------------------------------------------------------------


@irdl_op_definition
class SortOp(IRDLOperation):
    """`"stablehlo.sort"(%keys, %values) <{dimension = 0 : i64, is_stable =
    true}> ({comparator}) : (T, U) -> (T, U)`: sorts all inputs together along
    `dimension` by the comparator, which takes (lhs_0, rhs_0, lhs_1, rhs_1,
    ...) and returns tensor<i1> (whether lhs goes first)."""

    name = "stablehlo.sort"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    dimension = opt_prop_def(IntegerAttr[I64])
    is_stable = opt_prop_def(BoolAttr)
    comparator = region_def()
    traits = traits_def(RecursiveEffects())

    @property
    def sort_dimension(self) -> int:
        """The dimension, normalized to [0, rank)."""
        dim = -1 if self.dimension is None else self.dimension.value.data
        rank = len(shape(self.inputs[0].type)) if self.inputs else 0
        return dim + rank if dim < 0 else dim

    def verify_(self) -> None:
        if not self.inputs:
            raise _fail(self, "needs at least one input")
        if list(self.inputs.types) != list(self.outputs.types):
            raise _fail(
                self,
                "result types ("
                + ", ".join(str(t) for t in self.outputs.types)
                + ") must equal the input types ("
                + ", ".join(str(t) for t in self.inputs.types)
                + ")",
            )
        _check_same_shapes(self, self.inputs, "input")
        rank = len(shape(self.inputs[0].type))
        dim = -1 if self.dimension is None else self.dimension.value.data
        if not -rank <= dim < rank:
            raise _fail(self, f"dimension {dim} is out of range [{-rank}, {rank})")
        arg_types: list[Attribute] = []
        for value in self.inputs:
            scalar = TensorType(element_type(value.type), [])
            arg_types += [scalar, scalar]
        check_region_signature(
            self, self.comparator, "comparator", arg_types, [TensorType(i1, [])]
        )


@irdl_op_definition
class MapOp(IRDLOperation):
    """`"stablehlo.map"(%a, %b) ({body}) {dimensions = array<i64: 0, 1>}`:
    applies the body (rank-0 arguments, one rank-0 result) to the elements of
    its inputs at each index; `dimensions` must be every dimension in order."""

    name = "stablehlo.map"
    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    dimensions = prop_def(DenseArrayBase[I64])
    computation = region_def()
    traits = traits_def(RecursiveEffects())

    def verify_(self) -> None:
        out = shape(self.result.type)
        if not self.inputs:
            raise _fail(self, "needs at least one input")
        for i, value in enumerate(self.inputs):
            if shape(value.type) != out:
                raise _fail(
                    self,
                    f"input #{i} has shape {list(shape(value.type))}, but the result "
                    f"has shape {list(out)}",
                )
        dims = list(array_values(self.dimensions))
        if dims != list(range(len(out))):
            raise _fail(
                self,
                f"dimensions must be {list(range(len(out)))} (every dimension in "
                f"order), but are {dims}",
            )
        scalars = [TensorType(element_type(v.type), []) for v in self.inputs]
        check_region_signature(
            self,
            self.computation,
            "computation",
            scalars,
            [TensorType(element_type(self.result.type), [])],
        )


REDUCTION_OPS: list[type[IRDLOperation]] = [
    MapOp,
    ReduceOp,
    ReduceWindowOp,
    SelectAndScatterOp,
    SortOp,
]

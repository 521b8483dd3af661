"""Control flow and structural ops: while, case, if, return,
optimization_barrier, composite, custom_call, rng_bit_generator, tuples and
tokens.

`stablehlo.return` ends the region of every stablehlo op that has one (reduce,
sort, while, case, ...); each region op checks what its regions take and
return with the helpers `region_block` and `check_region_signature` here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    I32,
    ArrayAttr,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    TupleType,
    i1,
    i32,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import (
    Attribute,
    Block,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    IsTerminator,
    OpTrait,
    Pure,
    ReturnLike,
)
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.effects import RecursiveEffects
from xlir.dialects.stablehlo.enums import RngAlgorithm, RngAlgorithmAttr
from xlir.dialects.stablehlo.types import (
    element_type,
    is_float,
    is_integer,
    is_unsigned,
    shape,
)
from xlir.dialects.symbols import lookup_symbol
from xlir.dialects.syntax import (
    parse_function_type_tail,
    parse_optional_operand_list,
    parse_terminator_values,
    parse_type_list,
    print_attr_dict,
    print_function_type,
    print_operands,
    print_terminator_values,
    resolve_operands,
)

REGION_OP_NAMES: tuple[str, ...] = (
    "stablehlo.reduce",
    "stablehlo.reduce_window",
    "stablehlo.select_and_scatter",
    "stablehlo.sort",
    "stablehlo.scatter",
    "stablehlo.while",
    "stablehlo.case",
    "stablehlo.if",
    "stablehlo.map",
    "stablehlo.all_reduce",
    "stablehlo.reduce_scatter",
    "stablehlo.collective_reduce",
    "chlo.scan",
    "device.collective",
)
"""The stablehlo ops whose regions end with `stablehlo.return`."""


def _fail(op: Operation, message: str) -> VerifyException:
    return VerifyException(f"'{op.name}' op {message}")


def _types(types: Sequence[Attribute]) -> str:
    return "(" + ", ".join(str(t) for t in types) + ")"


class HasRegionOpParent(OpTrait):
    """Like xDSL's `HasParent`, but by op name: the region ops live in several
    files (reduction, indexing, here), which would otherwise import each other."""

    def verify(self, op: Operation) -> None:
        parent = op.parent_op()
        if parent is None or parent.name in REGION_OP_NAMES:
            return
        raise _fail(
            op,
            f"expects its parent op to be a stablehlo op with regions (one of "
            f"{', '.join(REGION_OP_NAMES)}), but it is in '{parent.name}'",
        )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`stablehlo.return %a, %b : T1, T2`: the values a region yields to its op."""

    name = "stablehlo.return"
    returned = var_operand_def()
    traits = traits_def(Pure(), IsTerminator(), ReturnLike(), HasRegionOpParent())

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[values])

    @classmethod
    def parse(cls, parser: Parser) -> ReturnOp:
        values, attributes = parse_terminator_values(parser)
        op = cls(values)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        print_terminator_values(printer, self.returned, self.attributes)


def region_block(op: Operation, region: Region, what: str) -> Block:
    """The single block of a region, or a verify error naming the region."""
    blocks = list(region.blocks)
    if len(blocks) != 1:
        raise _fail(op, f"{what} must have exactly one block, but has {len(blocks)}")
    return blocks[0]


def returned_values(op: Operation, block: Block, what: str) -> Sequence[SSAValue]:
    """The operands of the `stablehlo.return` that ends the block."""
    last = block.last_op
    if not isinstance(last, ReturnOp):
        found = "nothing" if last is None else f"'{last.name}'"
        raise _fail(op, f"{what} must end with stablehlo.return, but ends with {found}")
    return last.returned


def check_region_signature(
    op: Operation,
    region: Region,
    what: str,
    arg_types: Sequence[Attribute],
    result_types: Sequence[Attribute],
) -> None:
    """The region has one block taking `arg_types` and returning `result_types`."""
    block = region_block(op, region, what)
    got_args = [arg.type for arg in block.args]
    if got_args != list(arg_types):
        raise _fail(
            op,
            f"{what} takes {_types(got_args)} but must take {_types(arg_types)}",
        )
    got_results = [value.type for value in returned_values(op, block, what)]
    if got_results != list(result_types):
        raise _fail(
            op,
            f"{what} returns {_types(got_results)} but must return "
            f"{_types(result_types)}",
        )


@irdl_op_definition
class WhileOp(IRDLOperation):
    """`stablehlo.while(%iterArg = %x, ...) : T, ... cond {...} do {...}`.

    Both regions take the loop-carried values; `cond` returns a tensor<i1>,
    `body` the next values. The pretty form binds the arguments of both regions
    with the one `%iterArg = %x` list, so they print with the same names."""

    name = "stablehlo.while"
    operand = var_operand_def()
    outputs = var_result_def()
    cond = region_def()
    body = region_def()
    traits = traits_def(RecursiveEffects())

    def __init__(self, operands: Sequence[SSAValue], cond: Region, body: Region):
        super().__init__(
            operands=[operands],
            result_types=[[v.type for v in operands]],
            regions=[cond, body],
        )

    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        pos = parser.pos
        names: list[Parser.UnresolvedArgument] = []
        operands = []
        parser.parse_punctuation("(")
        if parser.parse_optional_punctuation(")") is None:
            while True:
                names.append(parser.parse_argument(expect_type=False))
                parser.parse_punctuation("=")
                operands.append(parser.parse_unresolved_operand())
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation(")")
        types: list[Attribute] = []
        if operands:
            parser.parse_punctuation(":")
            types = parse_type_list(parser)
        values = resolve_operands(parser, operands, types, pos)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        arguments = [name.resolve(t) for name, t in zip(names, types, strict=True)]
        parser.parse_keyword("cond")
        cond = parser.parse_region(arguments)
        parser.parse_keyword("do")
        body = parser.parse_region(arguments)
        op = cls(values, cond, body)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        cond_args = self.cond.blocks.first.args if self.cond.blocks.first else ()
        body_args = self.body.blocks.first.args if self.body.blocks.first else ()
        printer.print_string("(")
        for i, (arg, value) in enumerate(zip(cond_args, self.operand, strict=False)):
            if i:
                printer.print_string(", ")
            printer.print_ssa_value(arg)
            printer.print_string(" = ")
            printer.print_operand(value)
        printer.print_string(")")
        if self.operand:
            printer.print_string(" : ")
            printer.print_list(self.operand.types, printer.print_attribute)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        # The body's arguments are spelled like the cond's, as the pretty form
        # binds both from one list.
        names = printer._ssa_values  # pyright: ignore[reportPrivateUsage]
        for cond_arg, body_arg in zip(cond_args, body_args, strict=False):
            if cond_arg in names and body_arg not in names:
                names[body_arg] = names[cond_arg]
        printer.print_string("\ncond ")
        printer.print_region(self.cond, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        types = list(self.operand.types)
        if list(self.outputs.types) != types:
            raise _fail(
                self,
                f"result types {_types(self.outputs.types)} must equal the operand "
                f"types {_types(types)}",
            )
        check_region_signature(
            self, self.cond, "cond region", types, [TensorType(i1, [])]
        )
        check_region_signature(self, self.body, "body region", types, types)


@irdl_op_definition
class CaseOp(IRDLOperation):
    """`"stablehlo.case"(%index) ({...}, {...}) : (tensor<i32>) -> T`: runs the
    branch `index` (the last one when out of range) and yields its results."""

    name = "stablehlo.case"
    index = operand_def(TensorType)
    outputs = var_result_def()
    branches = var_region_def()
    traits = traits_def(RecursiveEffects())

    def verify_(self) -> None:
        index_type = self.index.type
        if shape(index_type) != () or element_type(index_type) != i32:
            raise _fail(
                self, f"index must be a rank-0 tensor of i32, but has type {index_type}"
            )
        if not self.branches:
            raise _fail(self, "needs at least one branch")
        for i, branch in enumerate(self.branches):
            check_region_signature(
                self, branch, f"branch #{i}", [], list(self.outputs.types)
            )


@irdl_op_definition
class OptimizationBarrierOp(IRDLOperation):
    """`stablehlo.optimization_barrier %a, %b : Ta, Tb`: passes its operands
    through unchanged, and no computation moves across it."""

    name = "stablehlo.optimization_barrier"
    operand = var_operand_def()
    outputs = var_result_def()

    def __init__(self, operands: Sequence[SSAValue]):
        super().__init__(operands=[operands], result_types=[[v.type for v in operands]])

    @classmethod
    def parse(cls, parser: Parser) -> OptimizationBarrierOp:
        attributes = parser.parse_optional_attr_dict()
        pos = parser.pos
        if parser.parse_optional_punctuation("(") is not None:
            parser.parse_punctuation(")")
            op = cls([])
        else:
            operands = parse_optional_operand_list(parser)
            parser.parse_punctuation(":")
            types = parse_type_list(parser)
            op = cls(resolve_operands(parser, operands, types, pos))
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        print_attr_dict(printer, self.attributes)
        if not self.operand:
            printer.print_string("()")
            return
        printer.print_string(" ")
        print_operands(printer, self.operand)
        printer.print_string(" : ")
        printer.print_list(self.operand.types, printer.print_attribute)

    def verify_(self) -> None:
        if list(self.operand.types) != list(self.outputs.types):
            raise _fail(
                self,
                f"result types {_types(self.outputs.types)} must equal the operand "
                f"types {_types(self.operand.types)}",
            )


def _split_attr_dict(
    attributes: dict[str, Attribute], property_names: Sequence[str]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """The pretty forms of composite and custom_call print properties and
    discardable attributes in one dictionary; split it back."""
    properties = {k: v for k, v in attributes.items() if k in property_names}
    others = {k: v for k, v in attributes.items() if k not in property_names}
    return properties, others


def _print_merged_attr_dict(printer: Printer, op: Operation, skip: str) -> None:
    merged = {k: v for k, v in op.properties.items() if k != skip}
    merged.update(op.attributes)
    print_attr_dict(printer, dict(sorted(merged.items())))


@irdl_op_definition
class CompositeOp(IRDLOperation):
    """`stablehlo.composite "chlo.top_k" %x {composite_attributes = {..},
    decomposition = @impl, version = 1 : i32} : (T) -> (T, T)`: a named op
    whose meaning is the function `decomposition`."""

    name = "stablehlo.composite"
    PROPERTY_NAMES: ClassVar[tuple[str, ...]] = (
        "composite_attributes",
        "decomposition",
        "version",
    )
    inputs = var_operand_def()
    outputs = var_result_def()
    composite_name = prop_def(StringAttr, prop_name="name")
    composite_attributes = opt_prop_def(DictionaryAttr)
    decomposition = opt_prop_def(SymbolRefAttr)
    version = opt_prop_def(IntegerAttr)

    @classmethod
    def parse(cls, parser: Parser) -> CompositeOp:
        name = parser.parse_str_literal()
        pos = parser.pos
        operands = parse_optional_operand_list(parser)
        properties, attributes = _split_attr_dict(
            parser.parse_optional_attr_dict(), cls.PROPERTY_NAMES
        )
        parser.parse_punctuation(":")
        operand_types, result_types = parse_function_type_tail(parser)
        op = cls.create(
            operands=resolve_operands(parser, operands, operand_types, pos),
            result_types=result_types,
            properties={"name": StringAttr(name), **properties},
            attributes=attributes,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.composite_name.data)
        if self.inputs:
            printer.print_string(" ")
            print_operands(printer, self.inputs)
        _print_merged_attr_dict(printer, self, "name")
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        if self.decomposition is None:
            return
        symbol = self.decomposition.string_value()
        try:
            callee = lookup_symbol(self, self.decomposition)
        except ValueError:
            return  # not inside a module yet: nothing to look the name up in
        if callee is None:
            raise _fail(
                self, f"decomposition @{symbol} does not name a function in the module"
            )
        if not isinstance(callee, FuncOp):
            raise _fail(
                self,
                f"decomposition @{symbol} names a '{callee.name}' op, not a function",
            )
        inputs = list(callee.function_type.inputs.data)
        outputs = list(callee.function_type.outputs.data)
        if inputs != list(self.operand_types) or outputs != list(self.result_types):
            raise _fail(
                self,
                f"decomposition @{symbol} has type {_types(inputs)} -> "
                f"{_types(outputs)} but the composite has type "
                f"{_types(self.operand_types)} -> {_types(self.result_types)}",
            )


@irdl_op_definition
class CustomCallOp(IRDLOperation):
    """`stablehlo.custom_call @target(%x) {backend_config = "", ...} : (T) -> T`:
    a call into code outside the program (a library, a runtime check)."""

    name = "stablehlo.custom_call"
    PROPERTY_NAMES: ClassVar[tuple[str, ...]] = (
        "has_side_effect",
        "backend_config",
        "api_version",
        "called_computations",
        "operand_layouts",
        "result_layouts",
        "output_operand_aliases",
    )
    inputs = var_operand_def()
    outputs = var_result_def()
    call_target_name = prop_def(StringAttr)
    has_side_effect = opt_prop_def(BoolAttr)
    backend_config = opt_prop_def(Attribute)
    api_version = opt_prop_def(IntegerAttr)
    called_computations = opt_prop_def(ArrayAttr)
    operand_layouts = opt_prop_def(ArrayAttr)
    result_layouts = opt_prop_def(ArrayAttr)
    output_operand_aliases = opt_prop_def(ArrayAttr)

    @classmethod
    def parse(cls, parser: Parser) -> CustomCallOp:
        target = parser.parse_symbol_name()
        pos = parser.pos
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        properties, attributes = _split_attr_dict(
            parser.parse_optional_attr_dict(), cls.PROPERTY_NAMES
        )
        parser.parse_punctuation(":")
        operand_types, result_types = parse_function_type_tail(parser)
        return cls.create(
            operands=resolve_operands(parser, operands, operand_types, pos),
            result_types=result_types,
            properties={"call_target_name": target, **properties},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.call_target_name.data)
        printer.print_string("(")
        print_operands(printer, self.inputs)
        printer.print_string(")")
        _print_merged_attr_dict(printer, self, "call_target_name")
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        for what, layouts, values in (
            ("operand", self.operand_layouts, self.inputs),
            ("result", self.result_layouts, self.outputs),
        ):
            if layouts is None:
                continue
            if len(layouts.data) != len(values):
                raise _fail(
                    self,
                    f"has {len(values)} {what}s but {len(layouts.data)} {what} layouts",
                )
            for i, (layout, value) in enumerate(zip(layouts.data, values, strict=True)):
                if not isinstance(value.type, TensorType):
                    continue
                rank = len(shape(value.type))
                order = (
                    sorted(int(v) for v in layout.get_values())
                    if isinstance(layout, DenseIntOrFPElementsAttr)
                    else None
                )
                if order != list(range(rank)):
                    raise _fail(
                        self,
                        f"{what} layout #{i} must be a permutation of "
                        f"[0, {rank}) for type {value.type}",
                    )


@irdl_op_definition
class RngBitGeneratorOp(IRDLOperation):
    """`%state, %bits = stablehlo.rng_bit_generator %s, algorithm = DEFAULT :
    (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x4xui32>)`: random bits and
    the next generator state."""

    name = "stablehlo.rng_bit_generator"
    initial_state = operand_def(TensorType)
    output_state = result_def(TensorType)
    output = result_def(TensorType)
    rng_algorithm = prop_def(RngAlgorithmAttr)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> RngBitGeneratorOp:
        pos = parser.pos
        state = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        parser.parse_keyword("algorithm")
        parser.parse_punctuation("=")
        algorithm = parser.parse_str_enum(RngAlgorithm)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = parse_function_type_tail(parser)
        op = cls.create(
            operands=resolve_operands(parser, [state], operand_types, pos),
            result_types=result_types,
            properties={"rng_algorithm": RngAlgorithmAttr(algorithm)},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.initial_state)
        printer.print_string(f", algorithm = {self.rng_algorithm.data.value}")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        state = self.initial_state.type
        if self.output_state.type != state:
            raise _fail(
                self,
                f"output state type {self.output_state.type} must equal the initial "
                f"state type {state}",
            )
        state_shape = shape(state)
        if len(state_shape) != 1 or not is_unsigned(element_type(state)):
            raise _fail(
                self,
                f"initial state must be a 1-D tensor of unsigned integers, but has "
                f"type {state}",
            )
        algorithm = self.rng_algorithm.data
        sizes = {RngAlgorithm.THREE_FRY: (2,), RngAlgorithm.PHILOX: (2, 3)}
        allowed = sizes.get(algorithm)
        if allowed is not None and state_shape[0] not in allowed:
            raise _fail(
                self,
                f"{algorithm.value} needs an initial state of "
                f"{' or '.join(str(n) for n in allowed)} elements, but it has "
                f"{state_shape[0]}",
            )
        out = element_type(self.output.type)
        if not (is_integer(out) or is_float(out)):
            raise _fail(
                self, f"output must have integer or float elements, but has {out}"
            )


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!stablehlo.token`: orders side effects; it carries no value."""

    name = "stablehlo.token"


@irdl_op_definition
class IfOp(IRDLOperation):
    """`"stablehlo.if"(%pred) ({...}, {...}) : (tensor<i1>) -> T`: runs the
    true branch or the false branch and yields its results."""

    name = "stablehlo.if"
    pred = operand_def(TensorType)
    outputs = var_result_def()
    true_branch = region_def()
    false_branch = region_def()
    traits = traits_def(RecursiveEffects())

    def verify_(self) -> None:
        pred_type = self.pred.type
        if shape(pred_type) != () or element_type(pred_type) != i1:
            raise _fail(
                self, f"pred must be a rank-0 tensor of i1, but has type {pred_type}"
            )
        results = list(self.outputs.types)
        check_region_signature(self, self.true_branch, "true branch", [], results)
        check_region_signature(self, self.false_branch, "false branch", [], results)


@irdl_op_definition
class TupleOp(IRDLOperation):
    """`stablehlo.tuple %a, %b : tuple<Ta, Tb>`: a tuple of its operands."""

    name = "stablehlo.tuple"
    val = var_operand_def()
    result = result_def(TupleType)
    traits = traits_def(Pure())

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(
            operands=[values],
            result_types=[
                TupleType(ArrayAttr([cast(TypeAttribute, v.type) for v in values]))
            ],
        )

    @classmethod
    def parse(cls, parser: Parser) -> TupleOp:
        pos = parser.pos
        operands = parse_optional_operand_list(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_pos = parser.pos
        result = parser.parse_type()
        if not isinstance(result, TupleType):
            parser.raise_error(f"expected a tuple type, found {result}", type_pos)
        values = resolve_operands(parser, operands, list(result.types.data), pos)
        op = cls(values)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        if self.val:
            printer.print_string(" ")
            print_operands(printer, self.val)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        want = list(self.result.type.types.data)  # pyright: ignore[reportAttributeAccessIssue]
        if list(self.val.types) != want:
            raise _fail(
                self,
                f"result type {self.result.type} must be the tuple of the operand "
                f"types {_types(self.val.types)}",
            )


@irdl_op_definition
class GetTupleElementOp(IRDLOperation):
    """`stablehlo.get_tuple_element %t[1] : (tuple<Ta, Tb>) -> Tb`."""

    name = "stablehlo.get_tuple_element"
    operand = operand_def(TupleType)
    result = result_def()
    index = prop_def(IntegerAttr[I32])
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> GetTupleElementOp:
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        index = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation("]")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_types, result_types = parse_function_type_tail(parser)
        values = resolve_operands(parser, [operand], operand_types, pos)
        if len(result_types) != 1:
            parser.raise_error("expected one result type", pos)
        op = cls.create(
            operands=list(values),
            result_types=list(result_types),
            properties={"index": IntegerAttr(index, i32)},
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        printer.print_string(f"[{self.index.value.data}]")
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        print_function_type(printer, [self.operand.type], [self.result.type])

    def verify_(self) -> None:
        elements = list(self.operand.type.types.data)  # pyright: ignore[reportAttributeAccessIssue]
        index = self.index.value.data
        if not 0 <= index < len(elements):
            raise _fail(
                self,
                f"index {index} is out of range for a tuple of {len(elements)} "
                "element(s)",
            )
        if self.result.type != elements[index]:
            raise _fail(
                self,
                f"result type {self.result.type} must be the tuple's element "
                f"#{index}, {elements[index]}",
            )


@irdl_op_definition
class AfterAllOp(IRDLOperation):
    """`stablehlo.after_all %t1, %t2 : !stablehlo.token`: a token that follows
    every operand token. Pure, as upstream: a token nothing reads orders
    nothing."""

    name = "stablehlo.after_all"
    inputs = var_operand_def(TokenType)
    result = result_def(TokenType)
    traits = traits_def(Pure())

    def __init__(self, tokens: Sequence[SSAValue]):
        super().__init__(operands=[tokens], result_types=[TokenType()])

    @classmethod
    def parse(cls, parser: Parser) -> AfterAllOp:
        pos = parser.pos
        operands = parse_optional_operand_list(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        token_pos = parser.pos
        token = parser.parse_type()
        if not isinstance(token, TokenType):
            parser.raise_error(f"expected !stablehlo.token, found {token}", token_pos)
        op = cls(resolve_operands(parser, operands, [token] * len(operands), pos))
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        if self.inputs:
            printer.print_string(" ")
            print_operands(printer, self.inputs)
        print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class CreateTokenOp(IRDLOperation):
    """`stablehlo.create_token : !stablehlo.token` (the older spelling of an
    after_all without operands)."""

    name = "stablehlo.create_token"
    result = result_def(TokenType)
    assembly_format = "attr-dict `:` type($result)"


CONTROL_FLOW_OPS: list[type[IRDLOperation]] = [
    ReturnOp,
    WhileOp,
    CaseOp,
    IfOp,
    TupleOp,
    GetTupleElementOp,
    AfterAllOp,
    CreateTokenOp,
    OptimizationBarrierOp,
    CompositeOp,
    CustomCallOp,
    RngBitGeneratorOp,
]

CONTROL_FLOW_TYPES: list[type[TypeAttribute]] = [TokenType]

"""`loop.parallel`, `loop.for` and `loop.yield`: loop nests over index spaces.

Every bound and step is either a static integer or an `index` SSA value. The
static case is the common one (XLA's shapes are static), so both ops keep their
bounds as three `i64` arrays (`static_lower`, `static_upper`, `static_step`),
with `DYNAMIC_INDEX` marking a position whose value is the next operand of the
matching `dynamic_*` operand list (MLIR's "mixed static/dynamic" convention, as
in `memref.subview`). A backend reads the trip count off the properties without
chasing constants; the custom syntax prints each position as written:

    loop.parallel (%i, %j) = (0, 0) to (64, %n) step (1, 1) {
      ...
    }
    %r:2 = loop.for %k = 0 to 512 step 1 iter_args(%acc = %init, %m = %init2) -> (f32, f32) {
      ...
      loop.yield %a, %b : f32, f32
    }

The `loop.yield` that ends a body with nothing to yield is implicit in the
custom syntax (as `scf.yield` is in `scf.for`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    i64,
)
from xdsl.dialects.utils import (
    AbstractYieldOperation,
    parse_assignment,
    print_assignment,
)
from xdsl.dialects.utils.dynamic_index_list import (
    get_dynamic_index_list,
    parse_dynamic_index_list_without_types,
    parse_dynamic_index_without_type,
    print_dynamic_index_list,
    split_dynamic_index_list,
    verify_dynamic_index_list,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    Pure,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.effects import RecursiveEffects
from xlir.dialects.syntax import array_values, i64_array, print_operands

from xlir.quick_op_init import segment_sizes

Bound = int | SSAValue
"""A loop bound or step: a static integer or an `index` value."""

THREADS = "threads"
"""The optional `loop.parallel` attribute `parallelize` sets
(`{threads = N : i64}`): the CPU splits the first dimension across N threads
(0: the CPUs online when it runs). Other targets and the interpreter ignore
it."""

INTERLEAVE = "interleave"
"""The optional attribute `interleave` sets on an innermost `loop.parallel`
(`{interleave = N : i64}`, N a power of two up to 16): the CPU's vectorizer
runs N vector iterations side by side in each trip of its innermost
dimension. A hint: other targets and the interpreter ignore it."""


_SEGMENTS = AttrSizedOperandSegments.attribute_name


def _types(types: Sequence[Attribute]) -> str:
    return "(" + ", ".join(map(str, types)) + ")"


class _LoopBounds(IRDLOperation):
    """The bounds and steps both loop ops share, one entry per loop dimension,
    with their verifier (one rule per message) and syntax."""

    dynamic_lower = var_operand_def(IndexType)
    dynamic_upper = var_operand_def(IndexType)
    dynamic_step = var_operand_def(IndexType)
    static_lower = prop_def(DenseArrayBase.constr(i64))
    static_upper = prop_def(DenseArrayBase.constr(i64))
    static_step = prop_def(DenseArrayBase.constr(i64))

    @staticmethod
    def bound_operands_and_properties(
        lower: Sequence[Bound], upper: Sequence[Bound], step: Sequence[Bound]
    ) -> tuple[list[SSAValue], list[int], dict[str, Attribute]]:
        """The dynamic bounds as one flat operand list, the size of each of
        their three operand groups, and the three static properties."""
        operands: list[SSAValue] = []
        sizes: list[int] = []
        properties: dict[str, Attribute] = {}
        for key, values in (
            ("static_lower", lower),
            ("static_upper", upper),
            ("static_step", step),
        ):
            static, dynamic = split_dynamic_index_list(values, DYNAMIC_INDEX)
            operands.extend(dynamic)
            sizes.append(len(dynamic))
            properties[key] = i64_array(static)
        return operands, sizes, properties

    @property
    def lower_bounds(self) -> list[Bound]:
        return _mixed(self.static_lower, self.dynamic_lower)

    @property
    def upper_bounds(self) -> list[Bound]:
        return _mixed(self.static_upper, self.dynamic_upper)

    @property
    def steps(self) -> list[Bound]:
        return _mixed(self.static_step, self.dynamic_step)

    @property
    def block(self) -> Block:
        block = self.regions[0].block
        assert block is not None
        return block

    def verify_bounds(self) -> None:
        counts = [
            len(array_values(a))
            for a in (self.static_lower, self.static_upper, self.static_step)
        ]
        if len(set(counts)) != 1:
            raise VerifyException(
                f"'{self.name}' op needs as many lower bounds, upper bounds and steps, "
                f"but has {counts[0]}, {counts[1]} and {counts[2]}"
            )
        for key in ("lower", "upper", "step"):
            static = array_values(getattr(self, f"static_{key}"))
            dynamic = getattr(self, f"dynamic_{key}")
            verify_dynamic_index_list(
                static, dynamic, DYNAMIC_INDEX, f" in '{self.name}' op {key} bounds"
            )
        bounds = list(
            zip(self.lower_bounds, self.upper_bounds, self.steps, strict=True)
        )
        for dim, (lower, upper, step) in enumerate(bounds):
            where = f" of dimension {dim}" if len(bounds) > 1 else ""
            if isinstance(step, int) and step <= 0:
                raise VerifyException(
                    f"'{self.name}' op step {step}{where} must be positive"
                )
            if isinstance(lower, int) and isinstance(upper, int) and lower > upper:
                raise VerifyException(
                    f"'{self.name}' op lower bound {lower}{where} must not exceed "
                    f"the upper bound {upper}"
                )

    def verify_block_args(self, expected: Sequence[Attribute], what: str) -> None:
        if len(self.regions[0].blocks) != 1:
            raise VerifyException(
                f"'{self.name}' op body must have exactly one block, but has "
                f"{len(self.regions[0].blocks)}"
            )
        found = list(self.block.arg_types)
        if found != list(expected):
            raise VerifyException(
                f"'{self.name}' op block argument types {_types(found)} must be "
                f"{what} {_types(expected)}"
            )

    def yield_op(self) -> YieldOp:
        last = self.block.last_op
        assert isinstance(last, YieldOp)
        return last

    def print_bounds(self, printer: Printer, delimiter: Parser.Delimiter) -> None:
        for word, key in (("", "lower"), (" to ", "upper"), (" step ", "step")):
            printer.print_string(word)
            print_dynamic_index_list(
                printer,
                DYNAMIC_INDEX,
                getattr(self, f"dynamic_{key}"),
                array_values(getattr(self, f"static_{key}")),
                delimiter=delimiter,
            )


def _mixed(static: DenseArrayBase, dynamic: Sequence[SSAValue]) -> list[Bound]:
    return get_dynamic_index_list(array_values(static), dynamic, DYNAMIC_INDEX)


def _resolve_bounds(
    parser: Parser, parsed: Sequence[tuple[Sequence[UnresolvedOperand], Sequence[int]]]
) -> tuple[list[Bound], list[Bound], list[Bound]]:
    """Lower bounds, upper bounds and steps, with SSA values resolved as
    `index`."""
    mixed: list[list[Bound]] = []
    for dynamic, static in parsed:
        if static.count(DYNAMIC_INDEX) != len(dynamic):
            parser.raise_error(
                f"a constant bound or step may not be {DYNAMIC_INDEX}: that "
                "value marks an SSA bound"
            )
        values = iter(
            parser.resolve_operands(dynamic, [IndexType()] * len(dynamic), parser.pos)
        )
        mixed.append([next(values) if s == DYNAMIC_INDEX else s for s in static])
    return mixed[0], mixed[1], mixed[2]


def _add_implicit_yield(block: Block) -> None:
    """End a parsed body with `loop.yield` unless it ends in a terminator (a
    wrong one is the verifier's to report, with its location)."""
    last = block.last_op
    if last is None or not last.has_trait(IsTerminator, value_if_unregistered=False):
        block.add_op(YieldOp())


def _parse_bound(parser: Parser) -> tuple[list[UnresolvedOperand], list[int]]:
    value = parse_dynamic_index_without_type(parser)
    if isinstance(value, int):
        return [], [value]
    return [value], [DYNAMIC_INDEX]


@irdl_op_definition
class ParallelOp(_LoopBounds):
    """A nest of loops whose iterations are independent: they may run in any
    order or all at once (GPU threads, CPU threads and vector lanes). One block
    argument (`index`) per dimension; no results, its writes go through
    `loop.store`.

        loop.parallel (%i, %j) = (0, 0) to (64, 128) step (1, 1) {
          %x = loop.load %in[%i, %j] : memref<64x128xf32>
          loop.store %x, %out[%i, %j] : memref<64x128xf32>
        }

    Zero dimensions (`loop.parallel () = () to () step ()`) run the body once.
    An attribute dict may follow the bounds (`... step (1) attributes
    {threads = 0 : i64} {`, see `THREADS` and `INTERLEAVE`).
    """

    name = "loop.parallel"
    body = region_def()
    traits = lazy_traits_def(
        lambda: (SingleBlockImplicitTerminator(YieldOp), RecursiveEffects())
    )
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        lower: Sequence[Bound],
        upper: Sequence[Bound],
        step: Sequence[Bound],
        body: Region | None = None,
    ):
        """Without a body, the body is one block of induction variables ending
        in `loop.yield`."""
        if body is None:
            body = Region(Block([YieldOp()], arg_types=[IndexType()] * len(lower)))
        operands, sizes, properties = self.bound_operands_and_properties(
            lower, upper, step
        )
        properties[_SEGMENTS] = segment_sizes(sizes)
        Operation.__init__(
            self, operands=operands, properties=properties, regions=[body]
        )

    @property
    def induction_vars(self) -> tuple[SSAValue, ...]:
        return self.block.args

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        ivs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")
        lists = [
            parse_dynamic_index_list_without_types(
                parser, DYNAMIC_INDEX, delimiter=parser.Delimiter.PAREN
            )
        ]
        for word in ("to", "step"):
            parser.parse_keyword(word)
            lists.append(
                parse_dynamic_index_list_without_types(
                    parser, DYNAMIC_INDEX, delimiter=parser.Delimiter.PAREN
                )
            )
        lower, upper, step = _resolve_bounds(parser, lists)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region([iv.resolve(IndexType()) for iv in ivs])
        op = cls(lower, upper, step, body)
        _add_implicit_yield(op.block)
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        print_operands(printer, self.block.args)
        printer.print_string(") = ")
        self.print_bounds(printer, Parser.Delimiter.PAREN)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(
            self.body, print_entry_block_args=False, print_block_terminators=False
        )

    def verify_(self) -> None:
        self.verify_bounds()
        dims = len(array_values(self.static_lower))
        self.verify_block_args([IndexType()] * dims, "one index per dimension")
        yielded = self.yield_op().arguments
        if yielded:
            raise VerifyException(
                f"'{self.name}' op body must yield nothing, but yields "
                f"{_types(yielded.types)}; write results with 'loop.store'"
            )
        threads = self.attributes.get(THREADS)
        if threads is not None and not (
            isinstance(threads, IntegerAttr)
            and threads.type == i64
            and threads.value.data >= 0
        ):
            raise VerifyException(
                f"'{self.name}' op attribute '{THREADS}' must be a non-negative "
                f"i64 (0: the CPUs online), got {threads}"
            )
        interleave = self.attributes.get(INTERLEAVE)
        if interleave is not None and not (
            isinstance(interleave, IntegerAttr)
            and interleave.type == i64
            and interleave.value.data in (1, 2, 4, 8, 16)
        ):
            raise VerifyException(
                f"'{self.name}' op attribute '{INTERLEAVE}' must be an i64 power "
                f"of two from 1 to 16, got {interleave}"
            )


@irdl_op_definition
class ForOp(_LoopBounds):
    """A sequential loop with loop-carried values (`iter_args`), for
    reductions, scans and sort passes. The block arguments are the induction
    variable (`index`) and the carried values; `loop.yield` passes the next
    values, and the results are the last ones (the initial ones if the loop
    runs zero times).

        %sum = loop.for %k = 0 to 128 step 1 iter_args(%acc = %zero) -> (f32) {
          %x = loop.load %in[%i, %k] : memref<64x128xf32>
          %next = arith.addf %acc, %x : f32
          loop.yield %next : f32
        }
    """

    name = "loop.for"
    # Declared again so that the bounds come before `iter_args` in the operand
    # list (xDSL orders a subclass's own definitions first).
    dynamic_lower = var_operand_def(IndexType)
    dynamic_upper = var_operand_def(IndexType)
    dynamic_step = var_operand_def(IndexType)
    iter_args = var_operand_def()
    results_ = var_result_def()
    body = region_def()
    traits = lazy_traits_def(
        lambda: (SingleBlockImplicitTerminator(YieldOp), RecursiveEffects())
    )
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        lower: Bound,
        upper: Bound,
        step: Bound,
        iter_args: Sequence[SSAValue] = (),
        body: Region | None = None,
    ):
        """Without a body, the body is one block (induction variable and
        carried values) that yields the carried values unchanged."""
        if body is None:
            block = Block(arg_types=[IndexType(), *(v.type for v in iter_args)])
            block.add_op(YieldOp(*block.args[1:]))
            body = Region(block)
        operands, sizes, properties = self.bound_operands_and_properties(
            [lower], [upper], [step]
        )
        operands.extend(iter_args)
        sizes.append(len(iter_args))
        properties[_SEGMENTS] = segment_sizes(sizes)
        Operation.__init__(
            self,
            operands=operands,
            result_types=[v.type for v in iter_args],
            properties=properties,
            regions=[body],
        )

    @property
    def lower(self) -> Bound:
        return self.lower_bounds[0]

    @property
    def upper(self) -> Bound:
        return self.upper_bounds[0]

    @property
    def step(self) -> Bound:
        return self.steps[0]

    @property
    def induction_var(self) -> SSAValue:
        return self.block.args[0]

    @property
    def carried(self) -> tuple[BlockArgument, ...]:
        """The block arguments of the loop-carried values."""
        return self.block.args[1:]

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        iv = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lists = [_parse_bound(parser)]
        for word in ("to", "step"):
            parser.parse_keyword(word)
            lists.append(_parse_bound(parser))
        (lower,), (upper,), (step,) = _resolve_bounds(parser, lists)
        pos = parser.pos
        carried: list[Parser.UnresolvedArgument] = []
        inits: list[UnresolvedOperand] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args") is not None:
            for arg, init in parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            ):
                carried.append(arg)
                inits.append(init)
            parser.parse_punctuation("->")
            types = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_type
            )
            if len(types) != len(inits):
                parser.raise_error(
                    f"expected {len(inits)} iter_args types but the type list has "
                    f"{len(types)}",
                    pos,
                    parser.pos,
                )
        init_values = parser.resolve_operands(inits, types, pos)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region(
            [iv.resolve(IndexType())]
            + [arg.resolve(t) for arg, t in zip(carried, types, strict=True)]
        )
        op = cls(lower, upper, step, init_values, body)
        _add_implicit_yield(op.block)
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.induction_var)
        printer.print_string(" = ")
        self.print_bounds(printer, Parser.Delimiter.NONE)
        if self.iter_args:
            printer.print_string(" iter_args(")
            printer.print_list(
                zip(self.carried, self.iter_args, strict=False),
                lambda pair: print_assignment(printer, *pair),
            )
            printer.print_string(") -> (")
            printer.print_list(self.iter_args.types, printer.print_attribute)
            printer.print_string(")")
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(
            self.body,
            print_entry_block_args=False,
            print_block_terminators=bool(self.iter_args),
        )

    def verify_(self) -> None:
        self.verify_bounds()
        if len(array_values(self.static_lower)) != 1:
            raise VerifyException(
                f"'{self.name}' op needs exactly one lower bound, upper bound and "
                f"step, but has {len(array_values(self.static_lower))}"
            )
        init_types = list(self.iter_args.types)
        result_types = list(self.results_.types)
        if result_types != init_types:
            raise VerifyException(
                f"'{self.name}' op result types {_types(result_types)} must equal "
                f"the iter_args types {_types(init_types)}"
            )
        self.verify_block_args(
            [IndexType(), *init_types],
            "the induction variable (index) and the iter_args types",
        )
        yielded = list(self.yield_op().arguments.types)
        if yielded != result_types:
            raise VerifyException(
                f"'{self.name}' op yielded types {_types(yielded)} must equal the "
                f"result types {_types(result_types)}"
            )


@irdl_op_definition
class YieldOp(AbstractYieldOperation[Attribute]):
    """Ends a loop body: the next loop-carried values of a `loop.for`, nothing
    for a `loop.parallel` (where it is implicit in the custom syntax).

        loop.yield %a, %b : f32, f32
    """

    name = "loop.yield"
    traits = traits_def(IsTerminator(), HasParent(ParallelOp, ForOp), Pure())

    def __init__(self, *arguments: SSAValue):
        Operation.__init__(self, operands=arguments)


LOOP_OPS: list[type[IRDLOperation]] = [ParallelOp, ForOp, YieldOp]

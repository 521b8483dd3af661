"""`refine-shapes`: specialise a shape-polymorphic program to argument shapes.

Like StableHLO's `stablehlo-refine-shapes`. A program `jax.export` wrote
with symbolic dimensions takes `tensor<?x16xf32>`; given the argument types
(`-p 'refine-shapes{types="tensor<8x16xf32>,tensor<16x8xf32>"}'`, or the
function's own argument types when `types` is empty), the pass walks the
entry function in order and

* gives every value its static type: arguments the given ones, op results
  the shapes their operands imply (`rules.py`, StableHLO's shape rules);
* folds the shape arithmetic JAX emits (`get_dimension_size` of a now
  static dimension, then the `i32`/`i64` computations on it) into constants
  with the interpreter's kernels;
* turns each dynamic op whose shape operands are now constants into its
  static form (`static_forms.py`);
* checks JAX's `custom_call @shape_assertion`s and removes them, or reports
  a failed one with JAX's message;
* specialises each called function to its refined operand types and to the
  constant values of its small integer operands (the dimension variables
  JAX passes as `jax.global_constant` arguments): a private function is
  refined in place for its first signature and cloned (`@f_1`, ...) for
  each further one; a public one is always cloned.

What stays dynamic is an error at the op that could not be refined, saying
why (a shape computed from the data, a rule that does not say). The module's
`jax.uses_shape_polymorphism` becomes false.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BoolAttr,
    FunctionType,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import ParseError
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xlir.dialects.stablehlo.control_flow import CaseOp, CustomCallOp, IfOp, WhileOp
from xlir.dialects.stablehlo.data_movement import ConstantOp
from xlir.dialects.stablehlo.shape_rules import ShapeError, shape_text
from xlir.dialects.stablehlo.types import element_type, shape
from xlir.passes.hlo.fold_constants import FoldConstantOp
from xlir.passes.hlo.refine_shapes.rules import inferred_shapes
from xlir.passes.hlo.refine_shapes.static_forms import SHAPE_OPERANDS, STATIC_FORMS
from xlir.passes.hlo.simplify_patterns.constants import constant_array, dense_from_numpy

from xlir.diagnostics import XlirError, format_at_op

MAX_FOLD_ELEMENTS = 64
"""Shape computations fold up to this many result elements (JAX's are
scalars and rank-sized vectors)."""

POLYMORPHISM_ATTRIBUTE = "jax.uses_shape_polymorphism"


def _error(op: Operation, message: str) -> XlirError:
    return XlirError(format_at_op(op, f"refine-shapes: {message}"))


def _is_dynamic(type_: Attribute) -> bool:
    return isinstance(type_, TensorType) and not type_.has_static_shape()


def _is_shape_value(value: SSAValue) -> bool:
    """A small integer tensor: a dimension variable or a shape."""
    type_ = value.type
    return (
        isinstance(type_, TensorType)
        and isinstance(type_.get_element_type(), IntegerType)
        and type_.has_static_shape()
        and int(np.prod(type_.get_shape(), dtype=np.int64)) <= MAX_FOLD_ELEMENTS
    )


def parse_types(ctx: Context, text: str) -> list[Attribute]:
    """The `types` option: tensor types separated by commas."""
    parser = Parser(ctx, text, "refine-shapes types")
    types: list[Attribute] = [parser.parse_type()]
    while parser.parse_optional_punctuation(",") is not None:
        types.append(parser.parse_type())
    if parser._current_token.kind != MLIRTokenKind.EOF:  # pyright: ignore[reportPrivateUsage]
        parser.raise_error("expected ',' or the end of the types")
    return types


def _check_argument_types(func: FuncOp, given: list[Attribute]) -> None:
    """Each given type may replace its argument's: same element type and
    rank, the same size where the argument's is static."""
    declared = list(func.function_type.inputs.data)
    name = func.sym_name.data
    if len(given) != len(declared):
        raise _error(
            func,
            f"@{name} takes {len(declared)} argument(s), but types gives {len(given)}",
        )
    for index, (old, new) in enumerate(zip(declared, given, strict=True)):
        fits = (
            isinstance(old, TensorType)
            and isinstance(new, TensorType)
            and new.has_static_shape()
            and old.get_element_type() == new.get_element_type()
            and len(old.get_shape()) == len(new.get_shape())
            and all(
                a in (DYNAMIC_INDEX, b)
                for a, b in zip(old.get_shape(), new.get_shape(), strict=True)
            )
        )
        if not fits:
            raise _error(
                func,
                f"argument #{index} of @{name} has type {old}, which the static "
                f"type {new} does not refine",
            )


class _Refiner:
    """Refines functions of one module, specialising callees as it goes."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.functions = {
            op.sym_name.data: op for op in module.ops if isinstance(op, FuncOp)
        }
        self.pristine: dict[str, FuncOp] = {}
        """Callees as they were before their first refinement."""
        self.specialised: dict[tuple[object, ...], FuncOp] = {}
        self.active: set[str] = set()
        self.refined: list[FuncOp] = []
        self.fold = FoldConstantOp(MAX_FOLD_ELEMENTS)

    def refine_function(
        self,
        func: FuncOp,
        types: list[Attribute],
        constants: dict[int, np.ndarray],
    ) -> None:
        block = func.body.blocks.first
        if block is None:
            return
        self.active.add(func.sym_name.data)
        for argument, type_ in zip(list(block.args), types, strict=True):
            if argument.type != type_:
                Rewriter.replace_value_with_new_type(argument, type_)
        for index, value in constants.items():
            argument = block.args[index]
            if argument.uses:
                constant = ConstantOp(dense_from_numpy(value, argument.type))
                constant.location = func.location
                block.insert_op_before(constant, block.ops.first)  # pyright: ignore[reportArgumentType]
                argument.replace_all_uses_with(constant.output)
        self.refine_block(block)
        returned = block.last_op
        outputs = (
            [v.type for v in returned.operands]
            if isinstance(returned, ReturnOp)
            else list(func.function_type.outputs.data)
        )
        func.function_type = FunctionType.from_lists(
            [a.type for a in block.args], outputs
        )
        self.active.discard(func.sym_name.data)
        self.refined.append(func)

    def refine_block(self, block: Block) -> None:
        for op in list(block.ops):
            self.refine_op(op)

    def refine_op(self, op: Operation) -> None:
        if isinstance(op, CallOp):
            self.refine_call(op)
        elif isinstance(op, WhileOp):
            self.refine_while(op)
        elif isinstance(op, CaseOp | IfOp):
            self.refine_branches(op)
        elif isinstance(op, CustomCallOp) and op.call_target_name.data == (
            "shape_assertion"
        ):
            self.check_assertion(op)
        else:
            for region in op.regions:
                for block in region.blocks:
                    self.refine_block(block)
            static = self.static_form(op)
            if static is not None:
                self.update_results(static)
            elif not self.folded(op):
                self.update_results(op)

    # --- ops -------------------------------------------------------------------

    def static_form(self, op: Operation) -> Operation | None:
        make = STATIC_FORMS.get(op.name)
        if make is None:
            return None
        try:
            static = make(op)
        except ShapeError as error:
            raise _error(op, f"'{op.name}' cannot be refined: {error}") from None
        if static is None:
            return None
        static.location = op.location
        static.attributes.update(op.attributes)
        Rewriter.replace_op(op, static)
        return static

    def folded(self, op: Operation) -> bool:
        """Shape arithmetic on constants becomes constants."""
        if not op.results or not all(_is_shape_value(r) for r in op.results):
            return False
        if not all(constant_array(v) is not None for v in op.operands):
            return False
        self.fold.match_and_rewrite(op, PatternRewriter(op))
        return op.parent is None

    def update_results(self, op: Operation) -> None:
        """Result types from the operands' by the op's rule; a declared
        static size that the rule contradicts is an error."""
        if not any(_is_dynamic(r.type) for r in op.results):
            return
        try:
            inferred = inferred_shapes(op)
        except ShapeError as error:
            raise _error(op, f"'{op.name}' cannot be refined: {error}") from None
        if inferred is None:
            return
        for result, sizes in zip(list(op.results), inferred, strict=True):
            declared = shape(result.type)
            merged = tuple(
                d if d != DYNAMIC_INDEX else s
                for d, s in zip(declared, sizes, strict=True)
            )
            if any(
                DYNAMIC_INDEX not in (d, s) and d != s
                for d, s in zip(declared, sizes, strict=True)
            ):
                raise _error(
                    op,
                    f"'{op.name}' declares the result shape {shape_text(declared)}, "
                    f"but its refined operands give {shape_text(sizes)}",
                )
            if merged != declared:
                Rewriter.replace_value_with_new_type(
                    result, TensorType(element_type(result.type), merged)
                )

    def check_assertion(self, op: CustomCallOp) -> None:
        """JAX's `shape_assertion(%ok, %values...)`: true goes away, false is
        JAX's message with `{i}` replaced by the i-th value."""
        values = [constant_array(v) for v in op.operands]
        if not values or values[0] is None:
            raise _error(
                op,
                "the shape assertion depends on the data, not on the argument "
                "shapes, so it cannot be checked at compile time",
            )
        if not bool(np.all(values[0])):
            message = op.attributes.get("error_message")
            text = message.data if isinstance(message, StringAttr) else ""

            def substitute(match: re.Match[str]) -> str:
                index = int(match.group(1)) + 1
                value = values[index] if index < len(values) else None
                return match.group(0) if value is None else str(value.item())

            text = re.sub(r"\{(\d+)\}", substitute, text)
            raise _error(op, f"shape assertion failed: {text}")
        Rewriter.erase_op(op)

    def refine_call(self, op: CallOp) -> None:
        name = op.callee.root_reference.data
        callee = self.functions.get(name)
        if callee is None or not callee.body.blocks:
            return
        if name in self.active:
            raise _error(op, f"the recursive call of @{name} cannot be refined")
        types = [v.type for v in op.operands]
        constants = {
            index: array
            for index, value in enumerate(op.operands)
            if _is_shape_value(value) and (array := constant_array(value)) is not None
        }
        key = (
            name,
            tuple(types),
            tuple((i, a.tobytes()) for i, a in sorted(constants.items())),
        )
        target = self.specialised.get(key)
        if target is None:
            target = self.specialisation_of(callee)
            self.specialised[key] = target
            self.refine_function(target, types, constants)
        if target is not callee:
            op.callee = SymbolRefAttr(target.sym_name.data)
        for result, type_ in zip(
            list(op.results), target.function_type.outputs.data, strict=True
        ):
            if result.type != type_:
                Rewriter.replace_value_with_new_type(result, type_)

    def specialisation_of(self, callee: FuncOp) -> FuncOp:
        """The private callee itself the first time, else a fresh clone of
        it as it was, named apart."""
        name = callee.sym_name.data
        private = callee.sym_visibility == StringAttr("private")
        if private and name not in self.pristine:
            self.pristine[name] = callee.clone()
            return callee
        clone = self.pristine.get(name, callee).clone()
        count = 1
        while f"{name}_{count}" in self.functions:
            count += 1
        clone.sym_name = StringAttr(f"{name}_{count}")
        clone.sym_visibility = StringAttr("private")
        self.functions[clone.sym_name.data] = clone
        self.module.body.block.insert_op_after(clone, callee)
        return clone

    def refine_while(self, op: WhileOp) -> None:
        """Loop-carried values keep the types they enter with."""
        types = [v.type for v in op.operands]
        for region in (op.cond, op.body):
            block = region.block
            for argument, type_ in zip(list(block.args), types, strict=True):
                if argument.type != type_:
                    Rewriter.replace_value_with_new_type(argument, type_)
            self.refine_block(block)
        yielded = op.body.block.last_op
        if yielded is not None:
            for index, (value, type_) in enumerate(
                zip(yielded.operands, types, strict=True)
            ):
                if value.type != type_:
                    raise _error(
                        op,
                        f"loop-carried value #{index} enters as {type_} but the "
                        f"body yields {value.type}; its shape must not change",
                    )
        for result, type_ in zip(list(op.results), types, strict=True):
            if result.type != type_:
                Rewriter.replace_value_with_new_type(result, type_)

    def refine_branches(self, op: CaseOp | IfOp) -> None:
        """Results take the type every branch returns."""
        returned: list[list[Attribute]] = []
        for region in op.regions:
            self.refine_block(region.block)
            last = region.block.last_op
            if last is not None:
                returned.append([v.type for v in last.operands])
        for index, result in enumerate(list(op.results)):
            types = {r[index] for r in returned if index < len(r)}
            if len(types) == 1:
                (type_,) = types
                if result.type != type_:
                    Rewriter.replace_value_with_new_type(result, type_)

    # --- what is left ------------------------------------------------------------

    def check_static(self, func: FuncOp) -> None:
        """A value still dynamic is an error at its op, with the reason."""
        for index, argument in enumerate(func.body.block.args):
            if _is_dynamic(argument.type):
                raise _error(
                    func,
                    f"argument #{index} of @{func.sym_name.data} has the dynamic "
                    f"type {argument.type}; give static argument types "
                    '(refine-shapes{types="..."}; xlir.compile and xlir-run '
                    "take them from the arguments)",
                )
        for op in func.body.walk():
            if not any(_is_dynamic(r.type) for r in op.results):
                continue
            shape_operands = SHAPE_OPERANDS.get(op.name, ())
            data = [
                name
                for name in shape_operands
                if constant_array(getattr(op, name)) is None
            ]
            if data:
                raise _error(
                    op,
                    f"'{op.name}' cannot be refined: its {', '.join(data)} "
                    "operand is computed from the data at run time, not from the "
                    "argument shapes",
                )
            dynamic = next(r.type for r in op.results if _is_dynamic(r.type))
            raise _error(
                op,
                f"'{op.name}' cannot be refined: its result type {dynamic} is not "
                "determined by its refined operands",
            )


def _erase_unused_constants(func: FuncOp) -> None:
    """The constants folding left behind (the shape arithmetic's steps)."""
    for op in reversed(list(func.body.walk())):
        if isinstance(op, ConstantOp) and not op.output.uses:
            Rewriter.erase_op(op)


@dataclass(frozen=True)
class RefineShapesPass(ModulePass):
    name = "refine-shapes"

    types: str = ""
    """The entry function's argument types, separated by commas
    (`tensor<8x16xf32>,tensor<16x8xf32>`); empty: its declared ones."""

    function: str = "main"
    """The entry function."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        refiner = _Refiner(op)
        entry = refiner.functions.get(self.function)
        if entry is None or not entry.body.blocks:
            raise XlirError(
                f"error: refine-shapes: there is no function @{self.function} "
                "with a body to refine"
            )
        if self.types:
            try:
                types = parse_types(ctx, self.types)
            except ParseError as error:
                raise XlirError(
                    f"error: refine-shapes: the types option is not a list of "
                    f"types: {error.msg}"
                ) from None
            _check_argument_types(entry, types)
        else:
            types = list(entry.function_type.inputs.data)
        refiner.refine_function(entry, types, {})
        for func in refiner.refined:
            refiner.check_static(func)
            _erase_unused_constants(func)
        if POLYMORPHISM_ATTRIBUTE in op.attributes:
            op.attributes[POLYMORPHISM_ATTRIBUTE] = BoolAttr.from_bool(False)

"""`loop.kernel` and `loop.return`: the device code of one fusion or heavy op.

A kernel is a function-like op rather than a `func.func` with a marker
attribute because xDSL has no hook that verifies an attribute on another
dialect's op: as an op it checks its own signature (buffers and scalars in,
nothing out), `device.launch` can check it is launching a kernel, and the HLO
level's function passes leave it alone. Lowering it is no harder than lowering a
`func.func` (xDSL 0.74 has no func-to-llvm conversion either way; to reuse
`convert-memref-to-ptr`, which rewrites `func.func` signatures, turn the kernel
into a `func.func` first): an `llvm.func` for the CPU (where `device.launch`
becomes a call), an `llvm.func` marked as a PTX entry for the GPU, a routine of
the accelerator's binary.

    loop.kernel @fusion_0(%in: memref<64x128xf32>, %out: memref<64xf32>) {
      loop.parallel (%i) = (0) to (64) step (1) {
        ...
      }
      loop.return
    }

Arguments are buffers (`memref`) and scalars (`index`, integers, floats);
argument attributes (`{llvm.noalias}`) are kept for the backends.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, IsTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

KERNEL_ARGUMENT_TYPES = (MemRefType, IndexType, IntegerType, AnyFloat)
"""What a kernel takes: buffers, and scalars a launch passes by value."""


@irdl_op_definition
class KernelOp(IRDLOperation):
    """A kernel: see the module docstring."""

    name = "loop.kernel"
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    body = region_def()
    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    def __init__(
        self,
        name: str,
        argument_types: Sequence[Attribute],
        body: Region | None = None,
        arg_attrs: ArrayAttr[DictionaryAttr] | None = None,
    ):
        """Without a body, the body is one block of the arguments ending in
        `loop.return`."""
        if body is None:
            body = Region(Block([ReturnOp()], arg_types=argument_types))
        properties: dict[str, Attribute] = {
            "sym_name": StringAttr(name),
            "function_type": FunctionType.from_lists(argument_types, []),
        }
        if arg_attrs is not None:
            properties["arg_attrs"] = arg_attrs
        Operation.__init__(self, properties=properties, regions=[body])

    @property
    def argument_types(self) -> tuple[Attribute, ...]:
        return self.function_type.inputs.data

    @classmethod
    def parse(cls, parser: Parser) -> KernelOp:
        pos = parser.pos
        name, inputs, outputs, body, attributes, arg_attrs, res_attrs = (
            parse_func_op_like(
                parser, reserved_attr_names=("sym_name", "function_type", "arg_attrs")
            )
        )
        if not body.blocks:
            parser.raise_error("expected the kernel's body", pos, parser.pos)
        op = cls(name, inputs, body, arg_attrs)
        # Results are a verify error, with the kernel's location, not a parse error.
        if outputs or res_attrs is not None:
            op.function_type = FunctionType.from_lists(inputs, outputs)
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def print(self, printer: Printer) -> None:
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            arg_attrs=self.arg_attrs,
            reserved_attr_names=("sym_name", "function_type", "arg_attrs"),
        )

    def verify_(self) -> None:
        outputs = self.function_type.outputs.data
        if outputs:
            raise VerifyException(
                f"'{self.name}' op @{self.sym_name.data} must return nothing (it "
                f"writes its output buffers), but returns "
                f"({', '.join(map(str, outputs))})"
            )
        for index, type in enumerate(self.argument_types):
            if not isinstance(type, KERNEL_ARGUMENT_TYPES):
                raise VerifyException(
                    f"'{self.name}' op argument #{index} of @{self.sym_name.data} has "
                    f"type {type}; a kernel takes only memrefs, index, integers and "
                    "floats"
                )
        if len(self.body.blocks) != 1:
            raise VerifyException(
                f"'{self.name}' op body must have exactly one block, but has "
                f"{len(self.body.blocks)}"
            )
        block = self.body.block
        assert block is not None
        if block.arg_types != self.argument_types:
            raise VerifyException(
                f"'{self.name}' op block argument types "
                f"({', '.join(map(str, block.arg_types))}) must equal the argument "
                f"types ({', '.join(map(str, self.argument_types))})"
            )
        if not isinstance(block.last_op, ReturnOp):
            found = "nothing" if block.last_op is None else f"'{block.last_op.name}'"
            raise VerifyException(
                f"'{self.name}' op body must end in 'loop.return', but ends in {found}"
            )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Ends a kernel. `loop.return`"""

    name = "loop.return"
    traits = traits_def(IsTerminator(), HasParent(KernelOp))
    assembly_format = "attr-dict"

    def __init__(self):
        Operation.__init__(self)


KERNEL_OPS: list[type[IRDLOperation]] = [KernelOp, ReturnOp]

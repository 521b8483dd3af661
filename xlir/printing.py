"""MLIR text that keeps the bits of NaN floats in dense literals.

xDSL prints a float element from a Python float: an f32 or bf16 signaling
NaN comes out quiet, an f16 NaN without its payload, so text printed and
parsed again (`xlir-opt`'s output, a pass's dump) would hold other NaNs
than the literal it came from. A dense float literal with an element whose
bits that would change prints as its bytes instead, `dense<"0x...">`, MLIR's
hex form, which `parsing` reads back bit for bit; any other attribute
prints as xDSL prints it.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import StringIO
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    DenseIntOrFPElementsAttr,
    ModuleOp,
)
from xdsl.ir import Attribute
from xdsl.printer import Printer
from xdsl.targets.mlir import MLIRTarget

LISTED_ELEMENTS = 100
"""xDSL writes a literal of more elements (not a splat) as its bytes already."""


class BitExactPrinter(Printer):
    """xDSL's printer, with dense float literals whose NaN bits its floats
    would lose printed as their bytes."""

    def print_attribute(self, attribute: Attribute) -> None:
        if type(attribute) is DenseIntOrFPElementsAttr and _loses_bits(attribute):
            raw = attribute.data.data
            size = len(raw) // max(len(attribute), 1)
            if raw == raw[:size] * len(attribute):  # a splat: its one element
                raw = raw[:size]
            self.print_string(f'dense<"0x{raw.hex().upper()}"> : ')
            self.print_attribute(attribute.get_type())
            return
        super().print_attribute(attribute)


def _loses_bits(attribute: DenseIntOrFPElementsAttr) -> bool:
    """Whether an element xDSL would print (all of them, or a splat's one)
    comes back from its Python float with other bits."""
    element = attribute.get_element_type()
    part = element.element_type if isinstance(element, ComplexType) else element
    if not isinstance(part, AnyFloat):
        return False
    raw = attribute.data.data
    size = part.compile_time_size * (2 if isinstance(element, ComplexType) else 1)
    if len(raw) > LISTED_ELEMENTS * size:
        if raw != raw[:size] * (len(raw) // size):
            return False  # printed as bytes by xDSL
        raw = raw[:size]
    return part.pack(list(part.iter_unpack(raw))) != raw


def module_text(module: ModuleOp) -> str:
    """The module as `xlir-opt` prints it, ending in a newline."""
    text = StringIO()
    BitExactPrinter(stream=text).print_op(module)
    return text.getvalue() + "\n"


@dataclass(frozen=True)
class BitExactMLIRTarget(MLIRTarget):
    """`-t mlir` printed with `BitExactPrinter` (xDSL's syntax-highlighting
    printer where that is asked for)."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if self.syntax_highlight:
            return super().emit(ctx, module, output)
        printer = BitExactPrinter(
            stream=output,
            print_generic_format=self.print_generic_format,
            print_properties_as_attributes=self.print_properties_as_attributes,
            print_debuginfo=self.print_debuginfo,
        )
        printer.print_op(module)
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)

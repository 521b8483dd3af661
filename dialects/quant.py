"""The `quant` dialect's uniform quantized type, as StableHLO uses it.

    !quant.uniform<i8:f32, 0.1:-30>                    per tensor
    !quant.uniform<i8<-127:127>:f32, 0.5>              a storage range, zero point 0
    !quant.uniform<i8:f32:0, {0.1:-30,0.5:-20}>        per axis 0

A value `q` of the storage type stands for `(q - zero_point) * scale` of the
expressed type.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    FloatData,
    IntAttr,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xlir.element_types import StoredType


@irdl_attr_definition
class UniformQuantizedType(StoredType, ParametrizedAttribute, TypeAttribute):
    """Integers of `storage_type` in [storage_min, storage_max] that stand for
    values of `expressed_type`; `axis` is -1 for one scale and zero point,
    else the dimension whose slices have one each."""

    name = "quant.uniform"
    storage_type: IntegerType = param_def()
    expressed_type: Attribute = param_def()
    storage_min: IntAttr = param_def()
    storage_max: IntAttr = param_def()
    axis: IntAttr = param_def()
    scales: ArrayAttr[FloatData] = param_def()
    zero_points: ArrayAttr[IntAttr] = param_def()

    @staticmethod
    def get(
        storage: IntegerType,
        expressed: Attribute,
        scales: Sequence[float],
        zero_points: Sequence[int],
        axis: int = -1,
        storage_range: tuple[int, int] | None = None,
    ) -> UniformQuantizedType:
        low, high = storage_range or _full_range(storage)
        return UniformQuantizedType(
            storage,
            expressed,
            IntAttr(low),
            IntAttr(high),
            IntAttr(axis),
            ArrayAttr([FloatData(s) for s in scales]),
            ArrayAttr([IntAttr(z) for z in zero_points]),
        )

    @property
    def scale_values(self) -> list[float]:
        return [s.data for s in self.scales.data]

    @property
    def zero_point_values(self) -> list[int]:
        return [z.data for z in self.zero_points.data]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        storage_pos = parser.pos
        storage = parser.parse_type()
        if not isinstance(storage, IntegerType):
            parser.raise_error(
                f"expected an integer storage type, found {storage}", storage_pos
            )
        storage_range = None
        if parser.parse_optional_punctuation("<") is not None:
            range_pos = parser.pos
            low = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(":")
            high = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(">")
            full_low, full_high = _full_range(storage)
            if not full_low <= low <= high <= full_high:
                parser.raise_error(
                    f"storage range [{low}, {high}] does not fit {storage} "
                    f"([{full_low}, {full_high}])",
                    range_pos,
                )
            storage_range = (low, high)
        parser.parse_punctuation(":")
        expressed = parser.parse_type()
        axis = -1
        if parser.parse_optional_punctuation(":") is not None:
            axis = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation(",")
        if axis >= 0:
            pairs = parser.parse_comma_separated_list(
                parser.Delimiter.BRACES, lambda: _parse_scale_zero_point(parser)
            )
        else:
            pairs = [_parse_scale_zero_point(parser)]
        parser.parse_punctuation(">")
        quantized = cls.get(
            storage,
            expressed,
            [p[0] for p in pairs],
            [p[1] for p in pairs],
            axis,
            storage_range,
        )
        return quantized.parameters

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.storage_type)
        if (self.storage_min.data, self.storage_max.data) != _full_range(
            self.storage_type
        ):
            printer.print_string(f"<{self.storage_min.data}:{self.storage_max.data}>")
        printer.print_string(":")
        printer.print_attribute(self.expressed_type)
        pairs = [
            f"{scale!r}:{zero}" if zero else repr(scale)
            for scale, zero in zip(
                self.scale_values, self.zero_point_values, strict=True
            )
        ]
        if self.axis.data >= 0:
            printer.print_string(f":{self.axis.data}, {{{','.join(pairs)}}}>")
        else:
            printer.print_string(f", {pairs[0]}>")

    def verify(self) -> None:
        if not isinstance(self.expressed_type, AnyFloat):
            raise VerifyException(
                f"!quant.uniform needs a float expressed type, not "
                f"{self.expressed_type}"
            )
        low, high = _full_range(self.storage_type)
        if not low <= self.storage_min.data <= self.storage_max.data <= high:
            raise VerifyException(
                f"!quant.uniform storage range [{self.storage_min.data}, "
                f"{self.storage_max.data}] does not fit {self.storage_type}"
            )
        if len(self.scales.data) != len(self.zero_points.data) or not self.scales.data:
            raise VerifyException("!quant.uniform needs a zero point per scale")
        if self.axis.data < 0 and len(self.scales.data) != 1:
            raise VerifyException("!quant.uniform per tensor has one scale")


def _parse_scale_zero_point(parser: AttrParser) -> tuple[float, int]:
    scale = parser.parse_float()
    zero_point = 0
    if parser.parse_optional_punctuation(":") is not None:
        zero_point = parser.parse_integer(allow_boolean=False)
    return scale, zero_point


def _full_range(storage: IntegerType) -> tuple[int, int]:
    width = storage.width.data
    if storage.signedness.data == Signedness.UNSIGNED:
        return 0, (1 << width) - 1
    return -(1 << (width - 1)), (1 << (width - 1)) - 1


Quant = Dialect("quant", [], [UniformQuantizedType])
"""The quant dialect (its uniform quantized type)."""

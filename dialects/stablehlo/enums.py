"""StableHLO's enum attributes: comparison direction and type, precision and
rng algorithm, printed as `#stablehlo<comparison_direction LT>`.

Apart from the dimension numbers (`attributes`), whose definitions cost most
of the dialect's import: comparisons are elementwise ops, which nearly every
program holds.
"""

from __future__ import annotations

from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.str_enum import StrEnum


class ComparisonDirection(StrEnum):
    EQ = "EQ"
    NE = "NE"
    GE = "GE"
    GT = "GT"
    LE = "LE"
    LT = "LT"


class ComparisonType(StrEnum):
    NOTYPE = "NOTYPE"
    FLOAT = "FLOAT"
    TOTALORDER = "TOTALORDER"
    SIGNED = "SIGNED"
    UNSIGNED = "UNSIGNED"


class Precision(StrEnum):
    DEFAULT = "DEFAULT"
    HIGH = "HIGH"
    HIGHEST = "HIGHEST"


class RngAlgorithm(StrEnum):
    DEFAULT = "DEFAULT"
    THREE_FRY = "THREE_FRY"
    PHILOX = "PHILOX"


@irdl_attr_definition
class ComparisonDirectionAttr(
    EnumAttribute[ComparisonDirection], SpacedOpaqueSyntaxAttribute
):
    name = "stablehlo.comparison_direction"


@irdl_attr_definition
class ComparisonTypeAttr(EnumAttribute[ComparisonType], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.comparison_type"


@irdl_attr_definition
class PrecisionAttr(EnumAttribute[Precision], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.precision"


@irdl_attr_definition
class RngAlgorithmAttr(EnumAttribute[RngAlgorithm], SpacedOpaqueSyntaxAttribute):
    name = "stablehlo.rng_algorithm"


ENUM_ATTRIBUTES = [
    ComparisonDirectionAttr,
    ComparisonTypeAttr,
    PrecisionAttr,
    RngAlgorithmAttr,
]

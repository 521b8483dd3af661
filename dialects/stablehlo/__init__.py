"""The `stablehlo` dialect: StableHLO's ops, attributes and textual syntax.

The dialect is split by op family (elementwise, data_movement, contraction,
reduction, indexing, control_flow, linalg, dynamic, quantization,
normalization, collectives); `shape_rules` holds the shape inference the verifiers and
passes share, `attributes` the enums and dimension numbers.
"""

from xdsl.ir import Dialect
from xlir.dialects.stablehlo.attributes import STABLEHLO_ATTRIBUTES
from xlir.dialects.stablehlo.collectives import COLLECTIVE_OPS
from xlir.dialects.stablehlo.contraction import CONTRACTION_OPS
from xlir.dialects.stablehlo.control_flow import CONTROL_FLOW_OPS, TokenType
from xlir.dialects.stablehlo.data_movement import DATA_MOVEMENT_OPS
from xlir.dialects.stablehlo.dynamic import DYNAMIC_OPS
from xlir.dialects.stablehlo.elementwise import ELEMENTWISE_OPS
from xlir.dialects.stablehlo.indexing import INDEXING_OPS
from xlir.dialects.stablehlo.linalg import LINALG_ATTRIBUTES, LINALG_OPS
from xlir.dialects.stablehlo.normalization import NORMALIZATION_OPS
from xlir.dialects.stablehlo.quantization import QUANTIZATION_OPS
from xlir.dialects.stablehlo.reduction import REDUCTION_OPS

StableHLO = Dialect(
    "stablehlo",
    [
        *ELEMENTWISE_OPS,
        *DATA_MOVEMENT_OPS,
        *CONTRACTION_OPS,
        *REDUCTION_OPS,
        *INDEXING_OPS,
        *CONTROL_FLOW_OPS,
        *LINALG_OPS,
        *DYNAMIC_OPS,
        *QUANTIZATION_OPS,
        *NORMALIZATION_OPS,
        *COLLECTIVE_OPS,
    ],
    [*STABLEHLO_ATTRIBUTES, *LINALG_ATTRIBUTES, TokenType],
)

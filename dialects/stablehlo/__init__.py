"""The `stablehlo` dialect: StableHLO's ops, attributes and textual syntax.

The dialect is split by op family (elementwise, data_movement, contraction,
reduction, indexing, control_flow, linalg, dynamic, quantization,
normalization, collectives); `shape_rules` holds the shape inference the verifiers and
passes share, `enums` the enum attributes, `attributes` the dimension
numbers.

A context imports a family when it first meets one of its names
(`xlir/lazy_dialect.py`): the table below names what each family defines,
and tests/unit/test_startup.py checks it against the families' lists.
"""

from xlir.lazy_dialect import LazyDialect

_FAMILIES = "xlir.dialects.stablehlo."

StableHLO = LazyDialect(
    "stablehlo",
    {
        _FAMILIES + "elementwise:ELEMENTWISE_OPS": """
            real imag complex reduce_precision abs cbrt ceil cosine
            count_leading_zeros exponential exponential_minus_one floor log
            log_plus_one logistic negate not popcnt round_nearest_afz
            round_nearest_even rsqrt sign sine sqrt tan tanh add atan2 divide
            maximum minimum multiply power remainder shift_left
            shift_right_arithmetic shift_right_logical subtract and or xor
            convert is_finite bitcast_convert compare select clamp""",
        _FAMILIES + "data_movement:DATA_MOVEMENT_OPS": """
            constant iota broadcast_in_dim reshape transpose reverse
            concatenate slice pad dynamic_slice dynamic_update_slice
            get_dimension_size""",
        _FAMILIES + "contraction:CONTRACTION_OPS": "dot_general dot convolution",
        _FAMILIES + "reduction:REDUCTION_OPS": """
            map reduce reduce_window select_and_scatter sort""",
        _FAMILIES + "indexing:INDEXING_OPS": "gather scatter",
        _FAMILIES + "control_flow:CONTROL_FLOW_OPS": """
            return while case if tuple get_tuple_element after_all
            create_token optimization_barrier composite custom_call
            rng_bit_generator""",
        _FAMILIES + "linalg:LINALG_OPS": "triangular_solve fft cholesky",
        _FAMILIES + "dynamic:DYNAMIC_OPS": """
            dynamic_iota dynamic_reshape dynamic_broadcast_in_dim dynamic_pad
            real_dynamic_slice dynamic_gather dynamic_conv""",
        _FAMILIES + "quantization:QUANTIZATION_OPS": """
            uniform_quantize uniform_dequantize""",
        _FAMILIES + "normalization:NORMALIZATION_OPS": """
            batch_norm_inference batch_norm_training batch_norm_grad""",
        _FAMILIES + "collectives:COLLECTIVE_OPS": """
            all_reduce all_gather reduce_scatter all_to_all collective_permute
            collective_broadcast collective_reduce replica_id partition_id send
            recv infeed outfeed""",
    },
    {
        _FAMILIES + "attributes:STABLEHLO_ATTRIBUTES": """
            channel_handle dot gather scatter output_operand_alias conv
            dot_algorithm""",
        _FAMILIES + "enums:ENUM_ATTRIBUTES": """
            comparison_direction comparison_type precision rng_algorithm""",
        _FAMILIES + "linalg:LINALG_ATTRIBUTES": "transpose fft_type",
        _FAMILIES + "control_flow:CONTROL_FLOW_TYPES": "token",
    },
)

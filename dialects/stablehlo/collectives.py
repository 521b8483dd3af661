"""Collective and communication ops: all_reduce, all_gather, reduce_scatter,
all_to_all, collective_permute, collective_broadcast, collective_reduce,
replica_id, partition_id, send, recv, infeed and outfeed.

They print generically, as StableHLO and JAX do (`"stablehlo.all_reduce"(%x)
<{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, ...}> ({...}) : ...`),
except replica_id and partition_id (`stablehlo.partition_id : tensor<ui32>`).
None is pure: a collective is a synchronisation point every process of its
group must reach, so no pass may drop, merge, fold or reorder one.

The verifiers check what the text alone decides; the rules that need the
grid's size (a group naming a replica the grid lacks) are checked when a
grid runs the program (`process_groups.process_groups`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.utils.exceptions import VerifyException
from xlir.dialects.stablehlo.attributes import (
    ChannelHandleAttr,
)
from xlir.dialects.stablehlo.control_flow import (
    TokenType,
    check_region_signature,
)
from xlir.dialects.stablehlo.process_groups import GroupingMode, group_rows, mode_of
from xlir.dialects.stablehlo.types import element_type, is_integer, shape

DEVICE_TO_HOST = 2
HOST_TO_DEVICE = 3
"""Channel types of a host transfer (send's and recv's)."""


def _fail(op: Operation, message: str) -> VerifyException:
    return VerifyException(f"'{op.name}' op {message}")


def _int(attr: IntegerAttr | None, default: int = 0) -> int:
    return default if attr is None else attr.value.data


def channel_id(op: Operation) -> int:
    """The spec's `channel_id`: the channel handle's `handle`, 0 without one."""
    handle = op.properties.get("channel_handle")
    return handle.field("handle")[0] if isinstance(handle, ChannelHandleAttr) else 0


def grouping_mode(op: Operation) -> GroupingMode:
    """How the op splits the grid into process groups (spec: collective ops)."""
    return mode_of(
        channel_id(op),
        "use_global_device_ids" in op.properties,
        isinstance(op, (AllReduceOp, AllGatherOp, ReduceScatterOp, CollectiveReduceOp)),
    )


def replica_groups(op: Operation) -> list[list[int]]:
    """The op's `replica_groups` rows, padding dropped."""
    attr = op.properties.get("replica_groups")
    assert attr is None or isinstance(attr, DenseIntOrFPElementsAttr)
    return group_rows(attr)


def _check_id_matrix(
    op: Operation, attr: DenseIntOrFPElementsAttr, what: str, padding: bool
) -> list[list[int]]:
    """A rank-2 i64 tensor of ids; unique within the attribute (columns, for
    pairs, are checked by the caller); -1 only as padding where allowed."""
    element = attr.get_element_type()
    if len(attr.get_shape()) != 2 or not (
        isinstance(element, IntegerType) and element.width.data == 64
    ):
        raise _fail(op, f"{what} must be a rank-2 tensor of i64, but is {attr.type}")
    for value in attr.get_values():
        if isinstance(value, int) and value < 0 and not (padding and value == -1):
            allowed = " (or -1 to pad a shorter group)" if padding else ""
            raise _fail(op, f"{what} holds {value}; ids must be >= 0{allowed}")
    return group_rows(attr)


def _check_replica_groups(op: Operation, cover: bool) -> list[list[int]]:
    """(C1-C3) of the collectives: unique ids; with `cover`, the ids are
    0..N-1 for the N ids given (they cover every replica, partition or
    process of the grid, whose size the text does not say)."""
    attr = op.properties.get("replica_groups")
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    rows = _check_id_matrix(op, attr, "replica_groups", padding=True)
    ids = [v for row in rows for v in row]
    repeated = sorted(v for v, n in Counter(ids).items() if n > 1)
    if repeated:
        raise _fail(op, f"replica_groups repeats id(s) {repeated}; ids must be unique")
    if cover and ids and max(ids) >= len(ids):
        missing = sorted(set(range(len(ids))) - set(ids))  # not up to a huge id
        raise _fail(
            op,
            f"replica_groups must hold ids 0 to {len(ids) - 1}, one each, but "
            f"holds {max(ids)} and lacks {missing}",
        )
    return rows


def _check_global_ids(op: Operation) -> None:
    """(C4/C5) `use_global_device_ids` needs a channel id > 0."""
    if "use_global_device_ids" in op.properties and channel_id(op) <= 0:
        raise _fail(
            op,
            "use_global_device_ids needs a channel_handle with handle > 0, but the "
            f"channel id is {channel_id(op)}",
        )


def _check_counts(op: Operation, operands: Sequence[SSAValue]) -> None:
    if not operands:
        raise _fail(op, "needs at least one operand")
    if len(op.results) != len(operands):
        raise _fail(
            op,
            f"has {len(operands)} operand(s) but {len(op.results)} result(s); "
            "each operand gives one result",
        )


def _check_same_types(op: Operation, operands: Sequence[SSAValue]) -> None:
    for i, (operand, result) in enumerate(zip(operands, op.results, strict=True)):
        if operand.type != result.type:
            raise _fail(
                op,
                f"result #{i} has type {result.type} but operand #{i} has type "
                f"{operand.type}; they must be equal",
            )


def _check_computation(
    op: Operation, region: Region, operands: Sequence[SSAValue]
) -> None:
    """(C5) the computation is `(tensor<E>, tensor<E>) -> tensor<E>` for the
    operands' element type E (one type for every operand)."""
    elements = {element_type(v.type) for v in operands}
    if len(elements) > 1:
        raise _fail(
            op,
            "operands must share one element type (one computation reduces them "
            f"all), but have {', '.join(sorted(str(e) for e in elements))}",
        )
    scalar = TensorType(element_type(operands[0].type), [])
    check_region_signature(op, region, "computation", [scalar, scalar], [scalar])


def _check_dimension(op: Operation, what: str, value: int, rank: int) -> None:
    if not 0 <= value < rank:
        raise _fail(op, f"{what} {value} is out of range for rank {rank}")


def _static_group_size(op: Operation, rows: list[list[int]]) -> int | None:
    """The process-group size the text fixes: that of the groups, unless the
    mode also spans every partition (or there are no groups, or they are
    ragged)."""
    if not rows or len({len(r) for r in rows}) != 1:
        return None
    if grouping_mode(op) is GroupingMode.CROSS_REPLICA_AND_PARTITION:
        return None
    return len(rows[0])


def _verify_reduction(
    op: Operation, inputs: Sequence[SSAValue], computation: Region
) -> None:
    """all_reduce's rules (C1-C6), which collective_reduce shares."""
    _check_counts(op, inputs)
    _check_replica_groups(op, cover=True)
    _check_global_ids(op)
    _check_same_types(op, inputs)
    _check_computation(op, computation, inputs)


class _Collective(IRDLOperation):
    """The attributes every grouped collective has."""

    replica_groups = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleAttr)


@irdl_op_definition
class AllReduceOp(_Collective):
    """Reduces each operand elementwise over the processes of its group with
    `computation`; every process of the group gets the result."""

    name = "stablehlo.all_reduce"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    use_global_device_ids = opt_prop_def(UnitAttr)
    computation = region_def("single_block")

    def verify_(self) -> None:
        _verify_reduction(self, self.inputs, self.computation)


@irdl_op_definition
class CollectiveReduceOp(_Collective):
    """all_reduce whose result only the first process of each group keeps;
    the others get zeros (StableHLO's interpreter suite has it)."""

    name = "stablehlo.collective_reduce"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    use_global_device_ids = opt_prop_def(UnitAttr)
    computation = region_def("single_block")

    def verify_(self) -> None:
        _verify_reduction(self, self.inputs, self.computation)


@irdl_op_definition
class ReduceScatterOp(_Collective):
    """Reduces the operand over the group like all_reduce, then splits the
    sum along `scatter_dimension`: process i of the group keeps part i."""

    name = "stablehlo.reduce_scatter"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    scatter_dimension = prop_def(IntegerAttr[I64])
    use_global_device_ids = opt_prop_def(UnitAttr)
    computation = region_def("single_block")

    def verify_(self) -> None:
        _check_counts(self, self.inputs)
        rows = _check_replica_groups(self, cover=True)
        _check_global_ids(self)
        _check_computation(self, self.computation, self.inputs)
        dim = _int(self.scatter_dimension)
        size = _static_group_size(self, rows)
        for i, (operand, result) in enumerate(
            zip(self.inputs, self.outputs, strict=True)
        ):
            ins, outs = shape(operand.type), shape(result.type)
            _check_dimension(self, "scatter_dimension", dim, len(ins))
            expected = list(ins)
            if size is not None:
                if ins[dim] % size:
                    raise _fail(
                        self,
                        f"operand #{i} has {ins[dim]} elements along the scatter "
                        f"dimension {dim}, which the group size {size} does not "
                        "divide",
                    )
                expected[dim] = ins[dim] // size
            elif len(outs) == len(ins) and outs[dim] and ins[dim] % outs[dim] == 0:
                expected[dim] = outs[dim]
            if list(outs) != expected:
                raise _fail(
                    self,
                    f"result #{i} has shape {list(outs)} but scattering operand "
                    f"#{i} of shape {list(ins)} along dimension {dim} gives "
                    f"{expected}",
                )
            if element_type(result.type) != element_type(operand.type):
                raise _fail(
                    self,
                    f"result #{i} has element type {element_type(result.type)} "
                    f"but operand #{i} has {element_type(operand.type)}",
                )


@irdl_op_definition
class AllGatherOp(_Collective):
    """Concatenates the operands of the group's processes, in group order,
    along `all_gather_dim`; every process of the group gets the result."""

    name = "stablehlo.all_gather"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    all_gather_dim = prop_def(IntegerAttr[I64])
    use_global_device_ids = opt_prop_def(UnitAttr)

    def verify_(self) -> None:
        _check_counts(self, self.inputs)
        rows = _check_replica_groups(self, cover=True)
        _check_global_ids(self)
        dim = _int(self.all_gather_dim)
        size = _static_group_size(self, rows)
        for i, (operand, result) in enumerate(
            zip(self.inputs, self.outputs, strict=True)
        ):
            ins, outs = shape(operand.type), shape(result.type)
            _check_dimension(self, "all_gather_dim", dim, len(ins))
            expected = list(ins)
            if size is not None:
                expected[dim] = ins[dim] * size
            elif len(outs) == len(ins) and ins[dim] and outs[dim] % ins[dim] == 0:
                expected[dim] = outs[dim]
            if list(outs) != expected:
                raise _fail(
                    self,
                    f"result #{i} has shape {list(outs)} but gathering operand "
                    f"#{i} of shape {list(ins)} along dimension {dim} gives "
                    f"{expected}",
                )
            if element_type(result.type) != element_type(operand.type):
                raise _fail(
                    self,
                    f"result #{i} has element type {element_type(result.type)} "
                    f"but operand #{i} has {element_type(operand.type)}",
                )


@irdl_op_definition
class AllToAllOp(_Collective):
    """Splits each operand along `split_dimension` into `split_count` parts,
    sends part i to process i of the group, and concatenates what it
    receives along `concat_dimension`, in group order."""

    name = "stablehlo.all_to_all"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    split_dimension = prop_def(IntegerAttr[I64])
    concat_dimension = prop_def(IntegerAttr[I64])
    split_count = prop_def(IntegerAttr[I64])

    def verify_(self) -> None:
        _check_counts(self, self.inputs)
        rows = _check_replica_groups(self, cover=True)
        split, concat = _int(self.split_dimension), _int(self.concat_dimension)
        count = _int(self.split_count)
        if count <= 0:
            raise _fail(self, f"split_count must be > 0, but is {count}")
        for row in rows:
            if len(row) != count:
                raise _fail(
                    self,
                    f"replica group {row} has {len(row)} member(s), but split_count "
                    f"is {count}; every group has split_count members",
                )
        for i, (operand, result) in enumerate(
            zip(self.inputs, self.outputs, strict=True)
        ):
            ins, outs = shape(operand.type), shape(result.type)
            _check_dimension(self, "split_dimension", split, len(ins))
            _check_dimension(self, "concat_dimension", concat, len(ins))
            if ins[split] % count:
                raise _fail(
                    self,
                    f"operand #{i} has {ins[split]} elements along split_dimension "
                    f"{split}, which split_count {count} does not divide",
                )
            expected = list(ins)
            expected[split] //= count
            expected[concat] *= count
            if list(outs) != expected:
                raise _fail(
                    self,
                    f"result #{i} has shape {list(outs)} but operand #{i} of shape "
                    f"{list(ins)} split {count} ways along {split} and concatenated "
                    f"along {concat} gives {expected}",
                )
            if element_type(result.type) != element_type(operand.type):
                raise _fail(
                    self,
                    f"result #{i} has element type {element_type(result.type)} "
                    f"but operand #{i} has {element_type(operand.type)}",
                )


@irdl_op_definition
class CollectivePermuteOp(IRDLOperation):
    """Each process that is a source in `source_target_pairs` sends its
    operand to its target; a process no pair targets gets zeros."""

    name = "stablehlo.collective_permute"
    operand = var_operand_def(TensorType)
    result = var_result_def(TensorType)
    source_target_pairs = prop_def(DenseIntOrFPElementsAttr)
    channel_handle = opt_prop_def(ChannelHandleAttr)

    def verify_(self) -> None:
        _check_counts(self, self.operand)
        _check_same_types(self, self.operand)
        attr = self.source_target_pairs
        pairs_shape = attr.get_shape()
        rows = _check_id_matrix(self, attr, "source_target_pairs", padding=False)
        if len(pairs_shape) == 2 and pairs_shape[1] != 2:
            raise _fail(
                self,
                f"source_target_pairs must have 2 columns (source, target), but "
                f"has {pairs_shape[1]}",
            )
        for column, what in ((0, "source"), (1, "target")):
            ids = [row[column] for row in rows]
            repeated = sorted(v for v, n in Counter(ids).items() if n > 1)
            if repeated:
                raise _fail(
                    self,
                    f"source_target_pairs repeats {what}(s) {repeated}; each process "
                    f"may be the {what} of one pair only",
                )

    def pairs(self) -> list[tuple[int, int]]:
        return [(row[0], row[1]) for row in group_rows(self.source_target_pairs)]


@irdl_op_definition
class CollectiveBroadcastOp(_Collective):
    """Every process of a group gets the operand of the group's first process
    (or, with `has_dynamic_root`, of the process the last operand names for
    each data operand); a process in no group gets zeros."""

    name = "stablehlo.collective_broadcast"
    inputs = var_operand_def(TensorType)
    outputs = var_result_def(TensorType)
    has_dynamic_root = opt_prop_def(UnitAttr)

    def data_operands(self) -> Sequence[SSAValue]:
        """The operands broadcast (without the root operand)."""
        if self.has_dynamic_root is not None:
            return self.inputs[:-1]
        return self.inputs

    def verify_(self) -> None:
        data = self.data_operands()
        if self.has_dynamic_root is not None:
            if not self.inputs:
                raise _fail(self, "has_dynamic_root needs a root operand")
            root = self.inputs[-1].type
            if (
                len(shape(root)) != 1
                or not is_integer(element_type(root))
                or shape(root)[0] != len(data)
            ):
                raise _fail(
                    self,
                    "with has_dynamic_root the last operand must be a 1-D integer "
                    f"tensor of {len(data)} element(s), one root per data operand, "
                    f"but is {root}",
                )
        _check_counts(self, data)
        _check_replica_groups(self, cover=False)
        _check_same_types(self, data)


def _check_id_result(op: Operation, result: SSAValue) -> None:
    t = result.type
    if not (
        isinstance(t, TensorType)
        and not shape(t)
        and isinstance(element_type(t), IntegerType)
        and element_type(t).width.data == 32  # type: ignore[attr-defined]
        and element_type(t).signedness.data == Signedness.UNSIGNED  # type: ignore[attr-defined]
    ):
        raise _fail(op, f"result must be tensor<ui32>, but is {t}")


@irdl_op_definition
class ReplicaIdOp(IRDLOperation):
    """`stablehlo.replica_id : tensor<ui32>`: the process's replica id."""

    name = "stablehlo.replica_id"
    result = result_def(TensorType)
    assembly_format = "attr-dict `:` type($result)"

    def verify_(self) -> None:
        _check_id_result(self, self.result)


@irdl_op_definition
class PartitionIdOp(IRDLOperation):
    """`stablehlo.partition_id : tensor<ui32>`: the process's partition id."""

    name = "stablehlo.partition_id"
    result = result_def(TensorType)
    assembly_format = "attr-dict `:` type($result)"

    def verify_(self) -> None:
        _check_id_result(self, self.result)


def _check_last_token(op: Operation, values: Sequence[SSAValue], what: str) -> None:
    if not values or not isinstance(values[-1].type, TokenType):
        found = values[-1].type if values else "nothing"
        raise _fail(op, f"last {what} must be a !stablehlo.token, but is {found}")
    for i, value in enumerate(values[:-1]):
        if not isinstance(value.type, TensorType):
            raise _fail(
                op,
                f"{what} #{i} must be a tensor (only the last is the token), "
                f"but is {value.type}",
            )


def _check_host_channel(op: Operation, expected_type: int) -> None:
    """A host transfer's channel is of the matching host type."""
    handle = op.properties.get("channel_handle")
    host = op.properties.get("is_host_transfer")
    if not (isinstance(host, IntegerAttr) and host.value.data):
        return
    assert isinstance(handle, ChannelHandleAttr)
    kind = handle.field("type")[0]
    if kind != expected_type:
        raise _fail(
            op,
            f"is_host_transfer needs a channel of type {expected_type}, but the "
            f"channel_handle has type {kind}",
        )


@irdl_op_definition
class SendOp(IRDLOperation):
    """Sends its tensors to the channel `channel_handle` names; the result
    token follows the send."""

    name = "stablehlo.send"
    inputs = var_operand_def()
    result = result_def(TokenType)
    channel_handle = prop_def(ChannelHandleAttr)
    is_host_transfer = opt_prop_def(BoolAttr)
    source_target_pairs = opt_prop_def(DenseIntOrFPElementsAttr)

    def verify_(self) -> None:
        _check_last_token(self, self.inputs, "operand")
        _check_host_channel(self, DEVICE_TO_HOST)


@irdl_op_definition
class RecvOp(IRDLOperation):
    """Receives tensors from the channel `channel_handle` names, in the order
    they were sent; the last result is a token that follows the receive."""

    name = "stablehlo.recv"
    token = var_operand_def(TokenType)
    outputs = var_result_def()
    channel_handle = prop_def(ChannelHandleAttr)
    is_host_transfer = opt_prop_def(BoolAttr)
    source_target_pairs = opt_prop_def(DenseIntOrFPElementsAttr)

    def verify_(self) -> None:
        if len(self.token) != 1:
            raise _fail(self, f"takes one token, but has {len(self.token)} operands")
        _check_last_token(self, self.outputs, "result")
        _check_host_channel(self, HOST_TO_DEVICE)


@irdl_op_definition
class InfeedOp(IRDLOperation):
    """Reads the next values of the process's infeed (its last result is a
    token)."""

    name = "stablehlo.infeed"
    token = var_operand_def(TokenType)
    outputs = var_result_def()
    infeed_config = opt_prop_def(StringAttr)
    layout = opt_prop_def(Attribute)

    def verify_(self) -> None:
        if len(self.token) != 1:
            raise _fail(self, f"takes one token, but has {len(self.token)} operands")
        _check_last_token(self, self.outputs, "result")


@irdl_op_definition
class OutfeedOp(IRDLOperation):
    """Writes its tensors to the process's outfeed (its last operand is a
    token)."""

    name = "stablehlo.outfeed"
    inputs = var_operand_def()
    result = result_def(TokenType)
    outfeed_config = opt_prop_def(StringAttr)

    def verify_(self) -> None:
        _check_last_token(self, self.inputs, "operand")


COLLECTIVE_OPS: list[type[IRDLOperation]] = [
    AllReduceOp,
    AllGatherOp,
    ReduceScatterOp,
    AllToAllOp,
    CollectivePermuteOp,
    CollectiveBroadcastOp,
    CollectiveReduceOp,
    ReplicaIdOp,
    PartitionIdOp,
    SendOp,
    RecvOp,
    InfeedOp,
    OutfeedOp,
]

GROUPED_OPS: tuple[type[IRDLOperation], ...] = (
    AllReduceOp,
    AllGatherOp,
    ReduceScatterOp,
    AllToAllOp,
    CollectivePermuteOp,
    CollectiveBroadcastOp,
    CollectiveReduceOp,
)
"""The collectives that split the grid into process groups."""

GRID_STEP_OPS: tuple[type[IRDLOperation], ...] = (
    *GROUPED_OPS,
    ReplicaIdOp,
    PartitionIdOp,
    SendOp,
    RecvOp,
)
"""The ops whose values come from the process grid or go to it (its
channels): the host schedule makes each a `device.collective` step
(lowering/host_schedule.py); infeed and outfeed are not among them."""

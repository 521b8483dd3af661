"""The `simt` dialect: the few SIMT (GPU) ops xDSL's gpu dialect lacks, kept
target-neutral so that any GPU-like target (and an emulator running the same
kernels on the host) can lower or execute them.

* `simt.shuffle_xor`: a warp's butterfly shuffle. Every lane of the warp
  (all must be active) passes `value` and gets the value of the lane whose
  number is its own XOR `offset` (CUDA's `__shfl_xor_sync(~0, value,
  offset)`); `offset` is below the warp size.
* `simt.shared_memory`: a buffer in a thread block's shared (workgroup)
  memory, one per block, read and written with `loop.load` and
  `loop.store`; its bytes are part of the kernel's static shared memory.

        %partner = simt.shuffle_xor %sum, 16 : f32
        %partials = simt.shared_memory : memref<8xf32>
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    Float32Type,
    IntegerAttr,
    IntegerType,
    MemRefType,
    i32,
)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

SHUFFLED_TYPES = "f32 or i32"


@irdl_op_definition
class ShuffleXorOp(IRDLOperation):
    """The value of lane `lane ^ offset` of the warp (module docstring)."""

    name = "simt.shuffle_xor"
    T: ClassVar = VarConstraint("T", AnyAttr())
    value = operand_def(T)
    offset = prop_def(IntegerAttr[IntegerType])
    result = result_def(T)

    assembly_format = "$value `,` $offset attr-dict `:` type($value)"

    def __init__(self, value: SSAValue, offset: int):
        super().__init__(
            operands=[value],
            result_types=[value.type],
            properties={"offset": IntegerAttr(offset, i32)},
        )

    def verify_(self) -> None:
        type_ = self.value.type
        if not (isinstance(type_, Float32Type) or type_ == i32):
            raise VerifyException(
                f"'simt.shuffle_xor' op shuffles {SHUFFLED_TYPES}, not {type_}"
            )
        offset = self.offset.value.data
        if not 0 < offset < 32:
            raise VerifyException(
                f"'simt.shuffle_xor' op offset {offset} must be in [1, 32)"
            )


@irdl_op_definition
class SharedMemoryOp(IRDLOperation):
    """A per-block buffer of shared memory (module docstring)."""

    name = "simt.shared_memory"
    buffer = result_def(MemRefType)

    assembly_format = "attr-dict `:` type($buffer)"

    def __init__(self, type_: MemRefType[Attribute]):
        super().__init__(result_types=[type_])

    def verify_(self) -> None:
        type_ = self.buffer.type
        assert isinstance(type_, MemRefType)
        if any(d < 0 for d in type_.get_shape()):
            raise VerifyException(
                f"'simt.shared_memory' op needs a static shape, not {type_}"
            )


Simt = Dialect("simt", [ShuffleXorOp, SharedMemoryOp])

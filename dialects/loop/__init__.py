"""The `loop` dialect: kernels as loop nests over buffers.

The middle level of xlir, which every backend starts from (docs/loop-level.md).
`hlo-to-loop` turns each fusion or heavy op into one `loop.kernel` whose body
is a nest of `loop.parallel` (independent iterations: threads, lanes) and
`loop.for` (sequential, with loop-carried values) over `memref` buffers, read
and written by `loop.load`/`loop.store`, with scalar math in xDSL's `arith` and
`math`. Temp buffers are `loop.view`s of the byte arena the buffer plan lays
out, reshapes are `loop.reshape` views, and constants are `loop.global` data.

Files: `loops` (parallel, for, yield), `memory` (load, store, view, reshape),
`globals` (global, get_global), `kernel` (kernel, return), `calls` (call: a
routine of the target's runtime).

The constructors make their ops with `Operation.__init__` directly, from
flat operand lists (and the segment sizes where an op has several variadic
groups): they know their operand groups, so xDSL's generic reading of each
argument (`irdl_op_init`, even on `xlir.quick_op_init`'s quick path) would
only redo what they know, and lowering builds these ops by the thousand. The
ops are the ones the generic construction makes
(tests/unit/test_direct_constructors.py). The `device` dialect's do the same.
"""

from xdsl.ir import Dialect
from xlir.dialects.loop.calls import CALL_OPS
from xlir.dialects.loop.globals import GLOBAL_OPS
from xlir.dialects.loop.kernel import KERNEL_OPS
from xlir.dialects.loop.loops import LOOP_OPS
from xlir.dialects.loop.memory import MEMORY_OPS

Loop = Dialect(
    "loop", [*LOOP_OPS, *MEMORY_OPS, *GLOBAL_OPS, *KERNEL_OPS, *CALL_OPS], []
)
"""The loop dialect."""

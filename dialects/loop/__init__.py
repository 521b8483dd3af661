"""The `loop` dialect: kernels as loop nests over buffers.

The middle level of xlir, which every backend starts from (docs/loop-level.md).
`hlo-to-loop` turns each fusion or heavy op into one `loop.kernel` whose body
is a nest of `loop.parallel` (independent iterations: threads, lanes) and
`loop.for` (sequential, with loop-carried values) over `memref` buffers, read
and written by `loop.load`/`loop.store`, with scalar math in xDSL's `arith` and
`math`. Temp buffers are `loop.view`s of the byte arena the buffer plan lays
out, reshapes are `loop.reshape` views, and constants are `loop.global` data.

Files: `loops` (parallel, for, yield), `memory` (load, store, view, reshape),
`globals` (global, get_global), `kernel` (kernel, return).
"""

from xdsl.ir import Dialect
from xlir.dialects.loop.globals import GLOBAL_OPS
from xlir.dialects.loop.kernel import KERNEL_OPS
from xlir.dialects.loop.loops import LOOP_OPS
from xlir.dialects.loop.memory import MEMORY_OPS

Loop = Dialect("loop", [*LOOP_OPS, *MEMORY_OPS, *GLOBAL_OPS, *KERNEL_OPS], [])
"""The loop dialect."""

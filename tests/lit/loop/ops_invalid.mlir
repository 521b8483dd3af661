// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// One case per rule of the loop dialect's verifiers (and the few the parser
// enforces); the generic form reaches the rules the custom syntax cannot break.

loop.kernel @parallel_step(%n: index) {
  loop.parallel (%i) = (0) to (64) step (0) {
  }
  loop.return
}
// CHECK: ops_invalid.mlir:7:3: error: 'loop.parallel' op step 0 must be positive

// -----

loop.kernel @parallel_bounds_order(%n: index) {
  loop.parallel (%i, %j) = (0, 8) to (64, 4) step (1, 1) {
  }
  loop.return
}
// CHECK: ops_invalid.mlir:16:3: error: 'loop.parallel' op lower bound 8 of dimension 1 must not exceed the upper bound 4

// -----

loop.kernel @parallel_bound_counts(%n: index) {
  "loop.parallel"() <{static_lower = array<i64: 0, 0>, static_upper = array<i64: 4>, static_step = array<i64: 1, 1>, operandSegmentSizes = array<i32: 0, 0, 0>}> ({
  ^bb0(%i: index, %j: index):
    "loop.yield"() : () -> ()
  }) : () -> ()
  loop.return
}
// CHECK: ops_invalid.mlir:25:3: error: 'loop.parallel' op needs as many lower bounds, upper bounds and steps, but has 2, 1 and 2

// -----

loop.kernel @parallel_dynamic_markers(%n: index) {
  "loop.parallel"(%n, %n) <{static_lower = array<i64: 0>, static_upper = array<i64: -9223372036854775808>, static_step = array<i64: 1>, operandSegmentSizes = array<i32: 0, 2, 0>}> ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) : (index, index) -> ()
  loop.return
}
// CHECK: ops_invalid.mlir:36:3: error: The number of dynamic positions passed as values (2) does not match the number of dynamic position markers (1) in 'loop.parallel' op upper bounds.

// -----

loop.kernel @parallel_block_args(%n: index) {
  loop.parallel (%i, %j) = (0) to (64) step (1) {
  }
  loop.return
}
// CHECK: ops_invalid.mlir:47:3: error: 'loop.parallel' op block argument types (index, index) must be one index per dimension (index)

// -----

loop.kernel @parallel_yields(%n: index) {
  loop.parallel (%i) = (0) to (64) step (1) {
    loop.yield %i : index
  }
  loop.return
}
// CHECK: ops_invalid.mlir:56:3: error: 'loop.parallel' op body must yield nothing, but yields (index); write results with 'loop.store'

// -----

loop.kernel @parallel_terminator(%n: index) {
  loop.parallel (%i) = (0) to (64) step (1) {
    loop.return
  }
  loop.return
}
// CHECK: ops_invalid.mlir:66:3: error: 'loop.parallel' terminates with operation loop.return instead of loop.yield

// -----

loop.kernel @for_bound_count(%n: index) {
  "loop.for"() <{static_lower = array<i64: 0, 0>, static_upper = array<i64: 4, 4>, static_step = array<i64: 1, 1>, operandSegmentSizes = array<i32: 0, 0, 0, 0>}> ({
  ^bb0(%k: index):
    "loop.yield"() : () -> ()
  }) : () -> ()
  loop.return
}
// CHECK: ops_invalid.mlir:76:3: error: 'loop.for' op needs exactly one lower bound, upper bound and step, but has 2

// -----

loop.kernel @for_step(%n: index) {
  loop.for %k = 0 to 8 step -1 {
  }
  loop.return
}
// CHECK: ops_invalid.mlir:87:3: error: 'loop.for' op step -1 must be positive

// -----

loop.kernel @for_bounds_order(%n: index) {
  loop.for %k = 10 to 5 step 1 {
  }
  loop.return
}
// CHECK: ops_invalid.mlir:96:3: error: 'loop.for' op lower bound 10 must not exceed the upper bound 5

// -----

loop.kernel @for_results(%x: f32) {
  %r = "loop.for"(%x) <{static_lower = array<i64: 0>, static_upper = array<i64: 4>, static_step = array<i64: 1>, operandSegmentSizes = array<i32: 0, 0, 0, 1>}> ({
  ^bb0(%k: index, %a: f32):
    "loop.yield"(%a) : (f32) -> ()
  }) : (f32) -> f16
  loop.return
}
// CHECK: ops_invalid.mlir:105:3: error: 'loop.for' op result types (f16) must equal the iter_args types (f32)

// -----

loop.kernel @for_block_args(%x: f32) {
  %r = "loop.for"(%x) <{static_lower = array<i64: 0>, static_upper = array<i64: 4>, static_step = array<i64: 1>, operandSegmentSizes = array<i32: 0, 0, 0, 1>}> ({
  ^bb0(%k: index, %a: f16):
    "loop.yield"(%x) : (f32) -> ()
  }) : (f32) -> f32
  loop.return
}
// CHECK: ops_invalid.mlir:116:3: error: 'loop.for' op block argument types (index, f16) must be the induction variable (index) and the iter_args types (index, f32)

// -----

loop.kernel @for_yield(%x: f32, %y: i32) {
  %r = loop.for %k = 0 to 4 step 1 iter_args(%a = %x) -> (f32) {
    loop.yield %y : i32
  }
  loop.return
}
// CHECK: ops_invalid.mlir:127:3: error: 'loop.for' op yielded types (i32) must equal the result types (f32)

// -----

func.func @yield_parent(%x: f32) {
  loop.yield
}
// CHECK: ops_invalid.mlir:137:3: error: 'loop.yield' expects parent op to be one of 'loop.parallel', 'loop.for'

// -----

loop.kernel @load_indices(%buf: memref<4x4xf32>, %i: index) {
  %x = loop.load %buf[%i] : memref<4x4xf32>
  loop.return
}
// CHECK: ops_invalid.mlir:144:3: error: 'loop.load' op takes one index per dimension of memref<4x4xf32> (2), but has 1

// -----

loop.kernel @load_result(%buf: memref<4xf32>, %i: index) {
  %x = "loop.load"(%buf, %i) : (memref<4xf32>, index) -> f16
  loop.return
}
// CHECK: ops_invalid.mlir:152:3: error: 'loop.load' op result type f16 must equal the element type f32 of memref<4xf32> (or be a 1-D vector of it)

// -----

loop.kernel @load_index_type(%buf: memref<4xf32>, %i: i32) {
  %x = "loop.load"(%buf, %i) : (memref<4xf32>, i32) -> f32
  loop.return
}
// CHECK: ops_invalid.mlir:160:3: error: operand 'indices' at position 1 does not verify:

// -----

func.func @load_buffer(%t: tensor<4xf32>, %i: index) {
  %x = loop.load %t[%i] : tensor<4xf32>
  func.return
}
// CHECK: ops_invalid.mlir:168:27: error: expected a memref type, got tensor<4xf32>

// -----

loop.kernel @store_indices(%buf: memref<4xf32>, %x: f32, %i: index) {
  loop.store %x, %buf[%i, %i] : memref<4xf32>
  loop.return
}
// CHECK: ops_invalid.mlir:176:3: error: 'loop.store' op takes one index per dimension of memref<4xf32> (1), but has 2

// -----

loop.kernel @store_value(%buf: memref<4xf32>, %x: i32, %i: index) {
  "loop.store"(%x, %buf, %i) : (i32, memref<4xf32>, index) -> ()
  loop.return
}
// CHECK: ops_invalid.mlir:184:3: error: 'loop.store' op value type i32 must equal the element type f32 of memref<4xf32> (or be a 1-D vector of it)

// -----

func.func @view_source(%arena: memref<64xi32>) {
  %v = loop.view %arena[0] : memref<64xi32> -> memref<4xf32>
  func.return
}
// CHECK: ops_invalid.mlir:192:3: error: 'loop.view' op source memref<64xi32> must be a 1-D buffer of bytes (i8)

// -----

func.func @view_static(%arena: memref<64xi8>) {
  %v = loop.view %arena[0] : memref<64xi8> -> memref<?xf32>
  func.return
}
// CHECK: ops_invalid.mlir:200:3: error: 'loop.view' op result memref<?xf32> must have a static shape and the row-major identity layout

// -----

func.func @view_element_size(%arena: memref<64xi8>) {
  %v = loop.view %arena[0] : memref<64xi8> -> memref<4xnone>
  func.return
}
// CHECK: ops_invalid.mlir:208:3: error: 'loop.view' op result element type none has no fixed byte size

// -----

func.func @view_alignment(%arena: memref<64xi8>) {
  %v = loop.view %arena[6] : memref<64xi8> -> memref<4xf32>
  func.return
}
// CHECK: ops_invalid.mlir:216:3: error: 'loop.view' op offset 6 must be a non-negative multiple of the element size (4 bytes)

// -----

func.func @view_bounds(%arena: memref<64xi8>) {
  %v = loop.view %arena[48] : memref<64xi8> -> memref<2x4xf32>
  func.return
}
// CHECK: ops_invalid.mlir:224:3: error: 'loop.view' op view of bytes [48, 80) overruns the 64-byte source

// -----

func.func @reshape_element(%b: memref<4xf32>) {
  %r = loop.reshape %b : memref<4xf32> -> memref<2x2xi16>
  func.return
}
// CHECK: ops_invalid.mlir:232:3: error: 'loop.reshape' op result memref<2x2xi16> must hold as many bytes as the source memref<4xf32>

// -----

func.func @reshape_size(%b: memref<4xf32>) {
  %r = loop.reshape %b : memref<4xf32> -> memref<2x3xf32>
  func.return
}
// CHECK: ops_invalid.mlir:240:3: error: 'loop.reshape' op result memref<2x3xf32> must have as many elements as the source memref<4xf32>

// -----

func.func @reshape_static(%b: memref<?xf32>) {
  %r = loop.reshape %b : memref<?xf32> -> memref<4xf32>
  func.return
}
// CHECK: ops_invalid.mlir:248:3: error: 'loop.reshape' op source memref<?xf32> must have a static shape and the row-major identity layout

// -----

"loop.global"() <{sym_name = "g", value = dense<1.0> : memref<4xf32>}> : () -> ()
// CHECK: ops_invalid.mlir:255:1: error: 'loop.global' op value must have a tensor type, but has memref<4xf32>

// -----

loop.global @g : memref<?xf32> = dense<1.0>
// CHECK: ops_invalid.mlir:260:18: error: expected a memref type of static shape, got memref<?xf32>

// -----

loop.kernel @get_global_undefined(%n: index) {
  %g = loop.get_global @missing : memref<4xf32>
  loop.return
}
// CHECK: ops_invalid.mlir:266:3: error: 'loop.get_global' op @missing is not defined, not a 'loop.global'

// -----

loop.kernel @get_global_kind(%n: index) {
  %g = loop.get_global @get_global_kind : memref<4xf32>
  loop.return
}
// CHECK: ops_invalid.mlir:274:3: error: 'loop.get_global' op @get_global_kind is a 'loop.kernel', not a 'loop.global'

// -----

loop.global @g : memref<4xf32> = dense<1.0>
loop.kernel @get_global_type(%n: index) {
  %g = loop.get_global @g : memref<2x2xf32>
  loop.return
}
// CHECK: ops_invalid.mlir:283:3: error: 'loop.get_global' op result type memref<2x2xf32> must equal the type of @g, memref<4xf32>

// -----

loop.kernel @kernel_results(%n: index) -> index {
  loop.return
}
// CHECK: ops_invalid.mlir:290:1: error: 'loop.kernel' op @kernel_results must return nothing (it writes its output buffers), but returns (index)

// -----

loop.kernel @kernel_arguments(%t: tensor<4xf32>) {
  loop.return
}
// CHECK: ops_invalid.mlir:297:1: error: 'loop.kernel' op argument #0 of @kernel_arguments has type tensor<4xf32>; a kernel takes only memrefs, index, integers and floats

// -----

"loop.kernel"() <{sym_name = "kernel_block_args", function_type = (memref<4xf32>) -> ()}> ({
^bb0(%b: memref<8xf32>):
  "loop.return"() : () -> ()
}) : () -> ()
// CHECK: ops_invalid.mlir:304:1: error: 'loop.kernel' op block argument types (memref<8xf32>) must equal the argument types (memref<4xf32>)

// -----

loop.kernel @kernel_terminator(%n: index) {
  %c = arith.constant 0 : index
}
// CHECK: ops_invalid.mlir:312:1: error: 'loop.kernel' op body must end in 'loop.return', but ends in 'arith.constant'

// -----

loop.kernel @kernel_blocks(%n: index) {
  loop.return
^bb1:
  loop.return
}
// CHECK: ops_invalid.mlir:319:1: error: 'loop.kernel' op body must have exactly one block, but has 2

// -----

func.func @kernel_isolated(%n: index) {
  loop.kernel @inner() {
    %m = arith.addi %n, %n : index
    loop.return
  }
  func.return
}
// CHECK: ops_invalid.mlir:330:5: error: 'arith.addi' op operand #0 uses a value defined outside the region of 'loop.kernel', which is isolated from above

// -----

func.func @return_parent() {
  loop.return
}
// CHECK: ops_invalid.mlir:340:3: error: 'loop.return' expects parent op 'loop.kernel'

// -----

loop.kernel @vector_element(%buf: memref<4xf32>, %i: index) {
  %v = "loop.load"(%buf, %i) : (memref<4xf32>, index) -> vector<4xf16>
  loop.return
}
// CHECK: ops_invalid.mlir:347:3: error: 'loop.load' op result type vector<4xf16> must equal the element type f32 of memref<4xf32> (or be a 1-D vector of it)

// -----

loop.kernel @vector_rank(%buf: memref<4x4xf32>, %i: index) {
  %v = "loop.load"(%buf, %i, %i) : (memref<4x4xf32>, index, index) -> vector<2x2xf32>
  loop.return
}
// CHECK: ops_invalid.mlir:355:3: error: 'loop.load' op result type vector<2x2xf32> must equal the element type f32 of memref<4x4xf32> (or be a 1-D vector of it)

// -----

loop.kernel @vector_scalar_buffer(%buf: memref<f32>) {
  %v = "loop.load"(%buf) : (memref<f32>) -> vector<4xf32>
  loop.return
}
// CHECK: ops_invalid.mlir:363:3: error: 'loop.load' op result type vector<4xf32> needs a buffer with a dimension to run along, but memref<f32> has rank 0

// -----

loop.kernel @vector_bits(%buf: memref<8xi1>, %i: index) {
  %v = "loop.load"(%buf, %i) : (memref<8xi1>, index) -> vector<8xi1>
  loop.return
}
// CHECK: ops_invalid.mlir:371:3: error: 'loop.load' op result type vector<8xi1> has 1-bit lanes; a buffer holds such elements a byte each, a vector packs them, so vectors take whole-byte elements only

// -----

// The value that marks an SSA bound in the static lists cannot be written
// as a constant bound.
loop.kernel @marker_as_step(%buf: memref<64xf32>) {
  loop.parallel (%i) = (0) to (64) step (-9223372036854775808) {
  }
  loop.return
}
// CHECK: ops_invalid.mlir:381:64: error: a constant bound or step may not be -9223372036854775808: that value marks an SSA bound

// -----

loop.kernel @marker_as_for_bound(%buf: memref<64xf32>) {
  loop.for %j = 0 to -9223372036854775808 step 1 {
  }
  loop.return
}
// CHECK: ops_invalid.mlir:390:50: error: a constant bound or step may not be -9223372036854775808: that value marks an SSA bound

// -----

// index is 64 bits wide (xlir/element_types.py): a view of indices is aligned to 8 bytes.
func.func @view_index_alignment(%arena: memref<64xi8>) {
  %v = loop.view %arena[4] : memref<64xi8> -> memref<4xindex>
  func.return
}
// CHECK: ops_invalid.mlir:400:3: error: 'loop.view' op offset 4 must be a non-negative multiple of the element size (8 bytes)

// -----

loop.kernel @call_argument(%v: memref<8xf32>) {
  %x = arith.constant dense<1.0> : vector<8xf32>
  loop.call @routine(%v, %x) : (memref<8xf32>, vector<8xf32>)
  loop.return
}
// CHECK: ops_invalid.mlir:409:3: error: 'loop.call' op argument #1 of routine has type vector<8xf32>; a routine takes only memrefs, index, integers and floats

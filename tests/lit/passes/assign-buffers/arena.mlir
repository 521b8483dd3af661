// RUN: xlir-opt --allow-unregistered-dialect %s --split-input-file -p assign-buffers | filecheck %s
// RUN: xlir-opt --allow-unregistered-dialect %s --split-input-file -p 'assign-buffers{alignment=16}' | filecheck %s --check-prefix=ALIGN16

// Packing the temp arena. `test.*` ops are opaque: each result needs a fresh
// buffer and reads its operands in no particular order (never in place).

// A buffer whose value is dead is reused; one still live is not.
// CHECK-LABEL: func.func @reuse_dead
// CHECK-SAME:  hlo.plan = #hlo.plan<arena = 128, alignment = 64, arguments = 0, outputs = 4, alias = 0, constants = 0>
// CHECK:       "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 64>]}
// CHECK-NEXT:  "test.op"(%{{.*}}) {hlo.buffers = [#hlo.buffer<temp, offset = 64, size = 64>]}
// CHECK-NEXT:  "test.op"(%{{.*}}) {hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 64>]}
// CHECK-NEXT:  "test.op"(%{{.*}}) {hlo.buffers = [#hlo.buffer<out 0>]}
// ALIGN16-LABEL: func.func @reuse_dead
// ALIGN16-SAME:  arena = 128, alignment = 16
func.func @reuse_dead() -> tensor<f32> {
  %a = "test.def"() : () -> tensor<16xf32>
  %b = "test.op"(%a) : (tensor<16xf32>) -> tensor<16xf32>
  // %a is dead here: %c takes its bytes, not %b's (still read below).
  %c = "test.op"(%b) : (tensor<16xf32>) -> tensor<16xf32>
  %r = "test.op"(%c) : (tensor<16xf32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// Best fit: when %d is made, %g1 (1024 bytes) and %g2 (256 bytes) are dead
// and leave two holes between live buffers; %d (96 bytes, placed last as the smallest) takes the
// smaller hole (first fit would take the larger one, at 2048).
// CHECK-LABEL: func.func @best_fit
// CHECK-SAME:  arena = 3968
// CHECK:       %[[L1:.*]] = "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 2048>]}
// CHECK-NEXT:  "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 2048, size = 1024>]}
// CHECK-NEXT:  "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 3072, size = 512>]}
// CHECK-NEXT:  "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 3584, size = 256>]}
// CHECK-NEXT:  "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 3840, size = 128>]}
// CHECK-NEXT:  "test.use"
// CHECK-NEXT:  "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 3584, size = 96>]}
func.func @best_fit() -> tensor<f32> {
  %l1 = "test.def"() : () -> tensor<512xf32>
  %g1 = "test.def"() : () -> tensor<256xf32>
  %l2 = "test.def"() : () -> tensor<128xf32>
  %g2 = "test.def"() : () -> tensor<64xf32>
  %l3 = "test.def"() : () -> tensor<32xf32>
  "test.use"(%g1, %g2) : (tensor<256xf32>, tensor<64xf32>) -> ()
  %d = "test.def"() : () -> tensor<24xf32>
  %r = "test.use"(%l1, %l2, %l3, %d) : (tensor<512xf32>, tensor<128xf32>, tensor<32xf32>, tensor<24xf32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// Offsets are aligned (64 by default); the arena ends at the last byte used.
// CHECK-LABEL: func.func @alignment
// CHECK-SAME:  arena = 129, alignment = 64
// CHECK:       "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 4>]}
// CHECK-NEXT:  "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 64, size = 4>]}
// CHECK-NEXT:  "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 128, size = 1>]}
// ALIGN16-LABEL: func.func @alignment
// ALIGN16-SAME:  arena = 33, alignment = 16
// ALIGN16:       "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 4>]}
// ALIGN16-NEXT:  "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 16, size = 4>]}
// ALIGN16-NEXT:  "test.def"() {hlo.buffers = [#hlo.buffer<temp, offset = 32, size = 1>]}
func.func @alignment() -> tensor<f32> {
  %a = "test.def"() : () -> tensor<f32>
  %b = "test.def"() : () -> tensor<i32>
  %c = "test.def"() : () -> tensor<i1>
  %r = "test.use"(%a, %b, %c) : (tensor<f32>, tensor<i32>, tensor<i1>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// Constants are read-only data outside the arena; parameters keep their own
// buffers and are never written, even where they die at an elementwise op.
// CHECK-LABEL: func.func @constants_and_parameters
// CHECK-SAME:  hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 32, outputs = 16, alias = 0, constants = 20>
// CHECK:       stablehlo.constant {hlo.buffers = [#hlo.buffer<const>]} dense<1.000000e+00> : tensor<4xf32>
// CHECK:       stablehlo.constant {hlo.buffers = [#hlo.buffer<const>]} dense<2.000000e+00> : tensor<f32>
// CHECK:       stablehlo.add %{{.*}}, %{{.*}} {hlo.buffers = [#hlo.buffer<out 0>]}
func.func @constants_and_parameters(%p: tensor<4xf32>, %q: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<1.0> : tensor<4xf32>
  %s = stablehlo.constant dense<2.0> : tensor<f32>
  %r = stablehlo.add %p, %c : tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// A parameter is not a temp even when an op could write over it in place:
// %t must get a buffer of its own.
// CHECK-LABEL: func.func @parameter_not_overwritten
// CHECK-SAME:  arena = 16
// CHECK:       stablehlo.exponential %{{.*}} {hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 16>]}
// CHECK:       "test.op"
func.func @parameter_not_overwritten(%p: tensor<4xf32>) -> tensor<f32> {
  %t = stablehlo.exponential %p : tensor<4xf32>
  %r = "test.op"(%t) : (tensor<4xf32>) -> tensor<f32>
  func.return %r : tensor<f32>
}
